// Tests of the PDGEMM check's pure parts: the candidate ladder and the
// decision from interleaved round times (the MPI part runs in
// tests/mpi/test_tune_small.cpp).
#include "tuner/lb_check.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace mmbench::tuner {
namespace {

using V = std::vector<std::int64_t>;

TEST(LbLadder, DocumentedExamples) {
  EXPECT_EQ(lb_ladder(78, 2048), (V{32, 40, 78, 156, 312, 624, 1248}));
  EXPECT_EQ(lb_ladder(64, 2048), (V{32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(lb_ladder(16, 64), (V{8, 16, 32, 64}));
}

TEST(LbLadder, CapsAtTheWidthAndKeepsTheReference) {
  // 190: 96, 190, 380, 760, 1520, then 3040 > 2048 -> the width itself.
  EXPECT_EQ(lb_ladder(190, 2048), (V{32, 96, 190, 380, 760, 1520, 2048}));
  // A rule's lb at the width: r/2 and r only; 32 is always there.
  EXPECT_EQ(lb_ladder(1024, 1024), (V{32, 512, 1024}));
  // A tiny problem: the reference stays even above the width.
  EXPECT_EQ(lb_ladder(8, 16), (V{4, 8, 16, 32}));
  // rule_lb beyond the width is clamped to it.
  EXPECT_EQ(lb_ladder(5000, 1000), (V{32, 500, 1000}));
  // Fewer candidates, another factor.
  EXPECT_EQ(lb_ladder(100, 4096, 3, 1.5), (V{32, 50, 100, 150}));
  EXPECT_THROW(lb_ladder(0, 64), std::invalid_argument);
  EXPECT_THROW(lb_ladder(32, 0), std::invalid_argument);
  EXPECT_THROW(lb_ladder(32, 64, 0), std::invalid_argument);
  EXPECT_THROW(lb_ladder(32, 64, 6, 1.0), std::invalid_argument);
}

TEST(DecideLb, HighestMedianSpeedWins) {
  // lbs 32, 64, 256; 5 rounds. A machine that drifts: round 3 is twice as
  // slow for everybody, which the per-round ratios cancel.
  const V lbs = {32, 64, 256};
  const std::vector<std::vector<double>> t = {
      {1.0, 0.8, 0.75}, {1.0, 0.82, 0.76}, {2.0, 1.6, 1.5}, {1.0, 0.79, 0.8}, {1.0, 0.81, 0.74}};
  const LbDecision d = decide_lb(lbs, 32, t, 2e9);
  EXPECT_EQ(d.lb, 256);
  ASSERT_EQ(d.candidates.size(), 3u);
  EXPECT_EQ(d.candidates[0].lb, 32);
  EXPECT_DOUBLE_EQ(d.candidates[0].ratio_median, 1.0);
  EXPECT_DOUBLE_EQ(d.candidates[1].ratio_median, 1.0 / 0.8);
  EXPECT_DOUBLE_EQ(d.candidates[2].ratio_median, 1.0 / 0.75);
  // 5 samples: the interval is [min, max], coverage 1 - 2/32.
  EXPECT_DOUBLE_EQ(d.candidates[2].ratio_ci_lo, 1.0 / 0.8);
  EXPECT_DOUBLE_EQ(d.candidates[2].ratio_ci_hi, 1.0 / 0.74);
  EXPECT_DOUBLE_EQ(d.coverage, 1.0 - 2.0 / 32.0);
  // MFLOPS per rank from the median time: 2e9 flops / 1.0 s.
  EXPECT_DOUBLE_EQ(d.candidates[0].mflops_median, 2000.0);
}

TEST(DecideLb, OverlappingSmallerLbIsNotPreferredButExactTiesAre) {
  // 64's interval overlaps 128's, but 128's median is higher: 128.
  const V lbs = {32, 64, 128};
  const std::vector<std::vector<double>> t = {{1.0, 0.80, 0.78}, {1.0, 0.77, 0.79}, {1.0, 0.81, 0.76}};
  EXPECT_EQ(decide_lb(lbs, 32, t, 1.0).lb, 128);
  // Exactly equal medians: the smaller lb.
  const std::vector<std::vector<double>> tie = {{1.0, 0.8, 0.8}, {1.0, 0.8, 0.8}, {1.0, 0.8, 0.8}};
  EXPECT_EQ(decide_lb(lbs, 32, tie, 1.0).lb, 64);
  // Nothing beats the reference: the reference.
  const std::vector<std::vector<double>> slow = {{1.0, 1.2, 1.3}, {1.0, 1.1, 1.4}, {1.0, 1.3, 1.2}};
  EXPECT_EQ(decide_lb(lbs, 32, slow, 1.0).lb, 32);
}

TEST(DecideLb, RejectsBadInput) {
  const V lbs = {32, 64};
  EXPECT_THROW(decide_lb(lbs, 32, {}, 1.0), std::invalid_argument);
  EXPECT_THROW(decide_lb(lbs, 48, {{1.0, 1.0}}, 1.0), std::invalid_argument);
  EXPECT_THROW(decide_lb(lbs, 32, {{1.0}}, 1.0), std::invalid_argument);
  EXPECT_THROW(decide_lb(lbs, 32, {{1.0, 0.0}}, 1.0), std::invalid_argument);
}

// The rule's lb as the check ran it: itself, or clamped to the ladder's
// width when it lies above (the tune line once printed 0.000x for it).
TEST(RuleCandidate, ItselfOrTheLargestCandidateBelow) {
  LbCheckRecord r;
  for (std::int64_t lb : {32, 64, 128, 256}) r.candidates.push_back({lb, 1.0, 1.0, 1.0, 1.0});
  EXPECT_EQ(rule_candidate(r, 292), 256);  // above the cap: the cap's candidate
  EXPECT_EQ(rule_candidate(r, 128), 128);  // a candidate itself
  EXPECT_EQ(rule_candidate(r, 100), 64);
  EXPECT_EQ(rule_candidate(r, 16), 0);  // nothing at or below
}

}  // namespace
}  // namespace mmbench::tuner
