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
  EXPECT_EQ(f.lb_panels, 2);
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
  EXPECT_EQ(t.panels, 2);
  EXPECT_EQ(tuned_lb(ProfileFacts{}).lb, 0);  // no profile: none tuned
  EXPECT_EQ(tuned_lb(ProfileFacts{}).panels, kLbPanelsPerProcess);
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
