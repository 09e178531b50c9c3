// Tests of the PDGEMM check's pure parts: the candidate ladder and the
// decision from interleaved round times (the MPI part runs in
// tests/mpi/test_tune_small.cpp).
#include "tuner/lb_check.hpp"

#include "profile/lb_curve_record.hpp"

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
  EXPECT_EQ(lb_ladder(604, 512, 4), (V{32, 64, 128, 256, 512}));
}

TEST(LbLadder, CapsAtTheWidthAndKeepsTheReference) {
  // 190: 96, 190, 380, 760, 1520, then 3040 > 2048 -> the width itself.
  EXPECT_EQ(lb_ladder(190, 2048), (V{32, 96, 190, 380, 760, 1520, 2048}));
  // A rule's lb at the width: r/2 and r, then the free places below:
  // r/4, r/8, r/16 (32, the reference, is always there).
  EXPECT_EQ(lb_ladder(1024, 1024), (V{32, 64, 128, 256, 512, 1024}));
  // The free places stop above the reference.
  EXPECT_EQ(lb_ladder(128, 128), (V{32, 64, 128}));
  // A tiny problem: the reference stays even above the width.
  EXPECT_EQ(lb_ladder(8, 16), (V{4, 8, 16, 32}));
  // rule_lb beyond the width is clamped to it; the places below filled.
  EXPECT_EQ(lb_ladder(5000, 1000), (V{32, 62, 126, 250, 500, 1000}));
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
// (lb_in_force with the profile's curve): from one tune, at every n.
LbCheckOutcome checked(std::int64_t n, std::int64_t best, int rounds = 7) {
  LbCheckOutcome o;
  o.done = true;
  o.lb = best;
  o.record.n = n;
  o.record.nb = 64;
  o.record.rounds = rounds;
  o.record.reference_lb = 32;
  return o;
}

TEST(LbCandidates, UpToOnePanelPerShareWithTheCapAnd32) {
  // n = 4096 on 1 x 2, nb 64: width 2048, cap 256; rule 78 -> 40, 78, 156, 312.
  EXPECT_EQ(lb_candidates(78, 4096, 1, 2, 64), (std::vector<std::int64_t>{32, 40, 78, 156, 256, 312}));
  // n = 1024: width 512, cap 64: rule 420 -> 210, 420 and 2 x 420 clamped to
  // the width 512; the fourth place goes below: 420 / 4 = 105 -> 106.
  EXPECT_EQ(lb_candidates(420, 1024, 1, 2, 64), (std::vector<std::int64_t>{32, 64, 106, 210, 420, 512}));
  // The check that missed the best lb on 16 ranks (docs/results.md,
  // "xeon16, third visit"): n = 2048 on 4 x 4, rule 604 (tuned at 4096):
  // width 512, cap 64 -> 256, 512, then 128 (it checked 32, 64, 256, 512).
  EXPECT_EQ(lb_candidates(604, 2048, 4, 4, 64), (std::vector<std::int64_t>{32, 64, 128, 256, 512}));
}

TEST(LbCurveSizes, AQuarterAndAHalfWhereLargeEnough) {
  EXPECT_EQ(lb_curve_sizes(4096), (std::vector<std::int64_t>{1024, 2048, 4096}));
  EXPECT_EQ(lb_curve_sizes(2048), (std::vector<std::int64_t>{512, 1024, 2048}));
  EXPECT_EQ(lb_curve_sizes(512), (std::vector<std::int64_t>{256, 512}));
  EXPECT_EQ(lb_curve_sizes(128), (std::vector<std::int64_t>{128}));
}

TEST(LbCurveFromChecks, OnePointPerCheckDone) {
  LbCheckOutcome not_done = checked(512, 64);
  not_done.done = false;
  const profile::LbCurveRecord c =
      lb_curve_from_checks({checked(2048, 256, 7), not_done, checked(1024, 128, 14)}, 1, 2);
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_EQ(c.points[0].n, 1024);
  EXPECT_EQ(c.points[0].share, 512);
  EXPECT_EQ(c.points[0].lb, 128);
  EXPECT_EQ(c.points[0].rounds, 14);
  EXPECT_EQ(c.points[1].share, 1024);
  // The ceiling past the largest point: the rule's where wider than twice
  // that point's lb, else twice it.
  EXPECT_EQ(profile::curve_of(c, 600).ceiling, 600);
  EXPECT_EQ(profile::curve_of(c, 420).ceiling, 512);
  EXPECT_TRUE(lb_curve_from_checks({not_done}, 1, 2).empty());
}

TEST(LbPanelsWithoutCurve, ShareOverLbFromOneTo64) {
  EXPECT_EQ(lb_panels_without_curve(512, 2048), 4);
  EXPECT_EQ(lb_panels_without_curve(2048, 1024), 1);
  EXPECT_EQ(lb_panels_without_curve(8, 1024), 64);
}

// Recorded runs: one tune at n = 2048, then --lb auto at 1024, 4096, 8192,
// against the best lb of the interleaved ladders measured there.
TEST(LbCurveFromChecks, RecordedSlowLinkTunedAt2048) {
  // Two namespace nodes, 1 Gbit/s, 1 x 2
  // (results/netns-validation-vm-20261127/full-tune/2x1-1gbit-*): the check
  // at n = 2048 chose 210 (1.100x lb 32), the rule 420; the ladders' best
  // was 32 at n = 1024 (64 1.15-1.18x slower), 256 at 2048 and 4096 (512
  // 1.01x slower at 4096). The check at 1024 times 32, 64, 210, 420 and
  // 512 (LbCandidates above) and so picks 32 there.
  const profile::LbCurveRecord c = lb_curve_from_checks({checked(1024, 32, 14), checked(2048, 210)}, 1, 2);
  const LbCap cap = LbCap::measured(profile::curve_of(c, 420));
  EXPECT_EQ(lb_in_force(210, cap, 1024, 1, 2, 64, kPanelLengthUnknown), 32);   // the one-size profile ran 64 (1.15x)
  EXPECT_EQ(lb_in_force(210, cap, 2048, 1, 2, 64, kPanelLengthUnknown), 210);  // as checked
  EXPECT_EQ(lb_in_force(210, cap, 1792, 1, 2, 64, kPanelLengthUnknown),
            128);  // between: 32 * (210 / 32)^0.807 = 146 -> 128
  EXPECT_EQ(lb_in_force(210, cap, 4096, 1, 2, 64, kPanelLengthUnknown), 448);  // min(2 x 210, ceiling 420) = 420 -> 448
  EXPECT_EQ(lb_in_force(210, cap, 8192, 1, 2, 64, kPanelLengthUnknown), 448);  // the ceiling: max(2 x 210, rule 420)
  EXPECT_EQ(lb_in_force(210, cap, 512, 1, 2, 64, kPanelLengthUnknown), 32);    // below: never under min(32, 32)
  // The same profile without its curve (lb 420, 8 panels) ran 64 at 1024.
  EXPECT_EQ(lb_in_force(420, LbCap::tuned(), 1024, 1, 2, 64, kPanelLengthUnknown), 64);
}

TEST(LbCurveFromChecks, RecordedOneNodeVmTunedAt2048) {
  // The Zen 1 VM, one node, 1 x 2 (results/lb-per-n-vm-20261127/): the
  // ladders' best was 512 at every n from 1024 to 8192 (1 to 8 panels per
  // share), where the 8-panel cap ran 64 at 1024 (1.09x) and 128 at 2048
  // (1.04x). Checks at 1024 and 2048 that find 512, rule 170: 512 there,
  // 1024 (one doubling) from 4096 on, which the ladder of
  // results/lb-curve-vm-20261127 ran at 1.01-1.02x the best.
  const profile::LbCurveRecord c = lb_curve_from_checks({checked(1024, 512, 14), checked(2048, 512)}, 1, 2);
  const LbCap cap = LbCap::measured(profile::curve_of(c, 170));
  EXPECT_EQ(lb_in_force(512, cap, 1024, 1, 2, 64, kPanelLengthUnknown), 512);
  EXPECT_EQ(lb_in_force(512, cap, 2048, 1, 2, 64, kPanelLengthUnknown), 512);
  EXPECT_EQ(lb_in_force(512, cap, 4096, 1, 2, 64, kPanelLengthUnknown), 1024);
  EXPECT_EQ(lb_in_force(512, cap, 8192, 1, 2, 64, kPanelLengthUnknown), 1024);
  EXPECT_EQ(lb_in_force(512, cap, 512, 1, 2, 64, kPanelLengthUnknown), 256);  // one panel per share, as at 1024
}

}  // namespace
}  // namespace mmbench::tuner
