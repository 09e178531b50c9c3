// The two-level network in the refined model (model/two_level_network.hpp,
// model/network_traffic.hpp; docs/cost-models.md, "Two-level network"):
// each pattern's price on small cases worked out by hand, and the reduction
// to today's prices where the two levels do not differ.
//
// Hand machine H unless a test says otherwise: t_op = 1e-9 s; one level
// lambda 1e-3 s, tau 1e6 doubles/s (unused where two levels price); two
// levels: R = 2 ranks per node, inside a node 1e-6 s and 1e8 doubles/s one
// flow, 5e7 per flow when more than one flow runs in the node; between
// nodes 1e-5 s and 1e6 doubles/s one flow, node link 1e6, no backbone limit.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "algos/registry.hpp"
#include "model/network_traffic.hpp"
#include "model/refined_model.hpp"
#include "model/two_point_five_d_model.hpp"
#include "space/strassen_groups.hpp"

using namespace mmbench;
using namespace mmbench::model;

namespace {

MachineParams hand() {
  MachineParams mp;
  mp.latency_s = 1e-3;
  mp.tau = 1e6;
  mp.t_op = 1e-9;
  TwoLevelNetwork& net = mp.network;
  net.ranks_per_node = 2;
  net.intra = {1e-6, 1e8};
  net.intra_tau_concurrent = 5e7;
  net.inter = {1e-5, 1e6};
  net.node_link_tau = 1e6;
  return mp;
}

void expect_rel(double actual, double expected, double rel = 1e-12) {
  EXPECT_NEAR(actual, expected, std::abs(expected) * rel) << "expected " << expected;
}

// The thesis' parameters as one level (configs/thesis-opteron.json), and a
// variant with two MPI regimes, as a tuned profile has.
MachineParams thesis(bool regimes) {
  MachineParams mp;
  mp.latency_s = 17e-6;
  mp.tau = 18.25e6;
  mp.t_op = 1.0 / 3300e6;
  if (regimes) {
    mp.latency_eager_s = 2e-6;
    mp.tau_eager = 5e6;
    mp.latency_rendezvous_s = 30e-6;
    mp.tau_rendezvous = 70e6;
    mp.eager_limit_bytes = 65536;
  }
  return mp;
}

}  // namespace

TEST(TwoLevelNetwork, OnlyLevelsThatDifferMakeTwoLevels) {
  TwoLevelNetwork net;
  EXPECT_FALSE(net.two_level());  // no section
  net.ranks_per_node = 2;
  net.intra = {1e-6, 1e8};
  EXPECT_FALSE(net.complete());  // the inter-node level not known (a tune on one node)
  EXPECT_FALSE(net.two_level());
  net.inter = net.intra;
  EXPECT_TRUE(net.complete());
  EXPECT_FALSE(net.two_level());  // equal levels, no limits: one network
  net.backbone_tau = 1e9;
  EXPECT_TRUE(net.two_level());  // a shared capacity is something one level cannot say
  net.backbone_tau = 0;
  net.inter.latency_s = 1e-5;
  EXPECT_TRUE(net.two_level());
}

// Equal levels with no contention limit are one network: every registered
// algorithm's refined prediction is bit for bit the one without the section,
// over a grid of p and n, with and without MPI regimes, whatever the equal
// levels' values (the one-level latency and tau price them).
TEST(TwoLevelNetwork, EqualLevelsReduceToTodaysPricesBitForBit) {
  for (bool regimes : {false, true}) {
    const MachineParams one = thesis(regimes);
    for (const NetworkLevel level : {NetworkLevel{one.latency_s, one.tau}, NetworkLevel{1e-6, 1e9}}) {
      for (int r : {1, 2, 4}) {
        MachineParams two = one;
        two.network.ranks_per_node = r;
        two.network.intra = two.network.inter = level;
        for (const algos::Algorithm* a : algos::all_algorithms()) {
          for (int p : {1, 2, 4, 7, 8, 16, 56, 64, 256}) {
            for (Index n : {512, 4096, 16384}) {
              const space::Problem pb{n, n, n};
              const space::Options opt;
              const std::string what = std::string(a->name()) + " p=" + std::to_string(p) + " n=" + std::to_string(n);
              bool threw_one = false, threw_two = false;
              Prediction x, y;
              try {
                x = a->models().refined(pb, opt, p, one);
              } catch (const std::invalid_argument&) {
                threw_one = true;
              }
              try {
                y = a->models().refined(pb, opt, p, two);
              } catch (const std::invalid_argument&) {
                threw_two = true;
              }
              ASSERT_EQ(threw_one, threw_two) << what;
              EXPECT_EQ(x.comm_s, y.comm_s) << what;
              EXPECT_EQ(x.comp_s, y.comp_s) << what;
            }
          }
        }
      }
    }
  }
}

TEST(TwoLevelNetwork, OneLevelTrafficIsTheMessageTime) {
  const MachineParams mp = thesis(true);
  for (double s : {1.0, 1000.0, 1e6})
    EXPECT_EQ(traffic_time(s, ring_shift_traffic(8, 2), 8, mp), refined_message_time(s, mp));
}

TEST(Traffic, RingShiftOnTwoNodesOfTwoRanks) {
  // p = 4, R = 2: 0 -> 1 and 2 -> 3 inside the nodes, 1 -> 2 and 3 -> 0
  // leave them: one flow inside and one out per node, two between nodes.
  const Traffic t = ring_shift_traffic(4, 2);
  EXPECT_EQ(t.intra_flows, 1);
  EXPECT_EQ(t.inter_flows, 1);
  EXPECT_EQ(t.inter_total, 2.0);
  const Traffic one_node = ring_shift_traffic(2, 2);  // 0 -> 1 and 1 -> 0
  EXPECT_EQ(one_node.intra_flows, 2);
  EXPECT_EQ(one_node.inter_flows, 0);
}

TEST(Traffic, TpmmSwapsOfEq22) {
  // eq. 2.2: p = 32, 4 consecutive ranks per node: the swaps at distance 1
  // and 2 (16 + 8 of 31) stay inside a node, those at 4, 8, 16 leave it
  // with every rank of the node at once.
  int inside = 0;
  for (int d = 1; d < 32; d *= 2) {
    const Traffic t = pairwise_traffic(32, d, 4);
    if (t.inter_flows == 0) {
      EXPECT_EQ(t.intra_flows, 4) << d;
      inside += 32 / (2 * d);
    } else {
      EXPECT_EQ(t.intra_flows, 0) << d;
      EXPECT_EQ(t.inter_flows, 4) << d;
      EXPECT_EQ(t.inter_total, 32.0) << d;
    }
  }
  EXPECT_EQ(inside, 24);
  // R = 6, d = 2: blocks of 4 straddle the nodes: both kinds at full load.
  const Traffic mixed = pairwise_traffic(16, 2, 6);
  EXPECT_EQ(mixed.intra_flows, 6);
  EXPECT_EQ(mixed.inter_flows, 6);
}

TEST(Traffic, BinomialTreeStages) {
  // R = 2, 4 rows of 8 consecutive ranks (p = 32), 1000 doubles in one
  // message per stage: stage 0 (d = 4) and 1 (d = 2) cross nodes with one
  // sender per node (4 and 8 flows: no backbone limit here, the node link's
  // 1e6 for one flow), 1e-5 + 1000 / 1e6 each; stage 2 (d = 1) inside the
  // nodes, both ranks at once (5e7): 1e-6 + 1000 / 5e7.
  const MachineParams mp = hand();
  expect_rel(tree_time(1000, 1, 8, 1, 4, 32, mp), 2 * (1e-5 + 1e-3) + 1e-6 + 2e-5);
  // The columns of that grid (8 ranks 4 apart... here 4 ranks 8 apart):
  // every stage crosses nodes with both ranks of a node sending (5e5 each).
  expect_rel(tree_time(1000, 1, 4, 8, 8, 32, mp), 2 * (1e-5 + 1000 / 5e5));
  // With a backbone of 4e6: stage 1 of the rows has 8 flows (5e5 each), so
  // it moves at the backbone's share, its latency hidden: 1000 / 5e5.
  MachineParams bb = hand();
  bb.network.backbone_tau = 4e6;
  expect_rel(tree_time(1000, 1, 8, 1, 4, 32, bb), (1e-5 + 1e-3) + 1000 / 5e5 + 1e-6 + 2e-5);
  // 7 members (not a power of two): stage 0 (d = 4) has ceil(3 / 8) = 1
  // sender per tree, stage 1 (d = 2) ceil(5 / 4) = 2, stage 2 inside.
  expect_rel(tree_time(1000, 1, 7, 1, 4, 28, bb), (1e-5 + 1e-3) + 1000 / 5e5 + 1e-6 + 2e-5);
  EXPECT_EQ(tree_time(1000, 1, 1, 1, 4, 4, mp), 0.0);
}

TEST(TwoLevelRing, TwoNodesOfTwoRanks) {
  // m = n = k = 1000 on p = 4: blocks of 250 columns (one chunk), step =
  // 2 * 250 * 250 * 1000 * 1e-9 = 0.125 s. Shift of 1000 * 250 doubles:
  // inside a node (one flow) 1e-6 + 2.5e5 / 1e8 = 0.002501 s, out of it
  // 1e-5 + 2.5e5 / min(1e6, 1e6 / 1) = 0.25001 s: the step waits for the
  // slower, and one chunk hides nothing of it (RefinedRing,
  // OneChunkHidesNothingOfARendezvousShift). comm = 3 * 0.25001, comp = 4 * 0.125.
  const Prediction r = refined_ring(1000, 1000, 1000, 4, 1, hand());
  expect_rel(r.comm_s, 3 * 0.25001);
  expect_rel(r.comp_s, 0.5);
  // One level: 1e-3 + 0.25 = 0.251 per shift.
  MachineParams one = hand();
  one.network = {};
  expect_rel(refined_ring(1000, 1000, 1000, 4, 1, one).comm_s, 3 * 0.251);
}

TEST(TwoLevelRing, BackboneSharedByTheNodesFlows) {
  // p = 8 on 4 nodes, backbone 2e6 doubles/s: 4 flows leave their nodes at
  // once, 5e5 each on the backbone. Blocks of 125: step 2 * 125 * 125 *
  // 1000 * 1e-9 = 0.03125 s; a shift of 125000 doubles: its path
  // 1e-5 + 125000 / 1e6 = 0.12501 s, the backbone's share 125000 / 5e5 =
  // 0.25 s (its latency hidden behind the other flows): 0.25 s, none of it
  // hidden (one chunk). comm = 7 * 0.25, comp = 8 * 0.03125.
  MachineParams mp = hand();
  mp.network.backbone_tau = 2e6;
  const Prediction r = refined_ring(1000, 1000, 1000, 8, 1, mp);
  expect_rel(r.comm_s, 7 * 0.25);
  expect_rel(r.comp_s, 0.25);
  // A backbone that is not the bottleneck (8e6: 2e6 each) leaves the path.
  mp.network.backbone_tau = 8e6;
  expect_rel(refined_ring(1000, 1000, 1000, 8, 1, mp).comm_s, 7 * 0.12501);
}

TEST(TwoLevelTpmm, NearSwapsInsideFarSwapsAcross) {
  // p = 4, R = 2, blocks of 250 columns, swaps of 250000 doubles: two at
  // distance 1 inside the node (both ranks at once: 5e7 each),
  // 1e-6 + 250000 / 5e7 = 0.005001 s; one at distance 2 with both ranks of
  // each node on its link, 1e-5 + 250000 / (1e6 / 2) = 0.50001 s.
  const Prediction t = refined_tpmm(1000, 1000, 1000, 4, 1, hand());
  expect_rel(t.comm_s, 2 * 0.005001 + 0.50001);
  expect_rel(t.comp_s, 4 * 0.125);
}

TEST(TwoLevelPdgemm, RowAndColumnBroadcasts) {
  // 2 x 4 grid (row-major ranks), R = 2, m = n = k = 1024, nb 64, lb 32
  // (the cap): 32 panels. A row (4 consecutive ranks) shares A's
  // 1024 * 1024 / 2 = 524288 doubles; the owners take turns, so each of the
  // tree's 2 stages moves all of them. d = 2 across nodes, one sender per
  // node (1e6), 32 * 1e-5 + 524288 / 1e6; d = 1 inside, both ranks at once
  // (5e7), 32 * 1e-6 + 524288 / 5e7. A column (2 ranks 4 apart) shares
  // 1024 * 1024 / 4 = 262144 doubles, in 1 stage across nodes, both ranks of
  // a node sending (5e5): 32 * 1e-5 + 262144 / 5e5.
  const Prediction p = refined_pdgemm(1024, 1024, 1024, 2, 4, 64, 32, 1, hand());
  expect_rel(p.comm_s, (32e-5 + 0.524288) + (32e-6 + 0.01048576) + (32e-5 + 0.524288));
  expect_rel(p.comp_s, 2.0 * 1024 * 1024 * 1024 / 8 * 1e-9);
}

TEST(TwoLevelTwoPointFiveD, ReplicationSummaReduction) {
  // p = 8 = 2^2 * 2 (q = 2, c = 2), R = 2, n = 1024: blocks 512 x 512
  // (262144 doubles), one SUMMA step of width 512. Depth (4 ranks apart, a
  // tree of one stage): between nodes, both ranks of a node sending (5e5),
  // 1e-5 + 262144 / 5e5 = 0.524298 s, for A, B and the reduction of C; a
  // grid row (ranks 2i, 2i+1): inside a node, 1e-6 + 262144 / 5e7 =
  // 0.00524388; a column (2 apart): between nodes as the depth.
  const Prediction t = refined_two_point_five_d(1024, 1024, 1024, 8, 2, 1, hand());
  expect_rel(t.comm_s, 3 * 0.524298 + 0.00524388 + 0.524298);
}

TEST(TwoLevelExchange, BusiestNodeLinkOrBackbone) {
  // p = 8, R = 2, node link 1e6 (two ranks of a node receive at once: 5e5
  // each), backbone 4e6: the busiest rank's 1e5 doubles in 2 messages,
  // 4e5 in all: 2e-5 + max(1e5 / 5e5, 4e5 / 4e6) = 0.20002 s.
  MachineParams mp = hand();
  mp.network.backbone_tau = 4e6;
  expect_rel(exchange_time(1e5, 2, 4e5, 8, mp), 0.20002);
  mp.network.backbone_tau = 1e6;  // now the backbone: 4e5 / 1e6 = 0.4 s
  expect_rel(exchange_time(1e5, 2, 4e5, 8, mp), 0.4);
  mp.network.job_ranks = 16;  // another group of 8 exchanges at the same time
  expect_rel(exchange_time(1e5, 2, 4e5, 8, mp), 0.8);
}

// Q7 and Q8 transfers on p ranks, each its own node (R = 1), leaves that
// cost nothing: the level's exchange phase alone (exchange_time), with the
// code's own group sizes, partner counts and the transfers of the formula
// tables (T_C11 .. T_C22 receive 6, 2, 2, 7 quadrants and products in Q7;
// 6, 2, 2, 6 in Q8).
TEST(TwoLevelStrassen, TransfersAreOneExchangePhase) {
  MachineParams mp = hand();
  mp.network.ranks_per_node = 1;
  mp.network.node_link_tau = 0;  // one rank per node: its link is its own
  mp.network.backbone_tau = 8e6;
  const LeafModel free_leaf = [](double, double, double, int) { return Prediction{0.0, 0.0}; };
  // Q7, p = 7 (2/2/2/1), m = n = k = 2000: quadrants of 1000^2 = 1e6
  // doubles. G22's rank receives 7 of them (1e6 / 1 each) from
  // max_partners_1d(1000, 1, 2) senders each, 7e6 / 1e6 = 7 s; all
  // groups together 17e6 doubles, 17e6 / 8e6 = 2.125 s on the backbone.
  const auto g = space::q7_group_sizes(7);
  ASSERT_EQ(g[3], 1);
  const int partners = space::max_partners_1d(1000, 1, 2);
  const Prediction q7 = refined_strassen_q7(2000, 2000, 2000, 7, 1, free_leaf, mp);
  expect_rel(q7.comm_s, 7 * partners * 1e-5 + 7.0);
  // Q8, p = 16, r = 1: shares of 1e6 / 4 = 250000 doubles; the busiest
  // rank 6 of them (1.5 s at 1e6), all four groups of 4 ranks 16 shares
  // each in all: 16 * 4 * 250000 = 1.6e7 doubles, 2 s on the backbone.
  const Prediction q8 = refined_strassen_q8(2000, 2000, 2000, 16, 1, free_leaf, mp);
  expect_rel(q8.comm_s, 2.0);
}

// Leaves that run in every group at once share the job's backbone: a ring
// on a group of 8 ranks inside a job of 16 sees the flows of both groups.
TEST(TwoLevelStrassen, LeafGroupsShareTheJobsBackbone) {
  MachineParams mp = hand();
  mp.network.backbone_tau = 2e6;
  // p = 8 alone: 4 flows, 5e5 each (TwoLevelRing.BackboneSharedByTheNodesFlows);
  // in a job of 16: 8 flows, 2.5e5 each: a shift 125000 / 2.5e5 = 0.5 s
  // (blocks of 125 columns: one chunk, nothing hidden).
  const Prediction alone = refined_ring(1000, 1000, 1000, 8, 1, mp);
  const Prediction in_job = refined_ring(1000, 1000, 1000, 8, 1, for_job(mp, 16));
  expect_rel(alone.comm_s, 7 * 0.25);
  expect_rel(in_job.comm_s, 7 * 0.5);
}

TEST(TwoLevelNetwork, TheThesisClusterPricesRingBelowTheAllToAllRate) {
  // The thesis cluster's platform values (configs/platforms/thesis-opteron.xml)
  // against its one-level 146 MB/s: a ring shift at p = 56 has one flow per
  // node on the backbone, so it costs less than at the all-to-all rate.
  MachineParams one = thesis(false), two = thesis(false);
  two.network.ranks_per_node = 2;
  two.network.intra = {1e-6, 1500e6 / 8};
  two.network.inter = {17e-6, 600e6 / 8};
  two.network.node_link_tau = 600e6 / 8;
  two.network.backbone_tau = 9344e6 / 8;
  const Prediction a = refined_ring(4096, 4096, 4096, 56, 1, one), b = refined_ring(4096, 4096, 4096, 56, 1, two);
  EXPECT_LT(b.comm_s, a.comm_s);
  EXPECT_EQ(a.comp_s, b.comp_s);
}
