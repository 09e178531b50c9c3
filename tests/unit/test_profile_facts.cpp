// Tests of the one place where a profile turns into choices
// (profile/profile_facts.hpp): the facts read from a profile, the tuned lb,
// the GEMM at the bottom of the local kernel under each word, and what
// `--local-strassen auto` means.
#include "profile/profile_facts.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace mmbench::profile {
namespace {

using local::LeafGemm;
using local::PackedBlocking;

// A profile whose packed step ran on the kernel this process runs (so its
// blocking applies here) and found the packed GEMM faster.
MachineProfile tuned_profile() {
  MachineProfile p = read_profile(std::string(MMBENCH_SOURCE_DIR) + "/configs/thesis-opteron.json");
  p.lb = 668;
  p.lb_panels = 2;
  p.strassen_tried_n = 4096;
  p.strassen_l1_n = 1536;
  p.packed.measured = true;
  p.packed.isa = local::packed_isa();
  p.packed.best = {96, 768, 1024};
  p.packed.packed_mflops = 41000;
  p.packed.blas_mflops = 40000;
  p.packed.leaf = LeafGemm::packed;
  p.memory_per_rank_bytes = 1 << 30;
  p.dgemm_profile_noise = 0.02;
  return p;
}

TEST(ProfileFacts, ReadFromTheProfile) {
  const ProfileFacts f = facts_of(tuned_profile());
  EXPECT_TRUE(f.present);
  EXPECT_EQ(f.lb, 668);
  EXPECT_EQ(f.lb_cap.panels, 2);
  EXPECT_EQ(f.local_tried_n, 4096);
  EXPECT_EQ(f.local_l1_n, 1536);
  EXPECT_TRUE(f.packed.measured);
  EXPECT_DOUBLE_EQ(f.memory_per_rank_bytes, double(1 << 30));
  EXPECT_DOUBLE_EQ(f.dgemm_noise, 0.02);
  EXPECT_FALSE(ProfileFacts{}.present);
}

TEST(ProfileFacts, TunedLbCarriesItsPanels) {
  const TunedLb t = tuned_lb(facts_of(tuned_profile()));
  EXPECT_EQ(t.lb, 668);
  EXPECT_EQ(t.cap.panels, 2);
  EXPECT_TRUE(t.cap.curve.empty());
  EXPECT_EQ(tuned_lb(ProfileFacts{}).lb, 0);  // no profile: none tuned
  EXPECT_EQ(tuned_lb(ProfileFacts{}).cap.panels, kLbPanelsPerProcess);
}

// Recorded profiles (results/lb-curve-vm-20261127/): two tunes at p = 2 on
// the Zen 1 VM, at n = 2048 and 4096, each with its curve; the lb every
// PDGEMM of --lb auto then runs at n = 1024 ... 8192 on 1 x 2. The
// interleaved ladders beside them (docs/results.md, "The lb curve") put
// these within a few per cent of the best lb at every n.
TEST(ProfileFacts, RecordedCurvesGiveEveryN) {
  const std::string dir = std::string(MMBENCH_SOURCE_DIR) + "/results/lb-curve-vm-20261127/";
  const TunedLb at2048 = tuned_lb(facts_of(read_profile(dir + "profile-n2048.json")));
  ASSERT_EQ(at2048.cap.curve.count, 3);  // n = 512, 1024, 2048
  EXPECT_EQ(lb_in_force(at2048.lb, at2048.cap, 1024, 1, 2, 64, kPanelLengthUnknown), 512);
  EXPECT_EQ(lb_in_force(at2048.lb, at2048.cap, 2048, 1, 2, 64, kPanelLengthUnknown), 504);
  EXPECT_EQ(lb_in_force(at2048.lb, at2048.cap, 4096, 1, 2, 64, kPanelLengthUnknown),
            1024);  // 2 x 504 (one doubling), whole blocks
  EXPECT_EQ(lb_in_force(at2048.lb, at2048.cap, 8192, 1, 2, 64, kPanelLengthUnknown),
            1024);  // the ceiling max(2 x 504, rule 504)
  // The same profile without its curve ran lb 504 under 8 panels per share
  // at n = 1024 and 2048: 64 and 128, 1.09x and 1.04x the best here before.
  EXPECT_EQ(lb_in_force(at2048.lb, LbCap::tuned(), 1024, 1, 2, 64, kPanelLengthUnknown), 64);
  const TunedLb at4096 = tuned_lb(facts_of(read_profile(dir + "profile-n4096.json")));
  ASSERT_EQ(at4096.cap.curve.count, 3);  // n = 1024, 2048, 4096
  EXPECT_EQ(lb_in_force(at4096.lb, at4096.cap, 1024, 1, 2, 64, kPanelLengthUnknown), 512);
  EXPECT_EQ(lb_in_force(at4096.lb, at4096.cap, 2048, 1, 2, 64, kPanelLengthUnknown), 976);
  EXPECT_EQ(lb_in_force(at4096.lb, at4096.cap, 4096, 1, 2, 64, kPanelLengthUnknown), 256);
  EXPECT_EQ(lb_in_force(at4096.lb, at4096.cap, 8192, 1, 2, 64, kPanelLengthUnknown),
            512);  // min(512, ceiling max(2 x 256, rule 244))
}

// The Zen 5 VM tuned at n = 2048 (results/lb-ladder-heap-zen5-20261206/):
// its curve gives 960 from n = 4096 on; at 8192 on 1 x 2 the panels are
// 8192 long and 960 would map A's 60 MiB panel afresh on every call, so the
// lb in force is 448, which ran fastest in that ladder (docs/results.md).
TEST(ProfileFacts, RecordedCurveHeldUnderTheMappingBound) {
  const std::string dir = std::string(MMBENCH_SOURCE_DIR) + "/results/lb-ladder-heap-zen5-20261206/";
  const TunedLb t = tuned_lb(facts_of(read_profile(dir + "profile-n2048.json")));
  ASSERT_EQ(t.cap.curve.count, 3);
  EXPECT_EQ(lb_in_force(t.lb, t.cap, 2048, 1, 2, 64, panel_length(2048, 2048, 1, 2)), 488);
  EXPECT_EQ(lb_in_force(t.lb, t.cap, 4096, 1, 2, 64, panel_length(4096, 4096, 1, 2)), 960);
  EXPECT_EQ(lb_in_force(t.lb, t.cap, 8192, 1, 2, 64, kPanelLengthUnknown), 960);
  EXPECT_EQ(lb_in_force(t.lb, t.cap, 8192, 1, 2, 64, panel_length(8192, 8192, 1, 2)), 448);
}

TEST(ProfileFacts, TunedLbFollowsTheProfilesCurve) {
  MachineProfile p = tuned_profile();
  p.lb_curve.points = {{1024, 512, 32, 14}, {2048, 1024, 668, 7}};
  p.rule_lb = 300;  // below 2 x 668: the ceiling is 1336
  const TunedLb t = tuned_lb(facts_of(p));
  ASSERT_EQ(t.cap.curve.count, 2);
  EXPECT_EQ(t.cap.panels, 2);  // kept for a curve-less path, unused with one
  EXPECT_EQ(lb_in_force(t.lb, t.cap, 1024, 1, 2, 64, kPanelLengthUnknown), 32);
  EXPECT_EQ(lb_in_force(t.lb, t.cap, 2048, 1, 2, 64, kPanelLengthUnknown), 668);
  EXPECT_EQ(lb_in_force(t.lb, t.cap, 4096, 1, 2, 64, kPanelLengthUnknown), 1344);  // 2 x 668 = 1336 on whole blocks
  EXPECT_EQ(lb_in_force(t.lb, t.cap, 8192, 1, 2, 64, kPanelLengthUnknown), 1344);  // the ceiling
}

// tune's report of a curve: n0/4 .. 4 n0, doubling, each with its lb; from 1
// where n0 < 4 (tune --n 2 once looped for ever starting at 0).
TEST(ProfileFacts, LbBySizeReportsNOverFourToFourN) {
  MachineProfile p = tuned_profile();
  p.lb_curve.points = {{1024, 512, 32, 14}, {2048, 1024, 668, 7}};
  p.rule_lb = 300;
  const TunedLb t = tuned_lb(facts_of(p));
  // 4096 and 8192: the curve gives 1344, the panels' bytes allow 960 and 448
  // (lb_mapping_bound).
  EXPECT_EQ(lb_by_size(t, 2048, 1, 2, 64), "512: 32, 1024: 32, 2048: 668, 4096: 960, 8192: 448");
  const std::string tiny = lb_by_size(t, 2, 1, 2, 1);
  EXPECT_EQ(tiny.rfind("1: ", 0), 0u) << tiny;
  EXPECT_NE(tiny.find(", 8: "), std::string::npos) << tiny;
  EXPECT_EQ(tiny.find("16: "), std::string::npos) << tiny;
}

TEST(ProfileFacts, LeafChoiceUnderEachWord) {
  ProfileFacts f = facts_of(tuned_profile());
  // auto: the profile's faster leaf, with its measured blocking.
  LeafChoice c = leaf_choice(std::nullopt, f);
  EXPECT_EQ(c.gemm, LeafGemm::packed);
  EXPECT_EQ(c.blocking, (PackedBlocking{96, 768, 1024}));
  // blas asked: blas, whatever the profile found.
  EXPECT_EQ(leaf_choice(LeafGemm::blas, f).gemm, LeafGemm::blas);
  EXPECT_TRUE(leaf_choice(LeafGemm::blas, f).blocking.is_default());
  // The profile found BLAS faster: auto runs BLAS; packed asked still gets the blocking.
  f.packed.leaf = LeafGemm::blas;
  EXPECT_EQ(leaf_choice(std::nullopt, f).gemm, LeafGemm::blas);
  EXPECT_EQ(leaf_choice(LeafGemm::packed, f).blocking, (PackedBlocking{96, 768, 1024}));
  // No packed step (or no profile): auto is BLAS, packed runs the kernel's defaults.
  EXPECT_EQ(leaf_choice(std::nullopt, ProfileFacts{}).gemm, LeafGemm::blas);
  c = leaf_choice(LeafGemm::packed, ProfileFacts{});
  EXPECT_EQ(c.gemm, LeafGemm::packed);
  EXPECT_TRUE(c.blocking.is_default());
}

TEST(ProfileFacts, AutoLocalLevelsFromTheCrossover) {
  ProfileFacts f = facts_of(tuned_profile());
  LocalLevels l = auto_local_levels(f);
  EXPECT_EQ(l.levels, kAutoLocalLevels);
  EXPECT_EQ(l.min_dim, 1536);
  f.local_l1_n = 0;  // no level won within the sizes tried
  l = auto_local_levels(f);
  EXPECT_EQ(l.levels, 0);
  EXPECT_EQ(l.min_dim, 0);
}

}  // namespace
}  // namespace mmbench::profile
