// Tests of what tune records about the packed GEMM (tuner/packed_ladder.hpp,
// profile/packed_tune_record.hpp) and the cores' layout (profile/core_layout.hpp):
// the ladder of blockings per kernel, the leaf and layout choices, the
// profile groups' round trip and validation, older profiles without them,
// and how the model prices packed products with the measurement.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "model/refined_model.hpp"
#include "profile/core_layout.hpp"
#include "profile/machine_profile.hpp"
#include "tuner/packed_ladder.hpp"
#include "profile/packed_tune_record.hpp"
#include "tuner/threaded_dgemm.hpp"

namespace mmbench::tuner {
using namespace mmbench::profile;
namespace {

using local::LeafGemm;
using local::PackedBlocking;
using local::PackedIsa;

TEST(PackedLadder, DefaultsFirstEveryBlockingValidNoRepeats) {
  for (PackedIsa isa : {PackedIsa::avx512, PackedIsa::avx2, PackedIsa::portable}) {
    const std::vector<PackedBlocking> ladder = packed_ladder(isa);
    ASSERT_GE(ladder.size(), 4u) << local::to_string(isa);
    EXPECT_LE(ladder.size(), 6u) << "a short ladder: a few seconds in all";
    EXPECT_EQ(ladder.front(), local::default_packed_blocking(isa));
    for (std::size_t i = 0; i < ladder.size(); ++i) {
      EXPECT_EQ(local::packed_blocking_problem(ladder[i], isa), "") << local::to_string(ladder[i]);
      for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(ladder[i] == ladder[j]) << local::to_string(ladder[i]);
    }
  }
  // The documented example.
  const std::vector<PackedBlocking> avx512 = packed_ladder(PackedIsa::avx512);
  const std::vector<PackedBlocking> expect{{96, 768, 1024}, {192, 768, 1024}, {48, 768, 1024},
                                           {96, 384, 1024}, {96, 768, 2048}, {96, 768, 512}};
  EXPECT_EQ(avx512, expect);
  EXPECT_EQ(packed_ladder_size(128), 128);
  EXPECT_EQ(packed_ladder_size(8192), 2048);
  EXPECT_EQ(packed_ladder_size(10), 64);
}

TEST(PackedLeaf, SpeedupIsPairedRoundByRound) {
  // The header's example: ratios 1.05, 0.98, 1.10.
  const PackedSpeedup s = paired_speedup({0.100, 0.110, 0.090}, {0.105, 0.108, 0.099});
  EXPECT_NEAR(s.median, 1.05, 1e-12);
  EXPECT_NEAR(s.lo, 0.108 / 0.110, 1e-12);
  EXPECT_NEAR(s.hi, 0.099 / 0.090, 1e-12);
  EXPECT_DOUBLE_EQ(s.coverage, 0.75);
  EXPECT_THROW(paired_speedup({}, {}), std::invalid_argument);
  EXPECT_THROW(paired_speedup({0.1, 0.1}, {0.1}), std::invalid_argument);
}

TEST(PackedLeaf, PackedOnlyWhereItWinsEveryRound) {
  // DGEMM slow in two rounds of three (a make run once read its median at
  // 60.8 GFLOP/s against the packed GEMM's 75.4): the medians favour the
  // packed GEMM by 1.14x, but in the round where DGEMM ran at its speed the
  // packed GEMM lost.
  const PackedSpeedup two_slow_rounds = paired_speedup({0.228, 0.230, 0.227}, {0.282, 0.260, 0.218});
  EXPECT_GT(two_slow_rounds.median, 1.1);
  EXPECT_EQ(packed_leaf_choice(two_slow_rounds), LeafGemm::blas);
  EXPECT_EQ(packed_leaf_choice(paired_speedup({0.100, 0.101, 0.099}, {0.102, 0.104, 0.100})), LeafGemm::packed);
  EXPECT_EQ(packed_leaf_choice(paired_speedup({0.1, 0.1, 0.1}, {0.1, 0.1, 0.1})), LeafGemm::blas);  // ties: BLAS
  EXPECT_EQ(packed_leaf_choice(PackedSpeedup{}), LeafGemm::blas);                                   // not measured
}

PackedTuneRecord sample_packed() {
  PackedTuneRecord r;
  r.measured = true;
  r.isa = PackedIsa::avx2;
  r.n = 2048;
  r.rounds = 3;
  r.candidates = {{{48, 768, 1024}, 40000.5}, {{96, 768, 1024}, 41000.25}, {{48, 384, 1024}, 39000}};
  r.best = {96, 768, 1024};
  r.packed_mflops = 41000.25;
  r.blas_mflops = 40000;
  r.speedup = {1.025, 1.01, 1.04, 0.75};
  r.level = {2048, 9, {1.06, 1.03, 1.09, 0.961}, 1.04, 0.98};
  r.leaf = LeafGemm::packed;
  return r;
}

TEST(PackedLeaf, DecidedOnTheLevelWhereTheRecordHasOne) {
  // The packed GEMM alone a little slower than DGEMM (0.96x, every round
  // below 1), but the level fused into it faster than the level on DGEMM
  // leaves in every round: the level decides, packed.
  PackedTuneRecord r;
  r.speedup = {0.96, 0.94, 0.98, 0.75};
  EXPECT_EQ(packed_leaf_choice(deciding_speedup(r)), LeafGemm::blas);  // no level: the plain product decides
  r.level = {2048, 9, {1.05, 1.02, 1.08, 0.961}, 1.02, 0.97};
  EXPECT_EQ(&deciding_speedup(r), &r.level.over_blas_level);
  EXPECT_EQ(packed_leaf_choice(deciding_speedup(r)), LeafGemm::packed);
  // The reverse: the plain product wins every round, the level does not.
  r.speedup = {1.03, 1.01, 1.05, 0.75};
  r.level.over_blas_level = {1.01, 0.97, 1.04, 0.75};
  EXPECT_EQ(packed_leaf_choice(deciding_speedup(r)), LeafGemm::blas);
}

TEST(PackedRecord, BlockingOnlyForTheKernelItWasMeasuredOn) {
  const PackedTuneRecord r = sample_packed();
  EXPECT_EQ(recorded_blocking(r, PackedIsa::avx2), (PackedBlocking{96, 768, 1024}));
  EXPECT_TRUE(recorded_blocking(r, PackedIsa::avx512).is_default());
  EXPECT_TRUE(recorded_blocking(PackedTuneRecord{}, PackedIsa::avx2).is_default());
}

TEST(PackedRecord, JsonRoundTripAndValidation) {
  const PackedTuneRecord r = sample_packed();
  const nlohmann::ordered_json j = packed_tune_to_json(r);
  const PackedTuneRecord back = packed_tune_from_json(j, "p.json");
  EXPECT_TRUE(back.measured);
  EXPECT_EQ(back.isa, r.isa);
  EXPECT_EQ(back.n, r.n);
  EXPECT_EQ(back.rounds, r.rounds);
  EXPECT_EQ(back.best, r.best);
  EXPECT_EQ(back.packed_mflops, r.packed_mflops);
  EXPECT_EQ(back.blas_mflops, r.blas_mflops);
  EXPECT_EQ(back.leaf, r.leaf);
  EXPECT_EQ(back.speedup.median, r.speedup.median);
  EXPECT_EQ(back.speedup.lo, r.speedup.lo);
  EXPECT_EQ(back.speedup.hi, r.speedup.hi);
  EXPECT_EQ(back.speedup.coverage, r.speedup.coverage);
  EXPECT_EQ(back.level.n, 2048);
  EXPECT_EQ(back.level.rounds, 9);
  EXPECT_EQ(back.level.over_blas_level.median, r.level.over_blas_level.median);
  EXPECT_EQ(back.level.over_blas_level.lo, r.level.over_blas_level.lo);
  EXPECT_EQ(back.level.over_blas_level.hi, r.level.over_blas_level.hi);
  EXPECT_EQ(back.level.over_blas_level.coverage, r.level.over_blas_level.coverage);
  EXPECT_EQ(back.level.packed_vs_dgemm, r.level.packed_vs_dgemm);
  EXPECT_EQ(back.level.blas_vs_dgemm, r.level.blas_vs_dgemm);
  nlohmann::ordered_json older = j;  // written before the speedup and the level existed
  older.erase("speedup");
  older.erase("level");
  EXPECT_FALSE(packed_tune_from_json(older, "p.json").speedup.measured());
  EXPECT_FALSE(packed_tune_from_json(older, "p.json").level.measured());
  ASSERT_EQ(back.candidates.size(), r.candidates.size());
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    EXPECT_EQ(back.candidates[i].blocking, r.candidates[i].blocking);
    EXPECT_EQ(back.candidates[i].mflops_median, r.candidates[i].mflops_median);
  }
  auto fails_with = [&](const std::function<void(nlohmann::ordered_json&)>& damage, const std::string& word) {
    nlohmann::ordered_json bad = j;
    damage(bad);
    try {
      packed_tune_from_json(bad, "p.json");
      ADD_FAILURE() << "accepted: " << bad.dump();
    } catch (const ProfileError& e) {
      EXPECT_NE(std::string(e.what()).find("p.json: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
  };
  fails_with([](auto& b) { b["isa"] = "sse9"; }, "packed_gemm.isa");
  fails_with([](auto& b) { b["leaf"] = "fast"; }, "packed_gemm.leaf");
  fails_with([](auto& b) { b["best"]["mc"] = 50; }, "not a multiple");  // avx2: MR = 8
  fails_with([](auto& b) { b["best"]["kc"] = 0; }, "field 'packed_gemm.best.kc' must be >= 1, got 0");
  fails_with([](auto& b) { b.erase("rounds"); }, "field 'packed_gemm.rounds' is missing");
  fails_with([](auto& b) { b["blas_mflops"] = -1.0; }, "blas_mflops");
  fails_with([](auto& b) { b["candidates"] = nlohmann::ordered_json::array(); }, "non-empty");
  fails_with([](auto& b) { b["candidates"][1]["mflops_median"] = 0.0; }, "candidates[1]");
  fails_with([](auto& b) { b.erase("n"); }, "packed_gemm");
  fails_with([](auto& b) { b["rounds"] = 0; }, "rounds");
  fails_with([](auto& b) { b["speedup"]["lo"] = 1.5; }, "packed_gemm.speedup");
  fails_with([](auto& b) { b["speedup"].erase("hi"); }, "packed_gemm.speedup.hi");
  fails_with([](auto& b) { b["level"]["n"] = 0; }, "packed_gemm.level.n");
  fails_with([](auto& b) { b["level"].erase("rounds"); }, "packed_gemm.level.rounds");
  fails_with([](auto& b) { b["level"]["speedup"]["lo"] = 2.0; }, "packed_gemm.level.speedup");
  fails_with([](auto& b) { b["level"]["packed_vs_dgemm"] = 0.0; }, "packed_gemm.level.packed_vs_dgemm");
  fails_with([](auto& b) { b["level"].erase("blas_vs_dgemm"); }, "packed_gemm.level.blas_vs_dgemm");
}

TEST(CoreLayout, PerCoreRatesDecide) {
  ThreadedDgemm m;
  m.n = 2048;
  m.threads = 2;
  m.rounds = 3;
  m.single_mflops = 47000;
  m.threaded_mflops = 90000;
  CoreLayoutRecord r = core_layout_of(m, 2);
  ASSERT_TRUE(r.measured);
  EXPECT_EQ(r.ranks_mflops, 94000);
  EXPECT_EQ(r.threads_mflops, 90000);
  EXPECT_EQ(r.better, CoreLayout::rank_per_core);
  EXPECT_NE(describe(r).find("one rank per core"), std::string::npos) << describe(r);
  m.threaded_mflops = 96000;
  r = core_layout_of(m, 2);
  EXPECT_EQ(r.better, CoreLayout::threads);
  EXPECT_NE(describe(r).find("all cores as threads"), std::string::npos) << describe(r);
  // Fewer ranks than threads: per core, not in aggregate (1 rank at 47000
  // against 2 threads at 90000 = 45000 per core: ranks still win).
  m.threaded_mflops = 90000;
  r = core_layout_of(m, 1);
  EXPECT_EQ(r.ranks_mflops, 47000);
  EXPECT_EQ(r.better, CoreLayout::rank_per_core);
  // A one-rank tune timed its one thread with the other cores idle: the
  // verdict says so (a tune with 2 ranks above does not).
  EXPECT_NE(describe(r).find("from a one-rank tune"), std::string::npos) << describe(r);
  EXPECT_EQ(describe(core_layout_of(m, 2)).find("one-rank tune"), std::string::npos);
  // Equal per core: one rank per core.
  m.threaded_mflops = 94000;
  EXPECT_EQ(core_layout_of(m, 2).better, CoreLayout::rank_per_core);
  // Nothing to compare on one core, or without rates.
  m.threads = 1;
  EXPECT_FALSE(core_layout_of(m, 2).measured);
  m.threads = 2;
  m.single_mflops = 0;
  EXPECT_FALSE(core_layout_of(m, 2).measured);
}

TEST(CoreLayout, JsonRoundTripAndValidation) {
  ThreadedDgemm m{2048, 4, 3, 180000, 47000};
  const CoreLayoutRecord r = core_layout_of(m, 4);
  const CoreLayoutRecord back = core_layout_from_json(core_layout_to_json(r), "p.json");
  EXPECT_TRUE(back.measured);
  EXPECT_EQ(back.n, 2048);
  EXPECT_EQ(back.ranks, 4);
  EXPECT_EQ(back.threads, 4);
  EXPECT_EQ(back.ranks_mflops, r.ranks_mflops);
  EXPECT_EQ(back.threads_mflops, 180000);
  EXPECT_EQ(back.better, r.better);
  nlohmann::ordered_json bad = core_layout_to_json(r);
  bad["better"] = "both";
  EXPECT_THROW(core_layout_from_json(bad, "p.json"), ProfileError);
  bad = core_layout_to_json(r);
  bad["threads"] = 1;
  EXPECT_THROW(core_layout_from_json(bad, "p.json"), ProfileError);
  bad = core_layout_to_json(r);
  bad["ranks_mflops"] = 0.0;
  EXPECT_THROW(core_layout_from_json(bad, "p.json"), ProfileError);
}

MachineProfile minimal_profile() {
  MachineProfile p;
  p.host = "h";
  p.cpu_model = "cpu";
  p.cores = 2;
  p.date = "2025-03-01T12:00:00Z";
  p.problem = {4096, 1, 2, 32, 2048, 0.98, false};
  p.lb = 64;
  p.rule_lb = 64;
  p.lb_at_max = 64;
  p.peak_dgemm_mflops = 40000;
  p.t_op_s = 1.0 / 40e9;
  p.dgemm_profile = {{2048, 2048, 64, 40000}};
  return p;
}

TEST(ProfileGroups, PackedAndLayoutRoundTripAndAreOptional) {
  MachineProfile p = minimal_profile();
  // Without the groups: no keys written, nothing measured on reading.
  const std::string plain = profile_to_json(p);
  EXPECT_EQ(plain.find("packed_gemm"), std::string::npos);
  EXPECT_EQ(plain.find("core_layout"), std::string::npos);
  const MachineProfile old = parse_profile(plain, "old.json");
  EXPECT_FALSE(old.packed.measured);
  EXPECT_FALSE(old.core_layout.measured);
  EXPECT_EQ(to_params(old).packed_speed, 0.0);

  p.packed = sample_packed();
  p.core_layout = core_layout_of(ThreadedDgemm{2048, 2, 3, 90000, 47000}, 2);
  const MachineProfile back = parse_profile(profile_to_json(p), "new.json");
  EXPECT_TRUE(back.packed.measured);
  EXPECT_EQ(back.packed.best, p.packed.best);
  EXPECT_EQ(back.packed.leaf, LeafGemm::packed);
  EXPECT_TRUE(back.core_layout.measured);
  EXPECT_EQ(back.core_layout.better, CoreLayout::rank_per_core);
  EXPECT_DOUBLE_EQ(to_params(back).packed_speed, 41000.25 / 40000);
  EXPECT_DOUBLE_EQ(to_params(back).packed_level_speed, 1.04);
  EXPECT_EQ(to_params(old).packed_level_speed, 0.0);
  // A damaged group names its field and the file.
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(profile_to_json(p));
  j["packed_gemm"]["isa"] = 3;
  try {
    parse_profile(j.dump(), "bad.json");
    ADD_FAILURE() << "accepted";
  } catch (const ProfileError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("packed_gemm"), std::string::npos) << e.what();
  }
}

// Packed products are priced at DGEMM's time over the measured speed: with
// no level the whole product, with levels every leaf.
TEST(PackedPricing, MeasuredSpeedScalesThePackedLeaves) {
  model::MachineParams mp;
  mp.t_op = 1e-10;
  mp.add_bytes_per_s = 1e10;
  model::LocalKernel blas, packed;
  packed.gemm = local::LeafGemm::packed;
  const double dgemm = model::refined_local_time(1024, 1024, 1024, 1, blas, mp);
  EXPECT_DOUBLE_EQ(model::refined_local_time(1024, 1024, 1024, 1, packed, mp), dgemm);  // not measured
  mp.packed_speed = 1.25;
  EXPECT_DOUBLE_EQ(model::refined_local_time(1024, 1024, 1024, 1, packed, mp), dgemm / 1.25);
  EXPECT_DOUBLE_EQ(model::refined_local_time(1024, 1024, 1024, 1, blas, mp), dgemm);  // BLAS leaves unchanged
  // One level: seven packed products, no additions (fused).
  packed.levels = blas.levels = 1;
  packed.min_dim = blas.min_dim = 2;
  model::LocalKernel packed_leaf;  // the 512³ products below the level
  packed_leaf.gemm = local::LeafGemm::packed;
  const double one = model::refined_local_time(1024, 1024, 1024, 1, packed, mp);
  EXPECT_DOUBLE_EQ(one, 7 * model::refined_local_time(512, 512, 512, 1, packed_leaf, mp));
  EXPECT_DOUBLE_EQ(one, 7 * dgemm / 8 / 1.25);
  mp.packed_speed = 0.8;  // slower than DGEMM: the level's products cost more than DGEMM's
  EXPECT_GT(model::refined_local_time(1024, 1024, 1024, 1, packed, mp),
            7 * model::refined_local_time(512, 512, 512, 1, model::LocalKernel{}, mp));
}

// Where tune timed one fused level, the deepest level is priced as a whole
// at DGEMM's time for its product over that measured speed, whatever the
// plain product's speed; the levels above keep their passes.
TEST(PackedPricing, MeasuredLevelPricesTheFusedLevelAsAWhole) {
  model::MachineParams mp;
  mp.t_op = 1e-10;
  mp.add_bytes_per_s = 1e10;
  mp.packed_speed = 1.25;
  mp.packed_level_speed = 1.05;  // the level 1.05x DGEMM, not (8/7) x 1.25
  model::LocalKernel packed;
  packed.gemm = local::LeafGemm::packed;
  packed.levels = 1;
  packed.min_dim = 2;
  const double dgemm = model::refined_local_time(1024, 1024, 1024, 1, model::LocalKernel{}, mp);
  EXPECT_DOUBLE_EQ(model::refined_local_time(1024, 1024, 1024, 1, packed, mp), dgemm / 1.05);
  // No level applies: the plain packed product, at packed_speed.
  packed.min_dim = 4096;
  EXPECT_DOUBLE_EQ(model::refined_local_time(1024, 1024, 1024, 1, packed, mp), dgemm / 1.25);
  // Two levels: the top one on DGEMM leaves' terms (its passes), seven fused
  // levels of 1024 below it, each priced as a whole.
  packed.levels = 2;
  packed.min_dim = 2;
  model::LocalKernel one = packed;
  one.levels = 1;
  const double two = model::refined_local_time(2048, 2048, 2048, 1, packed, mp);
  EXPECT_GT(two, 7 * model::refined_local_time(1024, 1024, 1024, 1, one, mp));
  EXPECT_LT(two, 7 * model::refined_local_time(1024, 1024, 1024, 1, one, mp) * 1.2);
}

}  // namespace
}  // namespace mmbench::tuner
