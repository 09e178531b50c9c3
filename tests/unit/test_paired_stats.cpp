// Paired statistics: the median's order-statistics interval against exact
// binomial values and against known distributions; the round schedule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "core/stats/paired_stats.hpp"

using namespace mmbench;

TEST(PairedStats, BinomialHalfCdf) {
  EXPECT_NEAR(binomial_half_cdf(10, 1), 11.0 / 1024, 1e-12);
  EXPECT_NEAR(binomial_half_cdf(10, 2), 56.0 / 1024, 1e-12);
  EXPECT_NEAR(binomial_half_cdf(5, 0), 1.0 / 32, 1e-12);
  EXPECT_DOUBLE_EQ(binomial_half_cdf(7, 7), 1.0);
  EXPECT_DOUBLE_EQ(binomial_half_cdf(7, -1), 0.0);
  // Large n stays finite; odd n is symmetric about n/2: P(B <= 1000 | n = 2001) = 1/2.
  EXPECT_NEAR(binomial_half_cdf(2001, 1000), 0.5, 1e-9);
}

TEST(PairedStats, IntervalOrderStatistics) {
  // n = 10 -> [x(2), x(9)], coverage 1 - 2 * 11/1024 (worked example in the header).
  std::vector<double> x = {10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
  MedianInterval m = median_interval(x);
  EXPECT_DOUBLE_EQ(m.median, 5.5);
  EXPECT_DOUBLE_EQ(m.lo, 2);
  EXPECT_DOUBLE_EQ(m.hi, 9);
  EXPECT_NEAR(m.coverage, 1 - 22.0 / 1024, 1e-12);
  EXPECT_EQ(m.n, 10);
  // Fewer than 6 samples: [min, max] and an honest coverage below 95 %.
  MedianInterval s = median_interval({3, 1, 2});
  EXPECT_DOUBLE_EQ(s.lo, 1);
  EXPECT_DOUBLE_EQ(s.hi, 3);
  EXPECT_NEAR(s.coverage, 0.75, 1e-12);
  EXPECT_DOUBLE_EQ(median_interval({4.0}).coverage, 0.0);
  EXPECT_GE(median_interval(std::vector<double>(6, 1.0)).coverage, 0.95);
  EXPECT_THROW(median_interval({}), std::invalid_argument);
  EXPECT_THROW(median_interval({1.0}, 1.0), std::invalid_argument);
  EXPECT_NEAR((MedianInterval{1.0, 0.97, 1.02, 0.95, 8}).relative_half_width(), 0.03, 1e-12);
}

// What a label states: the coverage the interval really has at n samples,
// the same number median_interval reports, never the level asked for.
TEST(PairedStats, IntervalCoverageByRounds) {
  EXPECT_NEAR(interval_coverage(3), 0.75, 1e-12);      // [min, max]: 1 - 2 / 2^3
  EXPECT_NEAR(interval_coverage(5), 0.9375, 1e-12);    // still [min, max]
  EXPECT_NEAR(interval_coverage(6), 1 - 2.0 / 64, 1e-12);
  EXPECT_NEAR(interval_coverage(10), 1 - 22.0 / 1024, 1e-12);
  EXPECT_DOUBLE_EQ(interval_coverage(1), 0.0);
  for (int n = 1; n <= 40; ++n)
    EXPECT_DOUBLE_EQ(interval_coverage(n), median_interval(std::vector<double>(static_cast<std::size_t>(n), 1.0)).coverage)
        << "n = " << n;
  EXPECT_THROW(interval_coverage(0), std::invalid_argument);
  EXPECT_EQ(coverage_label(0.75), "75 %");
  EXPECT_EQ(coverage_label(0.9375), "93.7 %");  // rounded down, never up
  EXPECT_EQ(coverage_label(interval_coverage(6)), "96.8 %");
  // The file form: 4 decimals, rounded down as well.
  EXPECT_EQ(coverage_text(0.75), "0.7500");
  EXPECT_EQ(coverage_text(0.9375), "0.9375");
  EXPECT_EQ(coverage_text(interval_coverage(6)), "0.9687");
  EXPECT_EQ(coverage_label(0.0), "0 %");
}

// The interval must contain the true median in >= 95 % of draws (it is
// conservative: exact coverage is >= the level), for skewed and symmetric
// distributions alike -- it assumes nothing about their shape.
TEST(PairedStats, IntervalCoverageOnKnownDistributions) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> lognormal(0.0, 0.3);    // median exp(0) = 1
  std::normal_distribution<double> normal(2.0, 0.5);          // median 2
  std::exponential_distribution<double> expo(1.0);            // median ln 2
  for (int n : {6, 9, 15, 40}) {
    int hit_ln = 0, hit_no = 0, hit_ex = 0;
    const int draws = 4000;
    for (int d = 0; d < draws; ++d) {
      std::vector<double> a, b, c;
      for (int i = 0; i < n; ++i) {
        a.push_back(lognormal(rng));
        b.push_back(normal(rng));
        c.push_back(expo(rng));
      }
      auto ia = median_interval(a), ib = median_interval(b), ic = median_interval(c);
      hit_ln += ia.lo <= 1.0 && 1.0 <= ia.hi;
      hit_no += ib.lo <= 2.0 && 2.0 <= ib.hi;
      hit_ex += ic.lo <= std::log(2.0) && std::log(2.0) <= ic.hi;
      ASSERT_GE(ia.coverage, 0.95);
    }
    // 4000 draws: the binomial standard error of a 0.95 rate is 0.0034.
    EXPECT_GE(hit_ln / double(draws), 0.94) << "n = " << n;
    EXPECT_GE(hit_no / double(draws), 0.94) << "n = " << n;
    EXPECT_GE(hit_ex / double(draws), 0.94) << "n = " << n;
  }
}

TEST(PairedStats, CoefficientOfVariation) {
  EXPECT_DOUBLE_EQ(coefficient_of_variation({5.0}), 0.0);
  EXPECT_NEAR(coefficient_of_variation({1.0, 2.0, 3.0}), 0.5, 1e-12);  // sd 1, mean 2
}

TEST(PairedStats, RoundOrderIsAReproduciblePermutation) {
  for (std::size_t count : {0u, 1u, 2u, 7u, 30u}) {
    for (int round = 0; round < 5; ++round) {
      auto o = round_order(count, 1234, round);
      ASSERT_EQ(o.size(), count);
      std::set<std::size_t> seen(o.begin(), o.end());
      EXPECT_EQ(seen.size(), count);  // every configuration exactly once
      if (count) {
        EXPECT_EQ(*seen.rbegin(), count - 1);
      }
      EXPECT_EQ(o, round_order(count, 1234, round));  // same seed, same order
    }
  }
  // Different rounds and seeds shuffle differently.
  EXPECT_NE(round_order(30, 1234, 0), round_order(30, 1234, 1));
  EXPECT_NE(round_order(30, 1234, 0), round_order(30, 99, 0));
}

// Every position is equally likely for every configuration (no bias of the
// shuffle): over 6000 rounds of 3 configurations each lands in each slot
// about 2000 times.
TEST(PairedStats, RoundOrderIsUniform) {
  int slot[3][3] = {};
  for (int r = 0; r < 6000; ++r) {
    auto o = round_order(3, 5, r);
    for (int pos = 0; pos < 3; ++pos) ++slot[o[static_cast<std::size_t>(pos)]][pos];
  }
  for (auto& row : slot)
    for (int c : row) EXPECT_NEAR(c, 2000, 150);
}
