// The Mann-Whitney U test and its ratio interval against values computed
// by hand (each derivation in the comment above the check).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/stats/mann_whitney.hpp"

using namespace mmbench;

TEST(MannWhitney, ExactNullDistribution) {
  // n1 = n2 = 2: U = 0..4 in 1, 1, 2, 1, 1 of the C(4, 2) = 6 orderings.
  EXPECT_NEAR(mann_whitney_cdf(2, 2, 0), 1.0 / 6, 1e-12);
  EXPECT_NEAR(mann_whitney_cdf(2, 2, 1), 2.0 / 6, 1e-12);
  EXPECT_NEAR(mann_whitney_cdf(2, 2, 2), 4.0 / 6, 1e-12);
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(2, 2, 4), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(2, 2, -1), 0.0);
  // n1 = n2 = 3: 1, 1, 2, 3, 3, 3, 3, 2, 1, 1 of 20 -> P(U <= 3) = 7/20.
  EXPECT_NEAR(mann_whitney_cdf(3, 3, 3), 7.0 / 20, 1e-12);
  // n1 = n2 = 5: U <= 3 are the partitions of 0..3 into at most 5 parts
  // of at most 5: 1 + 1 + 2 + 3 = 7 of C(10, 5) = 252.
  EXPECT_NEAR(mann_whitney_cdf(5, 5, 3), 7.0 / 252, 1e-12);
  // Unequal sizes, n1 = 1, n2 = 4: U uniform on 0..4.
  EXPECT_NEAR(mann_whitney_cdf(1, 4, 1), 2.0 / 5, 1e-12);
  // Symmetric: P(U <= u) = P(U >= n1*n2 - u).
  EXPECT_NEAR(mann_whitney_cdf(4, 6, 10), 1 - mann_whitney_cdf(4, 6, 13), 1e-12);
}

TEST(MannWhitney, ExactTwoSided) {
  // Every y above every x: U = 9, p = 2 * 1/20.
  RankSumTest t = mann_whitney({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(t.exact);
  EXPECT_DOUBLE_EQ(t.u, 9);
  EXPECT_NEAR(t.p_value, 0.1, 1e-12);
  // Four against four, separated: p = 2 * 1/70 < 0.05.
  t = mann_whitney({1, 2, 3, 4}, {5, 6, 7, 8});
  EXPECT_NEAR(t.p_value, 2.0 / 70, 1e-12);
  // The same the other way round (y faster): U = 0, same p.
  t = mann_whitney({5, 6, 7, 8}, {1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(t.u, 0);
  EXPECT_NEAR(t.p_value, 2.0 / 70, 1e-12);
  // Interleaved: y > x in 2>1, 4>1, 4>3, 6>1, 6>3, 6>5: U = 6, the
  // smaller tail is U <= 3: p = 2 * 7/20.
  t = mann_whitney({1, 3, 5}, {2, 4, 6});
  EXPECT_DOUBLE_EQ(t.u, 6);
  EXPECT_NEAR(t.p_value, 0.7, 1e-12);
}

TEST(MannWhitney, NormalApproximationWithTies) {
  // x = {1, 2, 2}, y = {2, 3, 3}: y = 2 beats 1 and ties two 2s (1 + 0.5 +
  // 0.5), each 3 beats all three x (3 + 3): U = 8; mean n1 n2 / 2 = 4.5.
  // Tie groups: three 2s (27 - 3 = 24), two 3s (8 - 2 = 6): sum 30.
  // var = 9/12 * (7 - 30 / (6 * 5)) = 4.5; z = (3.5 - 0.5) / sqrt(4.5) = sqrt(2);
  // p = 2 (1 - Phi(sqrt 2)) = erfc(1) = 0.157299...
  RankSumTest t = mann_whitney({1, 2, 2}, {2, 3, 3});
  EXPECT_FALSE(t.exact);
  EXPECT_DOUBLE_EQ(t.u, 8);
  EXPECT_NEAR(t.p_value, std::erfc(1.0), 1e-12);
  // Everything tied: no evidence.
  EXPECT_DOUBLE_EQ(mann_whitney({2, 2}, {2, 2, 2}).p_value, 1.0);
  // Large samples use the normal approximation even without ties:
  // 60 x 60 fully separated is overwhelming.
  std::vector<double> a, b;
  for (int i = 0; i < 60; ++i) a.push_back(1 + i * 1e-3), b.push_back(2 + i * 1e-3);
  t = mann_whitney(a, b);
  EXPECT_FALSE(t.exact);
  EXPECT_LT(t.p_value, 1e-15);
  EXPECT_THROW(mann_whitney({}, {1}), std::invalid_argument);
}

TEST(MannWhitney, RatioInterval) {
  // Ratios y/x of {1,2,3} and {4,5,6}: 4/3 5/3 2 2 5/2 3 4 5 6 -> median 5/2.
  // No k > 1 reaches 95 % (1 - 2 * 2/20 = 0.8): [min, max], coverage
  // 1 - 2 * 1/20 = 0.9.
  RatioInterval r = ratio_interval({1, 2, 3}, {4, 5, 6});
  EXPECT_DOUBLE_EQ(r.ratio, 2.5);
  EXPECT_DOUBLE_EQ(r.lo, 4.0 / 3);
  EXPECT_DOUBLE_EQ(r.hi, 6.0);
  EXPECT_NEAR(r.coverage, 0.9, 1e-12);
  // Five against five: P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252, so
  // k = 3: the 3rd and the 23rd of the 25 sorted ratios, coverage 1 - 8/252.
  const std::vector<double> x = {1.0, 1.1, 1.3, 0.9, 1.05}, y = {1.2, 1.25, 1.4, 1.0, 1.15};
  r = ratio_interval(x, y);
  std::vector<double> all;
  for (double a : x)
    for (double b : y) all.push_back(b / a);
  std::sort(all.begin(), all.end());
  EXPECT_DOUBLE_EQ(r.ratio, all[12]);
  EXPECT_DOUBLE_EQ(r.lo, all[2]);
  EXPECT_DOUBLE_EQ(r.hi, all[22]);
  EXPECT_NEAR(r.coverage, 1 - 8.0 / 252, 1e-12);
  EXPECT_THROW(ratio_interval({1, 0}, {1}), std::invalid_argument);
}
