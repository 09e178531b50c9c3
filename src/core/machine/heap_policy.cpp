#include "core/machine/heap_policy.hpp"

#include <cstdlib>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace mmbench::heap_policy {

namespace {
std::string& state() {
  static std::string s =
#ifdef __GLIBC__
      "glibc defaults";
#else
      "not glibc: the allocator's defaults";
#endif
  return s;
}
bool& applied() {
  static bool a = false;
  return a;
}
}  // namespace

void keep_freed_heap_memory() {
  if (applied()) return;
  applied() = true;
#ifdef __GLIBC__
  for (const char* v :
       {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_", "GLIBC_TUNABLES"}) {
    if (std::getenv(v) != nullptr) {
      state() = std::string("glibc defaults (") + v + " set by the user)";
      return;
    }
  }
  // mallopt returns 1 on success. Setting either value also stops glibc's
  // dynamic adjustment of both, which is the point: they stay as set.
  const bool ok = mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThresholdBytes)) == 1 &&
                  mallopt(M_TRIM_THRESHOLD, -1) == 1;  // -1: never (as an unsigned size)
  state() = ok ? "glibc: freed heap memory kept (mmap threshold 32 MiB, no trim)"
               : "glibc defaults (mallopt refused the policy)";
#endif
}

std::string describe() { return state(); }

void release_free_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace mmbench::heap_policy
