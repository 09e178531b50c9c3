// The lb in force for one PDGEMM (core/lb_in_force.hpp): a tuned lb is
// capped so that every process's share of k keeps kLbPanelsPerProcess
// panels, an explicit lb runs as given; and the refined model, which prices
// what a wider panel loses, never ranks an lb wider than a process's share
// first (model/refined_model.hpp, refined_pdgemm).
#include "core/lb_in_force.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>

#include "ranking/selection.hpp"
#include "profile/machine_profile.hpp"

using namespace mmbench;

static_assert(kScalapackDefaultLb == 32);
static_assert(kLbPanelsPerProcess == 8, "the hand-computed values below assume 8 panels per share");

// cap = max(32, raw rounded down to a multiple of nb when raw >= nb),
// raw = floor(floor(k / max(pr, pc)) / 8).
TEST(LbCap, OneByTwo) {
  // k = 256: share 256 / 2 = 128, raw 128 / 8 = 16 -> the floor 32.
  EXPECT_EQ(lb_cap(256, 1, 2, 64), 32);
  // k = 512: share 256, raw 32 -> 32.
  EXPECT_EQ(lb_cap(512, 1, 2, 64), 32);
  // k = 1024: share 512, raw 64 = one block of 64 -> 64.
  EXPECT_EQ(lb_cap(1024, 1, 2, 64), 64);
  // k = 3000: share 1500, raw 187 -> two blocks of 64 = 128.
  EXPECT_EQ(lb_cap(3000, 1, 2, 64), 128);
  // The same with nb = 32: 187 -> five blocks of 32 = 160.
  EXPECT_EQ(lb_cap(3000, 1, 2, 32), 160);
  // k = 4096: share 2048, raw 256 -> 256.
  EXPECT_EQ(lb_cap(4096, 1, 2, 64), 256);
}

TEST(LbCap, TwoByOneIsTheSameAsOneByTwo) {
  // The smaller share decides: k / max(pr, pc), whichever way the grid lies.
  for (std::int64_t k : {256, 512, 1024, 3000, 4096}) EXPECT_EQ(lb_cap(k, 2, 1, 64), lb_cap(k, 1, 2, 64)) << k;
  // k = 2048: share 1024, raw 128 -> 128.
  EXPECT_EQ(lb_cap(2048, 2, 1, 64), 128);
}

TEST(LbCap, TwoByTwo) {
  // k = 512: share 256, raw 32 -> 32.
  EXPECT_EQ(lb_cap(512, 2, 2, 64), 32);
  // k = 1000: share 500, raw 62 < nb = 64: not rounded -> 62.
  EXPECT_EQ(lb_cap(1000, 2, 2, 64), 62);
  // k = 2048: share 1024, raw 128 -> 128.
  EXPECT_EQ(lb_cap(2048, 2, 2, 64), 128);
}

TEST(LbCap, SevenByEight) {
  // k = 512: share 512 / 8 = 64, raw 8 -> the floor 32.
  EXPECT_EQ(lb_cap(512, 7, 8, 64), 32);
  // k = 4096: share 512, raw 64 -> 64.
  EXPECT_EQ(lb_cap(4096, 7, 8, 64), 64);
  // k = 12288: share 1536, raw 192 -> three blocks of 64 = 192.
  EXPECT_EQ(lb_cap(12288, 7, 8, 64), 192);
  EXPECT_EQ(lb_cap(12288, 8, 7, 64), 192);
}

TEST(LbCap, DegenerateArgumentsCountAsOne) {
  EXPECT_EQ(lb_cap(0, 0, 0, 0), 32);
  EXPECT_EQ(lb_cap(-5, 1, 2, -1), 32);
  // nb < 1 counts as 1: raw 256 stays 256.
  EXPECT_EQ(lb_cap(4096, 1, 2, 0), 256);
}

TEST(LbInForce, DefaultExplicitAndTuned) {
  // Nothing asked: ScaLAPACK's default, whatever the problem.
  EXPECT_EQ(lb_in_force(0, LbCap::none(), 100000, 1, 2, 64, kPanelLengthUnknown), 32);
  EXPECT_EQ(lb_in_force(0, LbCap::tuned(), 64, 1, 2, 64, kPanelLengthUnknown), 32);
  // An explicit lb (--lb 512, MMBENCH_LB=512) is a measurement request: as given.
  EXPECT_EQ(lb_in_force(512, LbCap::none(), 512, 2, 2, 64, kPanelLengthUnknown), 512);
  // A tuned lb: capped. 668 at k = 512 on 2 x 2 -> the cap 32 (above).
  EXPECT_EQ(lb_in_force(668, LbCap::tuned(), 512, 2, 2, 64, kPanelLengthUnknown), 32);
  // ... at k = 4096 on 1 x 2 -> 256.
  EXPECT_EQ(lb_in_force(668, LbCap::tuned(), 4096, 1, 2, 64, kPanelLengthUnknown), 256);
  // Below the cap a tuned lb is kept: 98 at k = 8192 on 1 x 2 (cap 512).
  EXPECT_EQ(lb_in_force(98, LbCap::tuned(), 8192, 1, 2, 64, kPanelLengthUnknown), 98);
  // A tuned lb below the floor stays as tuned.
  EXPECT_EQ(lb_in_force(16, LbCap::tuned(), 256, 1, 2, 64, kPanelLengthUnknown), 16);
  // Never wider than an int.
  EXPECT_EQ(lb_in_force(std::int64_t(1) << 40, LbCap::none(), 1, 1, 1, 1, kPanelLengthUnknown), 2147483647);
}

// A profile that measured fewer panels per share (lb_panels): the cap
// loosens by that factor, nothing else changes.
TEST(LbInForce, PanelsFromTheProfile) {
  // k = 1024 on 1 x 2: share 512; 2 panels -> 256, 1 panel -> 512.
  EXPECT_EQ(lb_cap(1024, 1, 2, 64, 2), 256);
  EXPECT_EQ(lb_cap(1024, 1, 2, 64, 1), 512);
  // 512 measured best at n = 2048 on 1 x 2 (2 panels of a 1024 share):
  EXPECT_EQ(lb_in_force(512, LbCap::tuned(2), 1024, 1, 2, 64, kPanelLengthUnknown), 256);
  EXPECT_EQ(lb_in_force(512, LbCap::tuned(2), 2048, 1, 2, 64, kPanelLengthUnknown), 512);
  EXPECT_EQ(lb_in_force(512, LbCap::tuned(2), 8192, 1, 2, 64, kPanelLengthUnknown), 512);
  // The default cap would hold it to 64 and 128 there.
  EXPECT_EQ(lb_in_force(512, LbCap::tuned(), 1024, 1, 2, 64, kPanelLengthUnknown), 64);
  EXPECT_EQ(lb_in_force(512, LbCap::tuned(), 2048, 1, 2, 64, kPanelLengthUnknown), 128);
  // tuned(0) is the default cap, never "no cap".
  EXPECT_EQ(LbCap::tuned(0).panels, kLbPanelsPerProcess);
}

// The documented example of lb_on_curve (core/lb_in_force.hpp): 1 x 2,
// nb 64, points (256, 128), (512, 256), (1024, 512), ceiling 512.
LbCurve example_curve() {
  LbCurve c;
  c.points[0] = {256, 128};
  c.points[1] = {512, 256};
  c.points[2] = {1024, 512};
  c.count = 3;
  c.ceiling = 512;
  return c;
}

TEST(LbOnCurve, PointsExactlyBetweenInterpolatedOutsideByPanels) {
  const LbCurve c = example_curve();
  EXPECT_EQ(lb_on_curve(c, 1024, 1, 2, 64), 256);  // w 512: a point
  EXPECT_EQ(lb_on_curve(c, 1536, 1, 2, 64), 384);  // w 768: 256 * 2^0.585 = 384
  EXPECT_EQ(lb_on_curve(c, 256, 1, 2, 64), 64);    // w 128: 128 * 128 / 256
  EXPECT_EQ(lb_on_curve(c, 4096, 1, 2, 64), 512);  // w 2048: min(1024, ceiling 512)
  EXPECT_EQ(lb_on_curve(c, 4096, 2, 1, 64), 512);  // the smaller share, either way
  EXPECT_EQ(lb_on_curve(c, 64, 1, 2, 64), 32);     // w 32: 16, held at min(128, 32)
  EXPECT_EQ(lb_on_curve(LbCurve{}, 4096, 1, 2, 64), 0);
  // A measured point is served as measured, even off the nb grid.
  LbCurve odd = c;
  odd.points[1].lb = 210;
  EXPECT_EQ(lb_on_curve(odd, 1024, 1, 2, 64), 210);
}

// The header's example of rounding after the ceiling: the panels per share
// give 944 at w 2048, the ceiling is 944, and whole blocks of 64 make 960.
TEST(LbOnCurve, RoundingComesAfterTheCeiling) {
  LbCurve c;
  c.points[0] = {1024, 472};
  c.count = 1;
  c.ceiling = 944;
  EXPECT_EQ(lb_on_curve(c, 4096, 1, 2, 64), 960);
  EXPECT_EQ(lb_on_curve(c, 3072, 1, 2, 64), 704);  // w 1536: 708, the nearest whole blocks
}

TEST(LbOnCurve, LbInForceFollowsTheCurveForATunedLbOnly) {
  const LbCap measured = LbCap::measured(example_curve());
  // The requested lb (the profile's, at the tuning size) only names it.
  EXPECT_EQ(lb_in_force(512, measured, 1536, 1, 2, 64, kPanelLengthUnknown), 384);
  EXPECT_EQ(lb_in_force(999, measured, 1536, 1, 2, 64, kPanelLengthUnknown), 384);
  // An explicit lb runs as given; lb 0 is the library's default.
  EXPECT_EQ(lb_in_force(999, LbCap::none(), 1536, 1, 2, 64, kPanelLengthUnknown), 999);
  EXPECT_EQ(lb_in_force(0, measured, 1536, 1, 2, 64, kPanelLengthUnknown), kScalapackDefaultLb);
  // An empty curve falls back to the panels.
  EXPECT_EQ(lb_in_force(512, LbCap::measured(LbCurve{}, 2), 1024, 1, 2, 64, kPanelLengthUnknown), 256);
}

// ---------------------------------------------------------------- ranking

namespace {

model::MachineParams thesis_opteron() {
  return profile::to_params(profile::read_profile(std::string(MMBENCH_SOURCE_DIR) + "/configs/thesis-opteron.json"));
}

// A machine whose DGEMM gets faster with the panel width up to k = 512
// (what rewards a wide lb in the model's computation), on a fast network.
model::MachineParams synthetic_wide_panels() {
  model::MachineParams mp;
  mp.latency_s = 2e-6;
  mp.tau = 2e9 / 8;
  mp.t_op = 1.0 / 40e9;
  for (std::int64_t mn : {64, 128, 256, 512, 1024, 2048, 4096})
    for (const auto& [k, mflops] : std::initializer_list<std::pair<std::int64_t, double>>{
             {32, 15000}, {64, 24000}, {128, 32000}, {256, 36000}, {512, 39000}, {1024, 40000}, {2048, 40000},
             {4096, 40000}})
      mp.dgemm_profile.push_back({mn, mn, k, mflops});
  return mp;
}

}  // namespace

// The model's first PDGEMM on a 2-D grid never runs a panel wider than a
// process's share of k (k / max(pr, pc)): lb from 32 to 4096, explicit, and
// the profile's as tuned (capped). A 2-D grid exposes a wide panel's hops
// and its update at the pipeline's ends. On one row or one column nothing
// is exposed (the processes wait for every panel, however wide), so there a
// DGEMM that speeds up with k, as this synthetic one, may well rank the
// widest panel first (RefinedPdgemm.OneRowPricesWidePanelsByStartupsAndRateAlone).
TEST(RefinedModelLb, NeverRanksAnLbWiderThanTheShareFirstOnATwoDimensionalGrid) {
  for (const auto& [name, mp, tuned] : {std::tuple{"thesis-opteron", thesis_opteron(), 668},
                                        std::tuple{"synthetic", synthetic_wide_panels(), 868}}) {
    ranking::CandidateSpace space;
    space.only = {"pdgemm"};
    space.lbs = {0, 64, 128, 256, 512, 668, 1024, 2048, 4096};
    space.tuned.lb = tuned;
    for (int p : {4, 16, 56})  // p = 2 has no 2-D grid
      for (std::int64_t n : {256, 512, 1024, 4096}) {
        const ranking::Ranking rk =
            ranking::rank_candidates({n, n, n}, p, {}, mp, model::ModelKind::refined, space);
        const auto first_2d = std::find_if(rk.ranked.begin(), rk.ranked.end(),
                                           [](const ranking::Candidate& c) { return c.opt.pr > 1 && c.opt.pc > 1; });
        ASSERT_NE(first_2d, rk.ranked.end()) << name << " p = " << p << " n = " << n;
        const ranking::Candidate& first = *first_2d;
        const int lb = first.opt.lb > 0 ? first.opt.lb : kScalapackDefaultLb;
        const std::int64_t share = n / std::max(first.opt.pr, first.opt.pc);
        EXPECT_LE(lb, std::max<std::int64_t>(kScalapackDefaultLb, share))
            << name << " p = " << p << " n = " << n << ": " << first.label();
      }
  }
}

// `predict --profile configs/thesis-opteron.json --p 4 --n 512 --algo
// pdgemm` ranked lb = 512 and 668 first before the model priced wide panels.
// On 2 x 2 the share is 256 and the cap 32.
TEST(RefinedModelLb, ThesisOpteronSmallProblem) {
  ranking::CandidateSpace space;
  space.only = {"pdgemm"};
  space.tuned.lb = 668;
  const ranking::Ranking rk =
      ranking::rank_candidates({512, 512, 512}, 4, {}, thesis_opteron(), model::ModelKind::refined, space);
  ASSERT_FALSE(rk.ranked.empty());
  EXPECT_LE(rk.ranked[0].opt.lb, 256) << rk.ranked[0].label();
  // The tuned lb runs capped on a known grid, and its label says so.
  bool seen = false;
  for (const ranking::Candidate& c : rk.ranked)
    if (c.opt.lb_tuned && c.opt.pr == 2 && c.opt.pc == 2) {
      seen = true;
      EXPECT_EQ(c.opt.lb, 32);
      EXPECT_NE(c.label().find("lb=32(auto)"), std::string::npos) << c.label();
    }
  EXPECT_TRUE(seen);
}

// A tuned lb keeps every panel below glibc's fresh-mapping size (32 MiB):
// n = 8192 on 1 x 2 ran lb 1024 1.11-1.14x lb 256's time on the Zen 5 VM, its
// 32 MiB panels mapped and first-touched once per panel (docs/results.md,
// "The tuned lb with the heap policy, and panels of 32 MiB"). The examples
// of core/lb_in_force.hpp.
TEST(LbInForce, PanelLengthIsTheLongerLocalSide) {
  EXPECT_EQ(panel_length(8192, 8192, 1, 2), 8192);  // A's local rows
  EXPECT_EQ(panel_length(8192, 8192, 2, 1), 8192);  // B's local columns
  EXPECT_EQ(panel_length(1000, 3000, 2, 2), 1500);
  EXPECT_EQ(panel_length(1001, 10, 2, 1), 501);  // rounded up: the largest share
}

TEST(LbInForce, MappingBoundKeepsPanelsUnder32MiB) {
  EXPECT_EQ(lb_mapping_bound(8192, 64), 448);
  EXPECT_EQ(lb_mapping_bound(4096, 64), 960);
  EXPECT_EQ(lb_mapping_bound(1024, 64), 4032);
  EXPECT_EQ(lb_mapping_bound(kPanelLengthUnknown, 64), 0);
  EXPECT_EQ(lb_mapping_bound(1 << 20, 64), kScalapackDefaultLb);  // never below the library's default
  for (std::int64_t length : {1000, 4096, 8192, 12345, 65536}) {
    const std::int64_t lb = lb_mapping_bound(length, 64);
    if (lb > kScalapackDefaultLb) {
      EXPECT_LT(lb * length * 8 + 4096, kFreshMappingBytes) << length;
    }
    EXPECT_GE((lb + 64) * length * 8, kFreshMappingBytes - (64 << 10)) << length;  // the widest whole-block lb
  }
}

TEST(LbInForce, TunedLbHeldToTheMappingBoundExplicitLbNot) {
  LbCurve curve;
  curve.points[0] = {1024, 488};
  curve.count = 1;
  curve.ceiling = 976;
  const LbCap measured = LbCap::measured(curve);
  // The curve alone: 960 at n = 8192 (w 4096, 488 x 4 capped at 976, whole blocks).
  EXPECT_EQ(lb_in_force(488, measured, 8192, 1, 2, 64, kPanelLengthUnknown), 960);
  EXPECT_EQ(lb_in_force(488, measured, 8192, 1, 2, 64, panel_length(8192, 8192, 1, 2)), 448);
  EXPECT_EQ(lb_in_force(488, measured, 4096, 1, 2, 64, panel_length(4096, 4096, 1, 2)), 960);
  EXPECT_EQ(lb_in_force(488, measured, 2048, 1, 2, 64, panel_length(2048, 2048, 1, 2)), 488);
  // Under the panels-per-share cap too.
  EXPECT_EQ(lb_in_force(4096, LbCap::tuned(1), 16384, 1, 2, 64, panel_length(16384, 16384, 1, 2)), 192);
  // An explicit lb is a measurement request: run as given.
  EXPECT_EQ(lb_in_force(1024, LbCap::none(), 8192, 1, 2, 64, panel_length(8192, 8192, 1, 2)), 1024);
}
