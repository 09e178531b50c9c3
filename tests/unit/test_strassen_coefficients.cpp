// The one Strassen coefficient table (local/strassen_coefficients.hpp) and
// the local kernel's passes that are written against it.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "local/fast_gemm_passes.hpp"
#include "local/strassen_coefficients.hpp"

using namespace mmbench::local;

namespace {

// sum_q coef[q] x[q]
double combine(const std::array<int, 4>& coef, const std::array<double, 4>& x) {
  double s = 0;
  for (int q = 0; q < 4; ++q) s += coef[q] * x[q];
  return s;
}

}  // namespace

// The table is Strassen's algorithm: with 1x1 "quadrants" (a 2x2 product
// of scalars) the seven products and the four result rows give A·B exactly
// (small integers, so no rounding).
TEST(StrassenCoefficients, TheTableMultipliesTwoByTwo) {
  std::mt19937 gen(5);
  std::uniform_int_distribution<int> d(-9, 9);
  for (int trial = 0; trial < 100; ++trial) {
    std::array<double, 4> a, b;  // 0 = X11, 1 = X12, 2 = X21, 3 = X22
    for (int q = 0; q < 4; ++q) a[q] = d(gen), b[q] = d(gen);
    std::array<double, 7> prod;
    for (int t = 0; t < 7; ++t) prod[t] = combine(kStrassenProducts[t].a, a) * combine(kStrassenProducts[t].b, b);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        double c = 0;
        for (int t = 0; t < 7; ++t) c += kStrassenC[2 * i + j][t] * prod[t];
        EXPECT_EQ(c, a[2 * i] * b[j] + a[2 * i + 1] * b[2 + j]) << "C" << i + 1 << j + 1;
      }
  }
}

// What the local kernel's StrassenOperand relies on: every operand is a
// quadrant with +1, or a sum/difference of two quadrants.
TEST(StrassenCoefficients, EveryOperandIsOneQuadrantOrATwoTermSum) {
  for (const ProductFormula& f : kStrassenProducts)
    for (const auto& coef : {f.a, f.b}) {
      int terms = 0, plus = 0;
      for (int c : coef) terms += c != 0, plus += c == 1;
      EXPECT_TRUE((terms == 1 && plus == 1) || (terms == 2 && plus >= 1));
    }
}

// The parallel top level's fused passes (one pass computes several sums) are
// written by hand for speed; here they are checked against the table.
TEST(StrassenCoefficients, FusedPassesMatchTheTable) {
  const std::int64_t rows = 13, cols = 5, ld = 17;  // odd sizes, ld > rows
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> d(-1, 1);
  auto filled = [&] {
    std::vector<double> v(ld * cols);
    for (double& x : v) x = d(gen);
    return v;
  };
  std::array<std::vector<double>, 4> in;
  for (auto& v : in) v = filled();
  std::array<ConstBlock, 4> quads;
  for (int q = 0; q < 4; ++q) quads[q] = {in[q].data(), ld};
  std::array<std::vector<double>, 5> out;
  for (auto& v : out) v.assign(ld * cols, 0.0);
  auto blk = [&](int i) { return Block{out[i].data(), ld}; };
  const Columns all{rows, 0, cols};
  auto at = [&](const std::array<int, 4>& coef, std::int64_t i, std::int64_t j) {
    std::array<double, 4> x;
    for (int q = 0; q < 4; ++q) x[q] = in[q][i + j * ld];
    return combine(coef, x);
  };
  // Output o of a fused operand pass must be the table's side of product
  // products[o]: A side for Q1, Q2, Q5, Q6, Q7; B side for Q1, Q3, Q4, Q6, Q7.
  auto expect_operands = [&](const char* side, const int (&products)[5], bool a_side) {
    for (int o = 0; o < 5; ++o)
      for (std::int64_t j = 0; j < cols; ++j)
        for (std::int64_t i = 0; i < rows; ++i) {
          const ProductFormula& f = kStrassenProducts[products[o]];
          EXPECT_DOUBLE_EQ(out[o][i + j * ld], at(a_side ? f.a : f.b, i, j)) << side << " operand " << o;
        }
  };
  strassen_a_operands(all, quads[0], quads[1], quads[2], quads[3], blk(0), blk(1), blk(2), blk(3), blk(4));
  expect_operands("A", {0, 1, 4, 5, 6}, true);
  strassen_b_operands(all, quads[0], quads[1], quads[2], quads[3], blk(0), blk(1), blk(2), blk(3), blk(4));
  expect_operands("B", {0, 2, 3, 5, 6}, false);

  // Result pass: Q1, Q4, Q5 in temporaries, Q7, Q3, Q2, Q6 in C11, C12, C21, C22.
  std::array<std::vector<double>, 7> prod;
  for (auto& v : prod) v = filled();
  std::array<std::vector<double>, 4> c = {prod[6], prod[2], prod[1], prod[5]};
  strassen_combine(all, {prod[0].data(), ld}, {prod[3].data(), ld}, {prod[4].data(), ld}, {c[0].data(), ld},
                   {c[1].data(), ld}, {c[2].data(), ld}, {c[3].data(), ld});
  for (int q = 0; q < 4; ++q)
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = 0; i < rows; ++i) {
        double want = 0;
        for (int t = 0; t < 7; ++t) want += kStrassenC[q][t] * prod[t][i + j * ld];
        EXPECT_NEAR(c[q][i + j * ld], want, 1e-14) << "C quadrant " << q;
      }
}
