// Ranks x threads hybrids (space/hybrid.hpp): a configuration of p ranks
// run on p / t of them with t x threads threads. Checked here without MPI:
// which configurations apply and why not, that the models price a hybrid as
// the plain algorithm on its computing ranks (R / t of them per node), which
// t --algo auto ranks, and that it picks one where the model says so --
// threads that scale, a network that costs -- and never where threads were
// not measured. The plans themselves run in tests/mpi/test_algorithms.
#include <gtest/gtest.h>

#include <set>

#include "algos/registry.hpp"
#include "model/algorithm_models.hpp"
#include "ranking/option_table.hpp"
#include "ranking/selection.hpp"
#include "space/hybrid.hpp"

using namespace mmbench;
using namespace mmbench::model;
using namespace mmbench::ranking;

namespace {

// One node of 16 cores, threads that scale at 90 %, a network that costs.
MachineParams threaded_node(double efficiency = 0.9) {
  MachineParams mp;
  mp.latency_s = 1e-4;
  mp.tau = 1e8;
  mp.t_op = 1e-10;
  mp.thread_efficiency = efficiency;
  mp.thread_efficiency_threads = 16;
  return mp;
}

algos::Options hybrid(int t, int threads = 1) {
  algos::Options o;
  o.hybrid = t;
  o.threads = threads;
  return o;
}

}  // namespace

TEST(Hybrid, InnerIsTheAlgorithmOnEveryTthRank) {
  const space::AsRun in = space::hybrid_inner(hybrid(4, 2), 16);
  EXPECT_EQ(in.ranks, 4);
  EXPECT_EQ(in.opt.threads, 8);
  EXPECT_EQ(in.opt.hybrid, 1);
  const space::AsRun same = space::hybrid_inner(hybrid(1, 3), 6);
  EXPECT_EQ(same.ranks, 6);
  EXPECT_EQ(same.opt.threads, 3);
  EXPECT_EQ(space::hybrid_world_rank(3, 4), 12);
  EXPECT_TRUE(space::hybrid_computes(8, 4));
  EXPECT_FALSE(space::hybrid_computes(9, 4));
}

TEST(Hybrid, WhereItDoesNotApplyTheReasonSaysWhy) {
  const algos::Problem pb{512, 512, 512};
  const algos::Algorithm& ring = *algos::find_algorithm("ring");
  EXPECT_TRUE(ring.check(pb, hybrid(2), 8).ok());
  const std::string odd = ring.check(pb, hybrid(3), 8).reason;
  EXPECT_NE(odd.find("p = 8 is not a multiple of 3"), std::string::npos) << odd;
  // The peer is one rank with every core already.
  const std::string peer = algos::find_algorithm("dgemm")->check(pb, hybrid(2), 8).reason;
  EXPECT_NE(peer.find("already runs one rank with every core"), std::string::npos) << peer;
  // The algorithm's own rule, on the computing ranks: Q8 over DGEMM needs
  // p = 4^r -- 16 ranks as 4 x 4 threads apply, as 8 x 2 do not.
  const algos::Algorithm& q8 = *algos::find_algorithm("strassen-q8+dgemm");
  EXPECT_TRUE(q8.check(pb, hybrid(4), 16).ok());
  const std::string eight = q8.check(pb, hybrid(2), 16).reason;
  EXPECT_EQ(eight.rfind("hybrid 2: on 8 ranks: ", 0), 0u) << eight;
  // Memory: what each computing rank holds, the plain plan's on p / t.
  EXPECT_DOUBLE_EQ(ring.memory(pb, hybrid(2), 8).total(), ring.memory(pb, {}, 4).total());
}

TEST(Hybrid, PricedAsThePlainAlgorithmOnItsComputingRanks) {
  MachineParams mp = threaded_node();
  // Two nodes of 8 ranks: the hybrid keeps 4 computing ranks on each.
  mp.network.ranks_per_node = 8;
  mp.network.intra = {1e-6, 1e9};
  mp.network.inter = {1e-4, 1e8};
  MachineParams inner_mp = mp;
  inner_mp.network.ranks_per_node = 4;
  const algos::Problem pb{2048, 2048, 2048};
  for (const char* name : {"ring", "tpmm", "pdgemm", "2.5d"}) {
    const AlgorithmModel& m = algos::find_algorithm(name)->models();
    const Prediction h = refined_prediction(m, pb, hybrid(2), 16, mp);
    const Prediction plain = refined_prediction(m, pb, hybrid(1, 2), 8, inner_mp);
    EXPECT_DOUBLE_EQ(h.total(), plain.total()) << name;
    EXPECT_DOUBLE_EQ(paper_prediction(m, pb, hybrid(2), 16, mp).total(),
                     paper_prediction(m, pb, hybrid(1, 2), 8, inner_mp).total())
        << name;
    // And not the job's own price: the hybrid is a different configuration.
    EXPECT_NE(h.total(), refined_prediction(m, pb, hybrid(1), 16, mp).total()) << name;
  }
  const PricedJob job = hybrid_job(hybrid(2), 16, mp);
  EXPECT_EQ(job.p, 8);
  EXPECT_EQ(job.opt.threads, 2);
  EXPECT_EQ(job.mp.network.ranks_per_node, 4);
}

TEST(Hybrid, AutoRanksTheDivisorsUpToTheMeasuredThreads) {
  EXPECT_EQ(hybrid_max_for(MachineParams{}, 16, 1), 1);  // threads not measured: none
  EXPECT_EQ(hybrid_max_for(threaded_node(), 16, 1), 16);
  EXPECT_EQ(hybrid_max_for(threaded_node(), 8, 1), 8);   // a node's cores
  EXPECT_EQ(hybrid_max_for(threaded_node(), 16, 4), 4);  // for 4 threads per rank
  CandidateSpace space;
  space.only = {"ring"};
  space.cores_per_node = 16;
  space.hybrid_max = 16;
  std::set<int> ts;
  for (const Candidate& c :
       rank_candidates({2048, 2048, 2048}, 8, {}, threaded_node(), ModelKind::refined, space).ranked)
    ts.insert(c.opt.hybrid);
  // 8 = one rank with every thread is the dgemm peer, not a hybrid.
  EXPECT_EQ(ts, (std::set<int>{1, 2, 4}));
}

TEST(Hybrid, AutoPicksOneWhereTheNetworkCostsMoreThanThreadsLose) {
  CandidateSpace space;
  space.only = {"ring", "tpmm", "pdgemm"};
  space.cores_per_node = 16;
  space.hybrid_max = hybrid_max_for(threaded_node(), 16, 1);
  // n = 512 on 16 ranks, 1 ms per message: ring's 15 shifts cost 15 ms
  // against 1.7 ms of computing per rank; as 4 ranks x 4 threads 3 shifts.
  MachineParams slow = threaded_node(0.9);
  slow.latency_s = 1e-3;
  slow.tau = 1e9;
  const Ranking rk = rank_candidates({512, 512, 512}, 16, {}, slow, ModelKind::refined, space);
  ASSERT_FALSE(rk.ranked.empty());
  EXPECT_GT(rk.ranked[0].opt.hybrid, 1) << rk.ranked[0].label();
  EXPECT_NE(rk.ranked[0].label().find(" hybrid="), std::string::npos) << rk.ranked[0].label();
  // A network that costs nothing: threads only lose their 10 %, one
  // thread per rank wins.
  MachineParams fast = threaded_node(0.9);
  fast.latency_s = 1e-7;
  fast.tau = 1e11;
  const Ranking plain = rank_candidates({1024, 1024, 1024}, 16, {}, fast, ModelKind::refined, space);
  EXPECT_EQ(plain.ranked[0].opt.hybrid, 1) << plain.ranked[0].label();
  // No hybrid where the caller allows none (threads not measured).
  space.hybrid_max = 1;
  for (const Candidate& c : rank_candidates({512, 512, 512}, 16, {}, slow, ModelKind::refined, space).ranked)
    EXPECT_EQ(c.opt.hybrid, 1) << c.label();
}

TEST(Hybrid, ACapOnAComputingRanksThreads) {
  CandidateSpace space;
  space.only = {"ring"};
  space.cores_per_node = 4;
  space.hybrid_max = 8;  // more than a node holds: excluded with the reason
  const Ranking rk = rank_candidates({512, 512, 512}, 16, {}, threaded_node(), ModelKind::refined, space);
  bool said = false;
  for (const Excluded& e : rk.excluded)
    said |= e.label == "ring hybrid=8" && e.reason.find("a node has 4 cores") != std::string::npos;
  EXPECT_TRUE(said);
  for (const Candidate& c : rk.ranked) EXPECT_LE(c.opt.hybrid, 4) << c.label();
}
