// The operand passes of the local kernel (local/fast_gemm_passes.hpp) with
// streaming (non-temporal) stores: the same values, bit for bit, as the
// cached stores, wherever the columns sit.
//
// Streaming runs two rows at a time and only on columns whose outputs are
// all 16-byte aligned; every other column, and a column's odd last row, is
// stored the plain way. The cases below make each of those paths run:
// rows 0..9 and 17 (empty, odd tails), an odd leading dimension (columns
// alternate between aligned and not), and outputs shifted by one double
// (no column aligned) or only some of them shifted (mixed alignment: the
// whole column must fall back). Rows past `rows` in each column and the
// columns outside [j0, j1) hold a sentinel that must survive.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "local/fast_gemm_passes.hpp"

using namespace mmbench::local;

namespace {

using i64 = std::int64_t;
constexpr double kSentinel = -777.0;

// A storage area with `count` column-major blocks of rows×cols, leading
// dimension ld, each starting `shift[b]` doubles after a 64-byte boundary.
struct Area {
  std::vector<double> v;
  std::vector<i64> start;  // first element of block b in v
  i64 ld, lead, extent;    // blocks lie in v[lead, lead + extent)
  Area(int count, i64 ld_, i64 cols, const std::vector<i64>& shift, double fill) : ld(ld_) {
    const i64 stride = (ld * cols + 16) / 8 * 8 + 8;  // a multiple of 8 doubles
    extent = stride * count;
    v.assign(static_cast<size_t>(extent + 16), fill);
    // v.data() is 16-byte aligned (operator new); find a 64-byte base in it.
    const auto base = reinterpret_cast<std::uintptr_t>(v.data());
    lead = static_cast<i64>(((64 - base % 64) % 64) / sizeof(double));
    for (int b = 0; b < count; ++b) start.push_back(lead + b * stride + shift[static_cast<size_t>(b)]);
  }
  Block block(int b) { return {v.data() + start[static_cast<size_t>(b)], ld}; }
  // Element i of the blocks' extent (the same place in two areas whose
  // vectors start at different addresses).
  double at(i64 i) const { return v[static_cast<size_t>(lead + i)]; }
  i64 written(double fill) const {  // elements anywhere in v that are not `fill`
    i64 w = 0;
    for (double x : v) w += x != fill;
    return w;
  }
};

struct Case {
  i64 rows, ld;
  std::vector<i64> out_shift;  // per output block, in doubles
};

std::string name(const Case& c) {
  std::string s = "rows=" + std::to_string(c.rows) + " ld=" + std::to_string(c.ld) + " shifts=";
  for (i64 x : c.out_shift) s += std::to_string(x);
  return s;
}

// Runs one pass kind with both store kinds on identical inputs and compares
// every element of the output areas (including the sentinels).
template <class Pass>
void expect_same_with_both_stores(int outputs, Pass pass) {
  const i64 cols = 5;
  const Columns inner{0, 1, 4};  // rows set per case; columns 0 and 4 untouched
  const std::vector<Case> cases = {
      {0, 1, std::vector<i64>(outputs, 0)},  {1, 1, std::vector<i64>(outputs, 0)},
      {2, 2, std::vector<i64>(outputs, 0)},  {3, 3, std::vector<i64>(outputs, 0)},
      {7, 7, std::vector<i64>(outputs, 0)},  {8, 8, std::vector<i64>(outputs, 0)},
      {9, 11, std::vector<i64>(outputs, 0)}, {17, 17, std::vector<i64>(outputs, 0)},
      {16, 16, std::vector<i64>(outputs, 1)},  // no output aligned
      {16, 16, [&] {                           // only the last one shifted
         std::vector<i64> s(outputs, 0);
         s.back() = 1;
         return s;
       }()},
      {32, 40, std::vector<i64>(outputs, 0)},  // aligned, ld > rows
  };
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const Case& c : cases) {
    Area in(4, c.ld, cols, {0, 1, 0, 1}, 0.0);  // inputs need no alignment
    for (double& x : in.v) x = u(gen);
    Area cached(outputs, c.ld, cols, c.out_shift, kSentinel);
    Area streamed(outputs, c.ld, cols, c.out_shift, kSentinel);
    const Columns r{c.rows, inner.j0, inner.j1};
    pass(r, in, cached, Stores::cached);
    pass(r, in, streamed, Stores::streaming);
    ASSERT_EQ(cached.extent, streamed.extent);
    for (i64 i = 0; i < cached.extent; ++i)
      ASSERT_EQ(cached.at(i), streamed.at(i)) << name(c) << " element " << i;
    // Exactly rows × 3 columns × outputs elements were written, by either
    // store kind (random sums are never the sentinel): nothing outside the
    // blocks' rows and columns, nothing before or after the blocks.
    const i64 expected = c.rows * (inner.j1 - inner.j0) * outputs;
    EXPECT_EQ(cached.written(kSentinel), expected) << name(c);
    EXPECT_EQ(streamed.written(kSentinel), expected) << name(c);
  }
}

}  // namespace

TEST(FastGemmPasses, WinogradOperandsStreamTheSameValues) {
  expect_same_with_both_stores(4, [](Columns r, Area& in, Area& out, Stores st) {
    winograd_a_operands(r, in.block(0), in.block(1), in.block(2), in.block(3), out.block(0),
                        out.block(1), out.block(2), out.block(3), st);
  });
  expect_same_with_both_stores(4, [](Columns r, Area& in, Area& out, Stores st) {
    winograd_b_operands(r, in.block(0), in.block(1), in.block(2), in.block(3), out.block(0),
                        out.block(1), out.block(2), out.block(3), st);
  });
}

TEST(FastGemmPasses, StrassenOperandsStreamTheSameValues) {
  expect_same_with_both_stores(5, [](Columns r, Area& in, Area& out, Stores st) {
    strassen_a_operands(r, in.block(0), in.block(1), in.block(2), in.block(3), out.block(0),
                        out.block(1), out.block(2), out.block(3), out.block(4), st);
  });
  expect_same_with_both_stores(5, [](Columns r, Area& in, Area& out, Stores st) {
    strassen_b_operands(r, in.block(0), in.block(1), in.block(2), in.block(3), out.block(0),
                        out.block(1), out.block(2), out.block(3), out.block(4), st);
  });
}

// The values themselves (the cached path is the reference above): one
// element of each Winograd operand against its formula.
TEST(FastGemmPasses, WinogradOperandFormulas) {
  // 2 rows, 1 column; quadrants X11 = 1, X12 = 2, X21 = 4, X22 = 8 (row 0)
  // and 16, 32, 64, 128 (row 1).
  double q[4][2] = {{1, 16}, {2, 32}, {4, 64}, {8, 128}};
  alignas(16) double o[4][2];
  const Columns r{2, 0, 1};
  for (Stores st : {Stores::cached, Stores::streaming}) {
    winograd_a_operands(r, {q[0], 2}, {q[1], 2}, {q[2], 2}, {q[3], 2}, {o[0], 2}, {o[1], 2},
                        {o[2], 2}, {o[3], 2}, st);
    // S1 = A21 + A22, S2 = S1 - A11, S3 = A11 - A21, S4 = A12 - S2.
    EXPECT_EQ(o[0][1], 64 + 128);
    EXPECT_EQ(o[1][1], 64 + 128 - 16);
    EXPECT_EQ(o[2][1], 16 - 64);
    EXPECT_EQ(o[3][1], 32 - (64 + 128 - 16));
    winograd_b_operands(r, {q[0], 2}, {q[1], 2}, {q[2], 2}, {q[3], 2}, {o[0], 2}, {o[1], 2},
                        {o[2], 2}, {o[3], 2}, st);
    // T1 = B12 - B11, T2 = B22 - T1, T3 = B22 - B12, T4 = T2 - B21.
    EXPECT_EQ(o[0][0], 2 - 1);
    EXPECT_EQ(o[1][0], 8 - (2 - 1));
    EXPECT_EQ(o[2][0], 8 - 2);
    EXPECT_EQ(o[3][0], 8 - (2 - 1) - 4);
  }
}
