// 2.5d: replication choices, memory, and both cost models against values
// computed by hand. (The invariant every registered algorithm must satisfy
// is in test_registry.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "space/replicas.hpp"
#include "model/algorithm_models.hpp"
#include "ranking/selection.hpp"
#include "model/refined_model.hpp"
#include "model/two_point_five_d_model.hpp"

using namespace mmbench;
using namespace mmbench::space;
using namespace mmbench::model;

TEST(TwoPointFiveD, ReplicaChoices) {
  EXPECT_EQ(replica_choices(1), (std::vector<int>{1}));
  EXPECT_EQ(replica_choices(2), (std::vector<int>{2}));
  EXPECT_EQ(replica_choices(8), (std::vector<int>{2, 8}));
  EXPECT_EQ(replica_choices(16), (std::vector<int>{1, 4, 16}));
  EXPECT_EQ(replica_choices(18), (std::vector<int>{2, 18}));
  EXPECT_EQ(layer_grid_side(18, 2), 3);
  EXPECT_EQ(layer_grid_side(18, 3), 0);
  EXPECT_EQ(layer_grid_side(64, 4), 4);
}

TEST(TwoPointFiveD, MemoryAndAuto) {
  const Problem pb{1000, 1000, 1000};
  // p = 8, c = 2, q = 2: blocks of 500 x 500: A, B, C + two panels = 5 * 250000.
  EXPECT_DOUBLE_EQ(two_point_five_d_doubles_per_rank(pb, 8, 2), 5 * 250000.0);
  // c = 8, q = 1: whole matrices, 5 * 1e6.
  EXPECT_DOUBLE_EQ(two_point_five_d_doubles_per_rank(pb, 8, 8), 5e6);
  EXPECT_EQ(largest_replicas_that_fit(pb, 8, 0), 8);      // no limit: the largest
  EXPECT_EQ(largest_replicas_that_fit(pb, 8, 2e6), 2);    // c = 8 does not fit
  EXPECT_EQ(largest_replicas_that_fit(pb, 8, 1e5), 0);    // nothing fits
}

TEST(TwoPointFiveD, PaperModelWorkedExample) {
  // The example in model/two_point_five_d_model.hpp.
  MachineParams mp;
  mp.latency_s = 1e-5;
  mp.tau = 1e8;
  mp.t_op = 1e-10;
  const Prediction pr = paper_two_point_five_d(4096, 8, 2, 1, mp);
  const double block = 2048.0 * 2048.0;
  const double comm = 2 * (1e-5 + block / 1e8) + 1 * (2 * 1e-5 + 2 * 4096.0 * 4096.0 / 4 / 1e8) + (1e-5 + block / 1e8);
  const double comp = 2 * std::pow(4096.0, 3) / 8 * 1e-10 + block * 1e-10;
  EXPECT_NEAR(pr.comm_s, comm, 1e-12);
  EXPECT_NEAR(pr.comp_s, comp, 1e-12);
  EXPECT_NEAR(pr.comm_s, 0.20976, 1e-4);
  EXPECT_NEAR(pr.comp_s, 1.71841, 1e-4);
  // c = 1 (2D SUMMA, p = 16, q = 4): no replication, 4 steps of log2(4) = 2 broadcast stages.
  const Prediction summa = paper_two_point_five_d(4096, 16, 1, 1, mp);
  EXPECT_NEAR(summa.comm_s, 2 * (2 * 4 * 1e-5 + 2 * 4096.0 * 4096.0 / 4 / 1e8), 1e-12);
  // Words shrink as c grows at fixed p = 64: c = 1 (q = 8) vs c = 4 (q = 4): n^2/sqrt(cp) halves.
  MachineParams bw;  // bandwidth only
  bw.latency_s = 0;
  bw.tau = 1e8;
  bw.t_op = 1e-10;
  const double w1 = paper_two_point_five_d(4096, 64, 1, 1, bw).comm_s;
  const double w4 = paper_two_point_five_d(4096, 64, 4, 1, bw).comm_s;
  // c = 1: log2(8) * 2 n^2 / 8 = 3 * n^2/4; c = 4: 2*2*(n/4)^2 + 2 * 2 n^2/16 + 2*(n/4)^2 = n^2 (6/16 + 4/16) = 10/16 n^2.
  EXPECT_NEAR(w1, 3.0 * 4096 * 4096 / 4 / 1e8, 1e-12);
  EXPECT_NEAR(w4, 10.0 / 16 * 4096 * 4096 / 1e8, 1e-12);
  EXPECT_THROW(paper_two_point_five_d(4096, 8, 3, 1, mp), std::invalid_argument);
}

TEST(TwoPointFiveD, RefinedModelByHand) {
  MachineParams mp;
  mp.latency_s = 2e-6;
  mp.tau = 1e9;
  mp.t_op = 1e-10;           // DGEMM at 10 GFLOP/s
  mp.add_bytes_per_s = 1e10;  // 24 bytes per added element
  // p = 2, c = 2, q = 1: replicate A and B (1000 x 1000 each) once, one
  // SUMMA step per layer of width 500 with no broadcast (q = 1), reduce C once.
  const Prediction pr = refined_two_point_five_d(1000, 1000, 1000, 2, 2, 1, mp);
  const double msg = 2e-6 + 1e6 / 1e9;
  EXPECT_NEAR(pr.comm_s, 2 * msg + msg, 1e-12);
  EXPECT_NEAR(pr.comp_s, 2.0 * 1000 * 1000 * 500 * 1e-10 + 24e6 / 1e10, 1e-12);
}

TEST(TwoPointFiveD, ReplicationAndReductionRunOneWay) {
  // A profile with the ping-pong's regimes: the all-to-all's tau (what a rank
  // gets sending and receiving at once) is 69 MB/s, the rendezvous regime's
  // (one direction at a time) 124 MB/s, as on two nodes linked at 1 Gbit/s.
  MachineParams mp;
  mp.latency_s = 1e-5;
  mp.tau = 69e6 / 8;
  mp.t_op = 1e-10;
  mp.add_bytes_per_s = 1e10;
  mp.eager_limit_bytes = 262144;
  mp.latency_eager_s = 9e-6;
  mp.tau_eager = 35e6;
  mp.latency_rendezvous_s = 1.1e-5;
  mp.tau_rendezvous = 124e6 / 8;
  // p = 2, c = 2: A, B and C whole (1024^2 doubles, 8 MiB: rendezvous) cross
  // once each, one way: 3 (1.1e-5 + 1048576 / 15.5e6) = 0.20298 s; capped
  // by the all-to-all's tau they would take 3 (1.1e-5 + 1048576 / 8.625e6) = 0.36476 s.
  const Prediction pr = refined_two_point_five_d(1024, 1024, 1024, 2, 2, 1, mp);
  EXPECT_NEAR(pr.comm_s, 3 * (1.1e-5 + 1048576 / 15.5e6), 1e-9);
  EXPECT_NEAR(refined_message_time(1048576, mp), 1.1e-5 + 1048576 / 8.625e6, 1e-12);
  EXPECT_NEAR(refined_one_way_message_time(1048576, mp), 1.1e-5 + 1048576 / 15.5e6, 1e-12);
  // Small messages: the eager regime's own tau (35e6 doubles/s), likewise
  // not capped at tau (8.625e6 doubles/s).
  EXPECT_NEAR(refined_one_way_message_time(1000, mp), 9e-6 + 1000 / 35e6, 1e-15);
  // One regime fitted (break 0, as on a 10 Gbit/s link): its values at
  // every size, while refined_message_time keeps latency_s and tau.
  MachineParams one = mp;
  one.eager_limit_bytes = 0;
  one.latency_eager_s = one.latency_rendezvous_s = 1.2e-5;
  one.tau_eager = one.tau_rendezvous = 196e6;
  EXPECT_NEAR(refined_one_way_message_time(5e5, one), 1.2e-5 + 5e5 / 196e6, 1e-15);
  EXPECT_NEAR(refined_message_time(5e5, one), 1e-5 + 5e5 / 8.625e6, 1e-15);
  // Without regime values: the same as refined_message_time.
  MachineParams flat = one;
  flat.latency_rendezvous_s = flat.tau_rendezvous = 0;
  EXPECT_EQ(refined_one_way_message_time(5e5, flat), refined_message_time(5e5, flat));
}
