// Ratios formed round by round, and when --reps auto has measured enough.
#include <gtest/gtest.h>

#include <random>

#include "run/round_statistics.hpp"

using namespace mmbench;
using namespace mmbench::run;

TEST(RoundStatistics, PairedRatioCancelsDrift) {
  // The machine drifts by 2x over the rounds; x is always 10 % faster than
  // ref in the same round. Unpaired medians would mix the drift in; the
  // per-round ratio is exactly 1.1 in every round.
  std::vector<double> ref, x;
  for (int r = 0; r < 8; ++r) {
    const double slow = 1.0 + r / 7.0;
    ref.push_back(1.1 * slow);
    x.push_back(1.0 * slow);
  }
  MedianInterval m = paired_speed_ratio(ref, x);
  EXPECT_NEAR(m.median, 1.1, 1e-12);
  EXPECT_NEAR(m.lo, 1.1, 1e-12);
  EXPECT_NEAR(m.hi, 1.1, 1e-12);
  EXPECT_EQ(m.n, 8);
  // A missing time (<= 0) skips that round only.
  x[3] = 0;
  EXPECT_EQ(paired_speed_ratio(ref, x).n, 7);
  EXPECT_THROW(paired_speed_ratio({0.0}, {1.0}), std::invalid_argument);
}

TEST(RoundStatistics, ReferenceIsThePeerElseTheFastest) {
  std::vector<std::vector<double>> t = {{3, 3, 3}, {1, 1, 1}, {2, 2, 2}, {}};
  EXPECT_EQ(reference_for_stopping(t, 2), 2u);
  EXPECT_EQ(reference_for_stopping(t, std::nullopt), 1u);
  EXPECT_EQ(reference_for_stopping(t, 3), 1u);  // a peer without times does not count
  EXPECT_FALSE(reference_for_stopping({{}, {}}, std::nullopt).has_value());
}

TEST(RoundStatistics, PreciseEnoughNeedsRoundsAndNarrowIntervals) {
  // Identical times: every ratio is exactly 1, so only the round count matters.
  std::vector<std::vector<double>> t(3, std::vector<double>(5, 1.0));
  EXPECT_FALSE(precise_enough(t, 0, 0.02, 6));  // 5 < 6 rounds
  for (auto& v : t) v.push_back(1.0);
  EXPECT_TRUE(precise_enough(t, 0, 0.02, 6));
  // One configuration with a 10 % spread in its ratios: not within 2 %, within 20 %.
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0.9, 1.1);
  for (double& x : t[2]) x = u(rng);
  EXPECT_FALSE(precise_enough(t, 0, 0.02, 6));
  EXPECT_TRUE(precise_enough(t, 0, 0.25, 6));
  // Not-applicable configurations (no times) are ignored.
  t.push_back({});
  EXPECT_TRUE(precise_enough(t, 0, 0.25, 6));
  // A single configuration is judged by its own median time's interval.
  EXPECT_TRUE(precise_enough({{1.0, 1.0, 1.0, 1.0, 1.0, 1.0}}, std::nullopt, 0.02, 6));
  EXPECT_FALSE(precise_enough({{1.0, 1.5, 1.0, 1.0, 1.0, 1.0}}, std::nullopt, 0.02, 6));
}

// With noisy but paired samples the precision is reached after a number of
// rounds that grows as the noise grows -- the stopping rule converges.
TEST(RoundStatistics, PrecisionIsReachedWithEnoughRounds) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> noise(0.0, 0.03);
  std::vector<std::vector<double>> t(2);
  int rounds = 0;
  while ((rounds < 6 || !precise_enough(t, 0, 0.02, 6)) && rounds < 200) {
    const double drift = 1.0 + 0.5 * std::sin(rounds);  // shared by both in a round
    t[0].push_back(1.0 * drift * noise(rng));
    t[1].push_back(0.8 * drift * noise(rng));
    ++rounds;
  }
  EXPECT_LT(rounds, 200);
  EXPECT_GE(rounds, 6);
  EXPECT_NEAR(paired_speed_ratio(t[0], t[1]).median, 1.25, 0.05);
}
