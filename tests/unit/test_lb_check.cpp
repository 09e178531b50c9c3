// Tests of the PDGEMM check's pure parts: the candidate ladder and the
// decision from interleaved round times (the MPI part runs in
// tests/mpi/test_tune_small.cpp).
#include "tuner/lb_check.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace mmbench::tuner {
using namespace mmbench::profile;
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

namespace mmbench::tuner {
namespace {

// The lb a profile records, and what `--lb auto` then runs at other sizes
// (lb_in_force with the cap): from one tune, at every n.
LbCheckRecord check_of(std::vector<LbCheckCandidate> candidates) {
  LbCheckRecord r;
  r.n = 2048;
  r.nb = 64;
  r.rounds = 7;
  r.reference_lb = 32;
  r.candidates = std::move(candidates);
  return r;
}

TEST(RecordedLb, TheRuleWhereTheCapStoppedTheCheck) {
  // Tuned at n = 2048 on 1 x 2, nb 64: candidates up to lb_cap = 128.
  ASSERT_EQ(lb_cap(2048, 1, 2, 64), 128);
  // The widest candidate won, the rule wants 244: the rule's is recorded.
  const LbCheckRecord widest_won =
      check_of({{32, 0, 1.0, 1.0, 1.0}, {64, 0, 1.05, 1.04, 1.06}, {128, 0, 1.10, 1.09, 1.11}});
  const std::int64_t lb = recorded_lb(widest_won, 128, 244);
  EXPECT_EQ(lb, 244);
  EXPECT_EQ(lb_in_force(lb, LbCap::tuned(), 1024, 1, 2, 64), 64);
  EXPECT_EQ(lb_in_force(lb, LbCap::tuned(), 2048, 1, 2, 64), 128);  // the tuning size: as checked
  EXPECT_EQ(lb_in_force(lb, LbCap::tuned(), 4096, 1, 2, 64), 244);  // 128 before
  EXPECT_EQ(lb_in_force(lb, LbCap::tuned(), 8192, 1, 2, 64), 244);
  // The rule asks for no more than the check's best: the check's.
  EXPECT_EQ(recorded_lb(widest_won, 128, 78), 128);
  // The widest candidate surely slower: the check's best, at every n.
  const LbCheckRecord wider_lost =
      check_of({{32, 0, 1.0, 1.0, 1.0}, {64, 0, 1.10, 1.09, 1.11}, {128, 0, 1.02, 1.01, 1.03}});
  EXPECT_EQ(recorded_lb(wider_lost, 64, 244), 64);
  EXPECT_EQ(lb_in_force(recorded_lb(wider_lost, 64, 244), LbCap::tuned(), 8192, 1, 2, 64), 64);
  // No candidates (a record without the check): the checked lb.
  EXPECT_EQ(recorded_lb(LbCheckRecord{}, 96, 244), 96);
}

TEST(LbPanels, FewerPanelsWhereWiderSurelyWon) {
  // n = 2048 on 1 x 2: share 1024, the default cap 128.
  const LbCheckRecord wide_won = check_of(
      {{32, 0, 1.0, 1.0, 1.0}, {128, 0, 1.32, 1.30, 1.34}, {512, 0, 1.42, 1.40, 1.45}, {1024, 0, 1.38, 1.35, 1.40}});
  EXPECT_EQ(lb_panels_from_check(wide_won, 512, 128, 1024), 2);
  // One panel per share won: 1.
  EXPECT_EQ(lb_panels_from_check(wide_won, 1024, 128, 1024), 1);
  // Wider best, but its interval overlaps the cap's: the default.
  const LbCheckRecord unsure = check_of({{32, 0, 1.0, 1.0, 1.0}, {128, 0, 1.32, 1.30, 1.34}, {512, 0, 1.33, 1.20, 1.45}});
  EXPECT_EQ(lb_panels_from_check(unsure, 512, 128, 1024), kLbPanelsPerProcess);
  // The best at or below the cap: the default.
  EXPECT_EQ(lb_panels_from_check(wide_won, 128, 128, 1024), kLbPanelsPerProcess);
  // The cap not among the candidates: the default.
  EXPECT_EQ(lb_panels_from_check(wide_won, 512, 256, 1024), kLbPanelsPerProcess);
}

TEST(RecordedLb, RecordedProfiles) {
  // results/netns-validation-vm-20261127/2x1-unlimited-profile.json: tuned
  // at n = 2048 on 1 x 2 (2 namespace nodes), best 64 at 1.333 [0.731,
  // 1.624], 128 at 1.326 [1.180, 1.876], rule 504. The profile held every
  // n to 64; the run at n = 4096 found 256 and 512 1.17x faster. Now 504,
  // capped: 128 at 2048, 256 at 4096.
  const LbCheckRecord netns =
      check_of({{32, 0, 1.0, 1.0, 1.0}, {64, 0, 1.333, 0.731, 1.624}, {128, 0, 1.326, 1.180, 1.876}});
  const std::int64_t lb = recorded_lb(netns, 64, 504);
  EXPECT_EQ(lb, 504);
  EXPECT_EQ(lb_in_force(lb, LbCap::tuned(), 2048, 1, 2, 64), 128);
  EXPECT_EQ(lb_in_force(lb, LbCap::tuned(), 4096, 1, 2, 64), 256);
  // results/xeon16-device-20261126/profile-xeon16.json: n = 4096 on 4 x 4
  // (candidates up to 128), best 128, rule 504 -> 504: 256 at n = 8192
  // where the profile as written held the calls to 128.
  const LbCheckRecord xeon =
      check_of({{32, 0, 1.0, 1.0, 1.0}, {64, 0, 1.003, 0.990, 1.017}, {128, 0, 1.009, 0.993, 1.054}});
  EXPECT_EQ(recorded_lb(xeon, 128, 504), 504);
  EXPECT_EQ(lb_in_force(504, LbCap::tuned(), 4096, 4, 4, 64), 128);
  EXPECT_EQ(lb_in_force(504, LbCap::tuned(), 8192, 4, 4, 64), 256);
  // results/machine-limit-vm-20261125T0953Z/machine-profile-p2.json: n =
  // 4096 on 1 x 2, best 128 at 1.135 [1.037, 1.162], 256 at 1.112 [1.012,
  // 1.233], rule 292: 256 cannot be told from 128 -> 292, capped 256.
  const LbCheckRecord vm =
      check_of({{32, 0, 1.0, 1.0, 1.0}, {128, 0, 1.135, 1.037, 1.162}, {256, 0, 1.112, 1.012, 1.233}});
  EXPECT_EQ(recorded_lb(vm, 128, 292), 292);
  EXPECT_EQ(lb_in_force(292, LbCap::tuned(), 4096, 1, 2, 64), 256);
}

}  // namespace
}  // namespace mmbench::tuner
