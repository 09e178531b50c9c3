// The heap policy of the mmbench executable (core/machine/heap_policy.hpp):
// a block under 32 MiB freed at the top of the heap stays with the process,
// so the next allocation of its size reuses it instead of mapping and first
// touching fresh pages.
#include "core/machine/heap_policy.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace mmbench {
namespace {

#ifdef __GLIBC__
// Bytes of the main heap (sbrk) the process holds, in use or free.
std::size_t heap_bytes() { return mallinfo2().arena; }

TEST(HeapPolicy, FreedBlocksStayInTheHeap) {
  if (std::getenv("MALLOC_TRIM_THRESHOLD_") || std::getenv("MALLOC_MMAP_THRESHOLD_") ||
      std::getenv("MALLOC_TOP_PAD_") || std::getenv("MALLOC_MMAP_MAX_") || std::getenv("GLIBC_TUNABLES")) {
    heap_policy::keep_freed_heap_memory();
    EXPECT_NE(heap_policy::describe().find("set by the user"), std::string::npos) << heap_policy::describe();
    GTEST_SKIP() << "the environment sets glibc's malloc variables: the policy leaves them alone";
  }
  EXPECT_EQ(heap_policy::describe(), "glibc defaults");
  heap_policy::keep_freed_heap_memory();
  EXPECT_EQ(heap_policy::describe(), "glibc: freed heap memory kept (mmap threshold 32 MiB, no trim)");
  // Three blocks of 4 + 2 + 2 MiB, as PBLAS's panels of PDGEMM at n = 1024,
  // lb = 512 on 1 x 2: under glibc's defaults the first is mapped (above the
  // 128 KiB threshold) and the heap never holds them.
  const std::size_t sizes[] = {4u << 20, 2u << 20, 2u << 20};
  void* blocks[3];
  for (int i = 0; i < 3; ++i) {
    blocks[i] = std::malloc(sizes[i]);
    ASSERT_NE(blocks[i], nullptr);
    std::memset(blocks[i], 1, sizes[i]);
  }
  const std::size_t held = heap_bytes();
  EXPECT_GE(held, std::size_t{8} << 20) << "the blocks did not come from the heap";
  for (void* b : blocks) std::free(b);
  EXPECT_GE(heap_bytes(), held) << "the heap gave the freed blocks back";
  // Measuring a first touch gives them back on purpose.
  heap_policy::release_free_memory();
  void* again = std::malloc(sizes[0]);
  ASSERT_NE(again, nullptr);
  std::free(again);
}
#endif

}  // namespace
}  // namespace mmbench
