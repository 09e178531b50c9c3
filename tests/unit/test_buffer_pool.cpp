// The dispatcher's pool of large buffers (core/matrix/buffer_pool.hpp): inside a
// Scope a freed LargeVector's block waits idle and the next request that
// fits (at least its bytes, at most twice them) gets it back; outside a
// Scope nothing is pooled; the capacity bounds the idle bytes, largest
// blocks freed first; a pooled block freed outside a Scope goes back to the
// system (the sanitizer build checks that every block is freed once, with
// the alignment it was allocated with).
#include <gtest/gtest.h>

#include "core/matrix/buffer_pool.hpp"
#include "core/matrix/large_buffer.hpp"
#include "core/machine/memory_account.hpp"

using namespace mmbench;

namespace {

constexpr std::size_t kMiB = 1024 * 1024;
constexpr std::size_t kDoublesPerMiB = kMiB / sizeof(double);

// Every test starts and ends with an empty pool that keeps nothing.
class BufferPool : public ::testing::Test {
 protected:
  void SetUp() override { buffer_pool::set_capacity(0); }
  void TearDown() override { buffer_pool::set_capacity(0); }
};

}  // namespace

TEST_F(BufferPool, NothingIsPooledOutsideAScope) {
  buffer_pool::set_capacity(64 * kMiB);
  { LargeVector<double> a(kDoublesPerMiB, 1.0); }
  EXPECT_EQ(buffer_pool::idle_bytes(), 0u);
  EXPECT_FALSE(buffer_pool::in_scope());
}

TEST_F(BufferPool, AFreedBufferServesTheNextRequestThatFits) {
  buffer_pool::set_capacity(64 * kMiB);
  const buffer_pool::Scope scope;
  EXPECT_TRUE(buffer_pool::in_scope());
  const double* first = nullptr;
  {
    LargeVector<double> a(4 * kDoublesPerMiB, 1.0);
    first = a.data();
  }
  EXPECT_EQ(buffer_pool::idle_bytes(), 4 * kMiB);
  buffer_pool::reset_served();
  const std::size_t in_use = memory_account::current_bytes();
  {
    LargeVector<double> b(3 * kDoublesPerMiB, 0.0);  // 3 MiB: the 4 MiB block fits (<= twice)
    EXPECT_EQ(b.data(), first);
    EXPECT_EQ(buffer_pool::served_bytes(), 3 * kMiB);
    EXPECT_EQ(buffer_pool::idle_bytes(), 0u);
    // memory_account counts what is asked for, not the block behind it.
    EXPECT_EQ(memory_account::current_bytes(), in_use + 3 * kMiB);
    EXPECT_EQ(b[12345], 0.0);  // a vector's own zeroing still happens
  }
  EXPECT_EQ(buffer_pool::idle_bytes(), 4 * kMiB);
  {
    LargeVector<double> small(kDoublesPerMiB, 0.0);  // 1 MiB: a 4 MiB block is more than twice
    EXPECT_NE(small.data(), first);
    EXPECT_EQ(buffer_pool::served_bytes(), 3 * kMiB);
    LargeVector<double> big(5 * kDoublesPerMiB, 0.0);  // 5 MiB: too big for it
    EXPECT_NE(big.data(), first);
  }
  // All three idle now: 4 + 1 + 5 MiB.
  EXPECT_EQ(buffer_pool::idle_bytes(), 10 * kMiB);
}

TEST_F(BufferPool, TheCapacityBoundsWhatWaitsLargestFirstOut) {
  buffer_pool::set_capacity(8 * kMiB);
  const buffer_pool::Scope scope;
  {
    LargeVector<double> a(2 * kDoublesPerMiB), b(3 * kDoublesPerMiB), c(5 * kDoublesPerMiB);
  }
  // c (5 MiB) is freed first and kept, b (3 MiB) fills the 8, a (2 MiB) has no room.
  EXPECT_EQ(buffer_pool::idle_bytes(), 8 * kMiB);
  buffer_pool::trim(4 * kMiB);  // the 5 MiB block goes first
  EXPECT_EQ(buffer_pool::idle_bytes(), 3 * kMiB);
  buffer_pool::set_capacity(0);
  EXPECT_EQ(buffer_pool::idle_bytes(), 0u);
  EXPECT_EQ(buffer_pool::capacity(), 0u);
}

TEST_F(BufferPool, APooledBlockFreedOutsideAScopeGoesBackToTheSystem) {
  buffer_pool::set_capacity(64 * kMiB);
  LargeVector<double> kept;
  {
    const buffer_pool::Scope scope;
    kept = LargeVector<double>(2 * kDoublesPerMiB, 1.0);
  }
  kept = LargeVector<double>();  // freed outside: not kept idle
  EXPECT_EQ(buffer_pool::idle_bytes(), 0u);
}

TEST_F(BufferPool, ScopesNest) {
  const buffer_pool::Scope outer;
  {
    const buffer_pool::Scope inner;
    EXPECT_TRUE(buffer_pool::in_scope());
  }
  EXPECT_TRUE(buffer_pool::in_scope());
}
