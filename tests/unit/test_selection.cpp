// The algorithms' models by name (algos/registry.hpp: find_model
// reads the registry, each model lives in its algorithm's file) and the
// candidate ranking (ranking/selection.hpp): the paper column equals the
// paper formulas, Options resolve like the algorithms resolve them, the
// ranking is sorted by the chosen model and its first entry is what
// --algo auto runs, exclusions carry reasons, and p = 100000 is cheap.
//
// The registry may grow (tpmm, Strassen): tests that name a winner restrict
// the space to the algorithms they are about.
#include "ranking/selection.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "algos/registry.hpp"
#include "local/local_multiply.hpp"
#include "model/algorithm_models.hpp"
#include "model/paper_model.hpp"
#include "profile/machine_profile.hpp"

using namespace mmbench;
using namespace mmbench::model;
using namespace mmbench::ranking;
using mmbench::algos::find_model;

namespace {

MachineParams synthetic(double latency = 1e-3, double tau = 1e6, double t_op = 1e-9) {
  MachineParams mp;
  mp.latency_s = latency;
  mp.tau = tau;
  mp.t_op = t_op;
  return mp;
}

MachineParams opteron() {
  return synthetic(17e-6, 146e6 / 8, 1.0 / 3300e6);
}

algos::Options with_r(int r) {
  algos::Options o;
  o.recursions = r;
  return o;
}

void expect_same(const Prediction& a, const Prediction& b) {
  EXPECT_DOUBLE_EQ(a.comm_s, b.comm_s);
  EXPECT_DOUBLE_EQ(a.comp_s, b.comp_s);
}

}  // namespace

TEST(AlgorithmModels, EveryPlannedNameHasAModel) {
  for (const char* name : {"dgemm", "pdgemm", "ring", "tpmm", "strassen-q7+ring", "strassen-q7+pdgemm",
                           "strassen-q8+pdgemm", "strassen-q8+tpmm", "strassen-q8+dgemm"})
    EXPECT_NE(find_model(name), nullptr) << name;
  EXPECT_EQ(find_model("cannon"), nullptr);
  // Every registered algorithm has one (Registry.EveryAlgorithmHasModelsAndHelp checks them).
  for (const algos::Algorithm* a : algos::all_algorithms()) EXPECT_NE(find_model(a->name()), nullptr) << a->name();
}

TEST(AlgorithmModels, PaperColumnIsThePaperFormula) {
  const MachineParams mp = opteron();
  const algos::Problem pb{4096, 4096, 4096};
  expect_same(find_model("ring")->paper(pb, {}, 56, mp), paper_ring(4096, 56, mp));
  expect_same(find_model("tpmm")->paper(pb, {}, 64, mp), paper_tpmm(4096, 64, mp));
  algos::Options grid;
  grid.pr = 7;
  grid.pc = 8;
  grid.lb = 668;
  expect_same(find_model("pdgemm")->paper(pb, grid, 56, mp), paper_pdgemm(4096, 64, 7, 8, mp));
  // No grid given: the most square one (7 x 8 for 56).
  algos::Options lb668;
  lb668.lb = 668;
  expect_same(find_model("pdgemm")->paper(pb, lb668, 56, mp), paper_pdgemm(4096, 64, 7, 8, mp));
  expect_same(find_model("strassen-q7+ring")->paper(pb, with_r(2), 56, mp), paper_strassen_q7_ring(4096, 56, 2, mp));
  expect_same(find_model("strassen-q8+pdgemm")->paper(pb, with_r(1), 32, mp),
              paper_strassen_q8(4096, 32, 1, Cutoff::pdgemm, 64, mp));
  expect_same(find_model("strassen-q8+dgemm")->paper(pb, with_r(3), 64, mp),
              paper_strassen_q8(4096, 64, 3, Cutoff::dgemm, 64, mp));
  // dgemm: eq. 2.10 on p x threads threads: 2 * 4096^3 / 3300e6 / 4.
  EXPECT_NEAR(find_model("dgemm")->paper(pb, {}, 4, mp).total(), 2.0 * 4096.0 * 4096 * 4096 / 3300e6 / 4, 1e-12);
}

TEST(AlgorithmModels, PaperPdgemmDefaultLbUsesItsOwnRate) {
  // The thesis priced PDGEMM with lb = 32 at 2500 MFLOPS (t_op_pdgemm_default).
  MachineParams mp = opteron();
  mp.t_op_pdgemm_default = 1.0 / 2500e6;
  MachineParams slow = mp;
  slow.t_op = mp.t_op_pdgemm_default;
  const algos::Problem pb{4096, 4096, 4096};
  expect_same(find_model("pdgemm")->paper(pb, {}, 56, mp), paper_pdgemm(4096, 64, 7, 8, slow));
}

TEST(AlgorithmModels, PaperQ7PdgemmByHand) {
  // Not in the thesis: Q7 recursion with PDGEMM leaves. p = 4, r = 1,
  // n = 1000, t_op = 1e-9, lambda = 1e-3, tau = 1e6: both branches have
  // ceil(4/7) = floor(8/7) = 1 rank, leaf PDGEMM(500) on 1 x 1 = 0.25 s.
  // comm = 9 (250000 / 1 / 1e6 + 3e-3) = 2.277;
  // comp = max(5 * 2.5e-4 + 0.25, 7 * 2.5e-4 + 2 * 0.25) = 0.50175.
  const Prediction pr = find_model("strassen-q7+pdgemm")->paper({1000, 1000, 1000}, with_r(1), 4, synthetic());
  EXPECT_NEAR(pr.comm_s, 2.277, 1e-12);
  EXPECT_NEAR(pr.comp_s, 0.50175, 1e-12);
}

TEST(AlgorithmModels, DeepestRecursionThatApplies) {
  auto r = [](const char* name, int p) { return resolve_recursions(*find_model(name), with_r(-1), p); };
  EXPECT_EQ(r("strassen-q7+ring", 56), 2);    // floor(log7 56)
  EXPECT_EQ(r("strassen-q7+ring", 4), 1);     // unbalanced but allowed
  EXPECT_EQ(r("strassen-q7+ring", 3), 0);
  EXPECT_EQ(r("strassen-q8+pdgemm", 32), 2);  // 32 / 16 = 2 ranks per leaf
  EXPECT_EQ(r("strassen-q8+pdgemm", 16), 1);  // r = 2 would leave 1 rank
  EXPECT_EQ(r("strassen-q8+dgemm", 64), 3);
  EXPECT_EQ(r("strassen-q8+dgemm", 32), 0);   // 32 is no power of 4
  EXPECT_EQ(r("strassen-q8+tpmm", 32), 2);    // 32 / 16 = 2, a power of two
  EXPECT_EQ(r("strassen-q8+tpmm", 48), 0);    // 48 / 4 = 12, 48 / 16 = 3: neither a power of two
  EXPECT_EQ(r("ring", 56), 0);
  EXPECT_EQ(resolve_recursions(*find_model("strassen-q7+ring"), with_r(1), 56), 1);
}

TEST(Selection, RankedByTheChosenModel) {
  // p = 4, n = 1000, lambda = 1e-6, tau = 1e7, t_op = 1e-9 (dgemm excluded:
  // 2 cores per node).
  //   paper ring:   comm 2 * 3 * (1e-6 + 1000 * 250 / 1e7) = 0.150006, comp 0.5
  //   paper pdgemm 2x2: comm 1e6 / 1e7 + ceil(1000/64) * 2 * 1e-6 = 0.100032, comp 0.5
  //   refined ring: blocks of 250 columns, one chunk, so none of the 3
  //   shifts of 0.025001 is hidden -> 0.5 + 0.075003
  //   refined pdgemm 2x2: at least 0.5 + 0.1
  // So the paper model picks pdgemm 2x2, the refined one ring.
  CandidateSpace space;
  space.cores_per_node = 2;
  space.only = {"ring", "pdgemm", "dgemm"};
  const MachineParams mp = synthetic(1e-6, 1e7, 1e-9);
  const algos::Problem pb{1000, 1000, 1000};
  const Ranking paper = rank_candidates(pb, 4, {}, mp, ModelKind::paper, space);
  const Ranking refined = rank_candidates(pb, 4, {}, mp, ModelKind::refined, space);
  ASSERT_FALSE(paper.ranked.empty());
  EXPECT_EQ(paper.ranked[0].algo->name(), "pdgemm");
  EXPECT_EQ(paper.ranked[0].opt.pr, 2);
  EXPECT_EQ(paper.ranked[0].opt.pc, 2);
  EXPECT_NEAR(paper.ranked[0].paper.total(), 0.600032, 1e-9);
  EXPECT_EQ(refined.ranked[0].algo->name(), "ring");
  EXPECT_NEAR(refined.ranked[0].refined.total(), 0.575003, 1e-12);
  for (const Ranking* rk : {&paper, &refined}) {
    EXPECT_TRUE(std::is_sorted(rk->ranked.begin(), rk->ranked.end(), [&](const Candidate& a, const Candidate& b) {
      return a.time(rk->model) < b.time(rk->model);
    }));
    // dgemm was excluded with its reason.
    ASSERT_EQ(rk->excluded.size(), 1u);
    EXPECT_EQ(rk->excluded[0].label, "dgemm");
    EXPECT_NE(rk->excluded[0].reason.find("one node"), std::string::npos) << rk->excluded[0].reason;
  }
}

TEST(Selection, AutoPicksTheModelsMinimum) {
  // Whatever is registered: the first candidate is the minimum of the list.
  for (int p : {1, 2, 3, 7, 12, 56, 64}) {
    const Ranking rk = rank_candidates({2048, 2048, 2048}, p, {}, opteron(), ModelKind::refined, {});
    ASSERT_FALSE(rk.ranked.empty()) << p;
    double best = rk.ranked[0].time(ModelKind::refined);
    for (const Candidate& c : rk.ranked) EXPECT_LE(best, c.time(ModelKind::refined));
  }
}

TEST(Selection, GridsAndLbsEnumerated) {
  CandidateSpace space;
  space.only = {"pdgemm"};
  space.lbs = {0, 256};
  const Ranking rk = rank_candidates({1200, 1200, 1200}, 12, {}, opteron(), ModelKind::paper, space);
  // Grids 1x12, 2x6, 3x4 times lb 32, 256.
  ASSERT_EQ(rk.ranked.size(), 6u);
  // The paper model ignores lb: the tie keeps the enumeration order, so the
  // default lb (listed first) ranks above 256 for the same grid.
  EXPECT_EQ(rk.ranked[0].label(), "pdgemm grid=3x4 nb=64 lb=32(default)");
  EXPECT_EQ(rk.ranked[1].label(), "pdgemm grid=3x4 nb=64 lb=256");
}

TEST(Selection, MemoryLimitExcludes) {
  CandidateSpace space;
  space.only = {"ring"};
  space.max_doubles_per_rank = 1000;  // far below 3 * 1000^2 / 2
  const Ranking rk = rank_candidates({1000, 1000, 1000}, 2, {}, opteron(), ModelKind::refined, space);
  EXPECT_TRUE(rk.ranked.empty());
  // Ring in up to 4 chunks a step and in one (--ring-chunks): both refused.
  ASSERT_EQ(rk.excluded.size(), 2u);
  EXPECT_TRUE(rk.excluded[0].memory && rk.excluded[1].memory);
  // The reason names the need, its parts and the limit with its source.
  const std::string& why = rk.excluded[0].reason;
  EXPECT_NE(why.find("per rank, more than the 7.81 KiB of the memory available"), std::string::npos) << why;
  EXPECT_NE(why.find("(A 3.81 MiB, B 3.81 MiB, C 3.81 MiB, message buffers 7.63 MiB)"), std::string::npos) << why;
}

// The dgemm peer holds everything on rank 0 and nothing elsewhere: it may
// use what all ranks of the job may.
TEST(Selection, TheDgemmPeerMayUseEveryRanksShare) {
  CandidateSpace space;
  space.only = {"dgemm"};
  space.local_levels = {0};
  const algos::Problem pb{1000, 1000, 1000};  // 3 x 7.63 MiB = 22.9 MiB on rank 0
  space.max_doubles_per_rank = 1.6e6;         // 12.2 MiB per rank: 24.4 MiB for two
  EXPECT_EQ(rank_candidates(pb, 2, {}, opteron(), ModelKind::refined, space).ranked.size(), 1u);
  const Ranking one = rank_candidates(pb, 1, {}, opteron(), ModelKind::refined, space);
  ASSERT_TRUE(one.ranked.empty());
  EXPECT_NE(one.excluded[0].reason.find("per rank, more than the 12.2 MiB"), std::string::npos) << one.excluded[0].reason;
  space.max_doubles_per_rank = 1.0e6;  // 7.63 MiB each, 15.3 MiB for two
  const Ranking two = rank_candidates(pb, 2, {}, opteron(), ModelKind::refined, space);
  ASSERT_TRUE(two.ranked.empty());
  EXPECT_NE(two.excluded[0].reason.find("on rank 0 (the others hold nothing), more than the 15.3 MiB of 2 ranks at "
                                        "7.63 MiB each"),
            std::string::npos)
      << two.excluded[0].reason;
}

// What --algo auto runs is rank 1: no ranked candidate exceeds the limit,
// and every candidate excluded for memory does; the limit's source is cited.
TEST(Selection, MemoryLimitHoldsForEveryRankedCandidate) {
  CandidateSpace all;
  const algos::Problem pb{4096, 4096, 4096};
  const Ranking free = rank_candidates(pb, 16, {}, opteron(), ModelKind::refined, all);
  ASSERT_GT(free.ranked.size(), 4u);
  std::vector<double> needs;
  for (const Candidate& c : free.ranked) needs.push_back(c.memory.total());
  std::sort(needs.begin(), needs.end());
  CandidateSpace limited;
  limited.max_doubles_per_rank = needs[needs.size() / 2];  // about half fit
  limited.memory_limit_source = "--memory-per-rank";
  const Ranking rk = rank_candidates(pb, 16, {}, opteron(), ModelKind::refined, limited);
  ASSERT_FALSE(rk.ranked.empty());
  EXPECT_LT(rk.ranked.size(), free.ranked.size());
  for (const Candidate& c : rk.ranked) EXPECT_TRUE(fits_memory(c.memory, 8 * limited.max_doubles_per_rank, 16)) << c.label();
  int by_memory = 0;
  for (const Excluded& e : rk.excluded)
    if (e.memory) {
      ++by_memory;
      EXPECT_NE(e.reason.find("of --memory-per-rank"), std::string::npos) << e.reason;
    }
  EXPECT_GT(by_memory, 0);
  // Exactly the candidates that fit are ranked (a Q7 split of the model's is
  // only tried where the paper's split is ranked, so it may go unlisted).
  const auto ranked = [&](const std::string& label) {
    return std::any_of(rk.ranked.begin(), rk.ranked.end(), [&](const Candidate& c) { return c.label() == label; });
  };
  for (const Candidate& c : free.ranked) {
    if (!fits_memory(c.memory, 8 * limited.max_doubles_per_rank, 16)) {
      EXPECT_FALSE(ranked(c.label())) << c.label();
    } else if (c.opt.q7_splits == nullptr) {
      EXPECT_TRUE(ranked(c.label())) << c.label();
    }
  }
  // Every candidate states its memory, and it is the algorithm's own estimate.
  for (const Candidate& c : free.ranked)
    EXPECT_DOUBLE_EQ(c.memory.total(), c.algo->memory(pb, c.opt, 16).total()) << c.label();
}

TEST(Selection, BadInput) {
  EXPECT_THROW(rank_candidates({10, 10, 10}, 0, {}, opteron(), ModelKind::refined, {}), std::invalid_argument);
  EXPECT_THROW(rank_candidates({0, 10, 10}, 2, {}, opteron(), ModelKind::refined, {}), std::invalid_argument);
  EXPECT_THROW(parse_model_kind("roofline"), std::invalid_argument);
  EXPECT_EQ(parse_model_kind("paper"), ModelKind::paper);
  EXPECT_EQ(parse_model_kind("refined"), ModelKind::refined);
}

TEST(Selection, LocalLevelsAreACandidateDimension) {
  MachineParams mp = opteron();
  mp.add_bytes_per_s = 5e9;
  CandidateSpace space;
  space.only = {"dgemm", "ring"};
  space.local_levels = {0, 1, 2, 3};
  // n = 4096 on 1 rank: every level pays in the model (7/8 of the products
  // for a few quadrant passes), so L = 3 ranks first, L = 0 last of dgemm.
  const Ranking rk = rank_candidates({4096, 4096, 4096}, 1, {}, mp, ModelKind::refined, space);
  ASSERT_FALSE(rk.ranked.empty());
  EXPECT_EQ(rk.ranked[0].opt.local.levels, 3) << rk.ranked[0].label();
  EXPECT_NE(rk.ranked[0].label().find(" L=3"), std::string::npos);
  // n = 200: below the kernel's cut-off (256) L = 1..3 change nothing and
  // are excluded as duplicates of L = 0, with the reason.
  const Ranking small = rank_candidates({200, 200, 200}, 1, {}, mp, ModelKind::refined, space);
  for (const Candidate& c : small.ranked) EXPECT_EQ(c.opt.local.levels, 0) << c.label();
  const auto dup = std::find_if(small.excluded.begin(), small.excluded.end(),
                                [](const Excluded& e) { return e.reason.find("below the cut-off") != std::string::npos; });
  EXPECT_NE(dup, small.excluded.end());
  // The cut-off comes from base (the profile's crossover with auto): 3000
  // keeps n = 4096 at one level, so L = 2, 3 are duplicates of L = 1.
  algos::Options base;
  base.local.min_dim = 3000;
  const Ranking cut = rank_candidates({4096, 4096, 4096}, 1, base, mp, ModelKind::refined, space);
  for (const Candidate& c : cut.ranked) EXPECT_LE(c.opt.local.levels, 1) << c.label();
}

TEST(Selection, ModelQ7SplitJoinsThePapersWhereItDiffers) {
  MachineParams mp = opteron();
  mp.add_bytes_per_s = 2e9;
  CandidateSpace space;
  space.only = {"strassen-q7+ring"};
  int with_model = 0;
  for (int p : {64, 96, 128}) {
    const Ranking rk = rank_candidates({8192, 8192, 8192}, p, {}, mp, ModelKind::refined, space);
    for (const Candidate& c : rk.ranked) {
      if (!c.opt.q7_splits) continue;
      ++with_model;
      EXPECT_NE(c.label().find("split=model("), std::string::npos) << c.label();
      // The model's split is never predicted slower than the paper's with the same options.
      for (const Candidate& d : rk.ranked)
        if (!d.opt.q7_splits && d.opt.recursions == c.opt.recursions) {
          EXPECT_LE(c.refined.total(), d.refined.total()) << c.label() << " vs " << d.label() << " p=" << p;
        }
    }
  }
  EXPECT_GT(with_model, 0);
  // Above q7_model_split_max_p only the paper's split is ranked.
  space.q7_model_split_max_p = 32;
  for (const Candidate& c : rank_candidates({8192, 8192, 8192}, 64, {}, mp, ModelKind::refined, space).ranked)
    EXPECT_FALSE(c.opt.q7_splits) << c.label();
}

TEST(Selection, HundredThousandRanksInWellUnderASecond) {
  const auto t0 = std::chrono::steady_clock::now();
  const Ranking rk = rank_candidates({1000000, 1000000, 1000000}, 100000, {}, opteron(), ModelKind::refined, {});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(rk.ranked.empty());
  EXPECT_LT(s, 0.5) << "ranking p = 100000 took " << s << " s";
}

// docs/method.md §12 / Abb. 2.14: with the thesis' Opteron parameters the paper model
// puts Strassen + Ring (Q7) ahead of PDGEMM at p = 56 for every size the
// thesis plotted. Evaluated on the two algorithms' models directly, not
// through the ranking.
TEST(ThesisOpteron, StrassenRingAheadOfPdgemmAtP56) {
  const MachineParams mp = opteron();
  algos::Options pd;
  pd.lb = 668;  // tuned; the paper model does not use lb
  for (std::int64_t n = 1024; n <= 12288; n += 1024) {
    const algos::Problem pb{n, n, n};
    const double t_pdgemm = find_model("pdgemm")->paper(pb, pd, 56, mp).total();
    for (int r : {1, 2}) {
      const double t_q7 = find_model("strassen-q7+ring")->paper(pb, with_r(r), 56, mp).total();
      EXPECT_LT(t_q7, t_pdgemm) << "n = " << n << ", r = " << r;
    }
  }
}

// configs/thesis-opteron.json holds exactly the thesis' parameters (docs/method.md §12),
// with the latency read as 17 microseconds (docs/method.md §11).
TEST(ThesisOpteron, ProfileFileHasTheThesisParameters) {
  std::string path = __FILE__;  // <repo>/tests/unit/test_selection.cpp
  path = path.substr(0, path.rfind("/tests/")) + "/configs/thesis-opteron.json";
  const profile::MachineProfile prof = profile::read_profile(path);
  const MachineParams mp = profile::to_params(prof);
  EXPECT_DOUBLE_EQ(mp.latency_s, 17e-6);
  EXPECT_DOUBLE_EQ(mp.tau, 146e6 / 8);  // 146 MB/s all-to-all
  EXPECT_NEAR(1.0 / mp.t_op, 3300e6, 1e-3);
  EXPECT_EQ(prof.lb, 668);
  EXPECT_EQ(prof.cores, 2);
  EXPECT_NE(prof.notes.find("17 ms"), std::string::npos);
}

// dgemm's memory estimate counts the local kernel's workspace (the sweep keeps
// several prepared configurations; at n = 12288 on 2 threads leaving it out
// got the process OOM-killed).
TEST(Selection, DgemmEstimateCountsTheLocalWorkspace) {
  const algos::Algorithm* dg = algos::find_algorithm("dgemm");
  ASSERT_NE(dg, nullptr);
  algos::Problem pb{2048, 2048, 2048};
  algos::Options plain, fast;
  fast.local.levels = 2;
  fast.threads = 2;
  const double abc = 3.0 * 2048 * 2048;
  EXPECT_DOUBLE_EQ(dg->estimate_doubles_per_rank(pb, plain, 1), abc);
  EXPECT_DOUBLE_EQ(dg->estimate_doubles_per_rank(pb, fast, 1),
                   abc + double(local::LocalMultiply::workspace_doubles_needed(2048, 2048, 2048, {.levels = 2}, 2)));
  EXPECT_GT(dg->estimate_doubles_per_rank(pb, fast, 1), abc);
}

// ring, tpmm and the Strassen combinations count the local kernel's
// workspace too: for the largest local multiply a rank does (rank 0's row
// block times the widest B block; a q8+dgemm leaf's whole product).
TEST(Selection, DistributedEstimatesCountTheLocalWorkspace) {
  const algos::Problem pb{2048, 2048, 2048};
  algos::Options plain, fast;
  fast.local.levels = 2;
  for (const char* name : {"ring", "tpmm"}) {
    SCOPED_TRACE(name);
    const algos::Algorithm* a = algos::find_algorithm(name);
    ASSERT_NE(a, nullptr);
    // p = 2: rows 1024, widest B block 1024 columns, k = 2048.
    EXPECT_DOUBLE_EQ(a->estimate_doubles_per_rank(pb, fast, 2) - a->estimate_doubles_per_rank(pb, plain, 2),
                     double(local::LocalMultiply::workspace_doubles_needed(1024, 1024, 2048, {.levels = 2}, 1)));
  }
  // q8+dgemm at p = 4, r = 1: one leaf of 1024^3 per rank.
  const algos::Algorithm* q8 = algos::find_algorithm("strassen-q8+dgemm");
  ASSERT_NE(q8, nullptr);
  EXPECT_DOUBLE_EQ(q8->estimate_doubles_per_rank(pb, fast, 4) - q8->estimate_doubles_per_rank(pb, plain, 4),
                   double(local::LocalMultiply::workspace_doubles_needed(1024, 1024, 1024, {.levels = 2}, 1)));
  EXPECT_GT(local::LocalMultiply::workspace_doubles_needed(1024, 1024, 1024, {.levels = 2}, 1), 0);
  // pdgemm leaves have no local levels: nothing added.
  const algos::Algorithm* q7pd = algos::find_algorithm("strassen-q7+pdgemm");
  ASSERT_NE(q7pd, nullptr);
  EXPECT_DOUBLE_EQ(q7pd->estimate_doubles_per_rank(pb, fast, 7), q7pd->estimate_doubles_per_rank(pb, plain, 7));
}

TEST(Selection, RunnerUpRunsSomethingElse) {
  const algos::Algorithm* pdgemm = algos::find_algorithm("pdgemm");
  const algos::Algorithm* ring = algos::find_algorithm("ring");
  ASSERT_TRUE(pdgemm && ring);
  algos::Options o;
  o.pr = 1, o.pc = 2, o.lb = 512;
  algos::Options tuned = o;
  tuned.lb_tuned = true;  // the profile's lb, capped here at the ladder's 512
  Ranking rk;
  EXPECT_EQ(runner_up(rk), nullptr);
  rk.ranked.push_back(Candidate{pdgemm, o, {}, {0.0, 1.0}, {}});
  EXPECT_EQ(runner_up(rk), nullptr) << "one candidate has no runner-up";
  rk.ranked.push_back(Candidate{pdgemm, tuned, {}, {0.0, 1.0}, {}});
  EXPECT_EQ(runner_up(rk), nullptr) << rk.ranked[1].label() << " runs the same as " << rk.ranked[0].label();
  rk.ranked.push_back(Candidate{ring, {}, {}, {0.0, 1.025}, {}});
  ASSERT_NE(runner_up(rk), nullptr);
  EXPECT_EQ(runner_up(rk)->label(), "ring");
  // Priced equal but another run: a runner-up all the same.
  algos::Options other = o;
  other.lb = 256;
  rk.ranked.insert(rk.ranked.begin() + 1, Candidate{pdgemm, other, {}, {0.0, 1.0}, {}});
  EXPECT_EQ(runner_up(rk)->label(), "pdgemm grid=1x2 nb=64 lb=256");
}
