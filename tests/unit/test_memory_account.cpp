// The count of mmbench's own buffers (core/machine/memory_account.hpp) that the
// measured memory per rank comes from: every LargeVector and the local
// kernel's workspace are counted, freeing gives them back, the peak holds
// the most since its reset. And the sizes people write (core/byte_size.hpp).
#include <gtest/gtest.h>

#include <cstdint>

#include "core/byte_size.hpp"
#include "core/matrix/dist_matrix.hpp"
#include "core/matrix/large_buffer.hpp"
#include "core/machine/memory_account.hpp"
#include "core/machine/process_memory.hpp"
#include "core/usage_error.hpp"
#include "local/local_multiply.hpp"

using namespace mmbench;

TEST(MemoryAccount, LargeVectorsAreCountedAndTheirPeakKept) {
  const std::size_t base = memory_account::current_bytes();
  memory_account::reset_peak();
  EXPECT_EQ(memory_account::peak_bytes(), base);
  {
    LargeVector<double> a(1000, 0.0);
    EXPECT_EQ(memory_account::current_bytes(), base + 8000);
    {
      DistMatrix m(single_owner(30, 20, 1, 0), 0);
      EXPECT_EQ(memory_account::current_bytes(), base + 8000 + 8 * 600);
    }
    EXPECT_EQ(memory_account::current_bytes(), base + 8000);
    a.resize(3000);  // a new buffer of 3000 while the old one of 1000 is copied
    EXPECT_EQ(memory_account::current_bytes(), base + 24000);
    EXPECT_EQ(memory_account::peak_bytes(), base + 32000);
  }
  EXPECT_EQ(memory_account::current_bytes(), base);
  memory_account::reset_peak();
  EXPECT_EQ(memory_account::peak_bytes(), base);
}

TEST(MemoryAccount, TheLocalKernelsWorkspaceIsCounted) {
  const std::size_t base = memory_account::current_bytes();
  {
    local::LocalMultiply lm({.levels = 2, .min_dim = 32}, 1);
    lm.prepare(256, 256, 256);
    const std::int64_t need = local::LocalMultiply::workspace_doubles_needed(256, 256, 256, {.levels = 2, .min_dim = 32}, 1);
    ASSERT_GT(need, 0);
    EXPECT_EQ(memory_account::current_bytes(), base + 8 * static_cast<std::size_t>(need));
    EXPECT_EQ(lm.workspace_doubles(), need);
  }
  EXPECT_EQ(memory_account::current_bytes(), base);
}

TEST(ProcessMemory, ResidentSetIsKnownOnLinux) {
  EXPECT_GT(process_memory::resident_bytes(), 0);
  EXPECT_GE(process_memory::peak_resident_bytes(), process_memory::resident_bytes());
  // Where the reset is allowed, the peak restarts near the resident set.
  if (process_memory::reset_peak_resident()) {
    EXPECT_LE(process_memory::peak_resident_bytes(), process_memory::resident_bytes() + (std::int64_t{1} << 20));
  }
}

TEST(ByteSize, ParsesBinaryUnits) {
  EXPECT_EQ(parse_byte_size("--memory-per-rank", "4G"), std::int64_t{4} << 30);
  EXPECT_EQ(parse_byte_size("--memory-per-rank", "512M"), std::int64_t{512} << 20);
  EXPECT_EQ(parse_byte_size("--memory-per-rank", "1.5G"), std::int64_t{3} << 29);
  EXPECT_EQ(parse_byte_size("--memory-per-rank", "64k"), std::int64_t{64} << 10);
  EXPECT_EQ(parse_byte_size("--memory-per-rank", "4GiB"), std::int64_t{4} << 30);
  EXPECT_EQ(parse_byte_size("--memory-per-rank", "4GB"), std::int64_t{4} << 30);
  EXPECT_EQ(parse_byte_size("--memory-per-rank", "2T"), std::int64_t{2} << 40);
  EXPECT_EQ(parse_byte_size("--memory-per-rank", "65536"), 65536);
  for (const char* bad : {"", "4X", "G", "-1", "0", "4GG", "0.1", "abc", "2000T", "nan"})
    EXPECT_THROW(parse_byte_size("--memory-per-rank", bad), UsageError) << bad;
  try {
    parse_byte_size("--memory-per-rank", "4X");
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--memory-per-rank: '4X' is not a memory size; allowed a number above 0 with an optional K, M, G or "
                 "T suffix (binary multiples: 4G = 4 GiB, 512M = 512 MiB), at most 1024T");
  }
}

TEST(ByteSize, FormatsThreeDigits) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(45.9 * (1 << 20)), "45.9 MiB");
  EXPECT_EQ(format_bytes(448.0 * (1 << 20)), "448 MiB");
  EXPECT_EQ(format_bytes(3.5 * (1 << 30)), "3.50 GiB");
}
