// The refined cost models (model/refined_model.hpp) against values worked out
// by hand. Synthetic machine R unless a test says otherwise:
//   lambda = 1e-3 s, tau = 1e6 doubles/s, t_op = 1e-9 s, no profile, no
//   add bandwidth, no eager/rendezvous split.
#include "space/ring_chunks.hpp"
#include "model/refined_model.hpp"
#include "model/algorithm_models.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace mmbench::model;

namespace {

MachineParams synthetic() {
  MachineParams mp;
  mp.latency_s = 1e-3;
  mp.tau = 1e6;
  mp.t_op = 1e-9;
  return mp;
}

void expect_rel(double actual, double expected, double rel = 1e-12) {
  if (expected == 0) {
    EXPECT_EQ(actual, 0.0);
  } else {
    EXPECT_NEAR(actual, expected, std::abs(expected) * rel) << "expected " << expected;
  }
}

}  // namespace

TEST(DgemmRate, NearestProfilePointInLogSpace) {
  MachineParams mp = synthetic();
  mp.dgemm_profile = {{1000, 1000, 32, 2000.0}, {1000, 1000, 256, 3000.0}};
  // |ln(200/256)| = 0.25 < |ln(200/32)| = 1.83 -> the k = 256 point.
  expect_rel(dgemm_rate(1000, 1000, 200, mp), 3e9);
  // |ln(40/32)| = 0.22 < |ln(40/256)| = 1.86 -> the k = 32 point.
  expect_rel(dgemm_rate(1000, 1000, 40, mp), 2e9);
}

TEST(DgemmRate, FallsBackToTopOrThrows) {
  MachineParams mp = synthetic();
  expect_rel(dgemm_rate(10, 10, 10, mp), 1e9);
  mp.t_op = 0;
  EXPECT_THROW(dgemm_rate(10, 10, 10, mp), std::invalid_argument);
}

TEST(RefinedDgemm, FlopsOverRateTimesThreads) {
  // 2 * 100 * 200 * 300 = 1.2e7 flops at 1e9 flop/s on 2 threads = 0.006 s.
  expect_rel(refined_dgemm_time(100, 200, 300, 2, synthetic()), 0.006);
  EXPECT_EQ(refined_dgemm_time(0, 200, 300, 1, synthetic()), 0.0);
}

TEST(ThreadSpeedup, IdealWithoutAMeasurementMeasuredEfficiencyWithOne) {
  MachineParams mp = synthetic();
  EXPECT_EQ(thread_speedup(0, mp), 1.0);
  EXPECT_EQ(thread_speedup(1, mp), 1.0);
  EXPECT_EQ(thread_speedup(4, mp), 4.0);  // no measurement: ideal, as before
  // The header's example: E = 0.9 measured at T = 2.
  mp.thread_efficiency = 0.9;
  mp.thread_efficiency_threads = 2;
  EXPECT_DOUBLE_EQ(thread_speedup(1, mp), 1.0);
  EXPECT_DOUBLE_EQ(thread_speedup(2, mp), 1.8);
  EXPECT_DOUBLE_EQ(thread_speedup(4, mp), 3.6);
  // Measured at T = 8: linear in between, 1 + (0.6 - 1) * 3 / 7 at t = 4.
  mp.thread_efficiency = 0.6;
  mp.thread_efficiency_threads = 8;
  EXPECT_DOUBLE_EQ(thread_speedup(4, mp), 4 * (1 - 0.4 * 3.0 / 7.0));
  // A measurement at one thread says nothing about scaling: ideal.
  mp.thread_efficiency_threads = 1;
  EXPECT_EQ(thread_speedup(4, mp), 4.0);
}

TEST(ThreadSpeedup, UsedByDgemmLocalAndPdgemm) {
  MachineParams mp = synthetic();
  const double dg = refined_dgemm_time(100, 200, 300, 2, mp);
  const double loc = refined_local_time(4096, 4096, 4096, 2, LocalKernel{.levels = 1, .min_dim = 256}, mp);
  const Prediction pd = refined_pdgemm(4096, 4096, 4096, 1, 2, 64, 256, 2, mp);
  mp.thread_efficiency = 0.8;
  mp.thread_efficiency_threads = 2;
  expect_rel(refined_dgemm_time(100, 200, 300, 2, mp), dg / 0.8);
  expect_rel(refined_local_time(4096, 4096, 4096, 2, LocalKernel{.levels = 1, .min_dim = 256}, mp), loc / 0.8);
  expect_rel(refined_pdgemm(4096, 4096, 4096, 1, 2, 64, 256, 2, mp).comp_s, pd.comp_s / 0.8);
  // One thread is unaffected.
  expect_rel(refined_dgemm_time(100, 200, 300, 1, mp), 2 * dg);
}

TEST(RefinedAdd, MemoryBoundWhenBandwidthKnown) {
  MachineParams mp = synthetic();
  // Paper fallback: 1e6 elements * 1e-9 s = 1e-3 s.
  expect_rel(refined_add_time(1e6, mp), 1e-3);
  // 24 bytes per element at 12e9 B/s: 24e6 / 12e9 = 2e-3 s.
  mp.add_bytes_per_s = 12e9;
  expect_rel(refined_add_time(1e6, mp), 2e-3);
}

TEST(RefinedMessage, EagerAndRendezvousRegimes) {
  MachineParams mp = synthetic();
  // One regime: 1e-3 + 1000 / 1e6 = 2e-3 s.
  expect_rel(refined_message_time(1000, mp), 2e-3);
  mp.tau = 1.5e8;
  mp.eager_limit_bytes = 1024;
  mp.latency_eager_s = 1e-6;
  mp.tau_eager = 1e8;
  mp.latency_rendezvous_s = 5e-6;
  mp.tau_rendezvous = 2e8;
  // 100 doubles = 800 B <= 1024: 1e-6 + 100 / min(1e8, 1.5e8) = 2e-6 s.
  expect_rel(refined_message_time(100, mp), 2e-6);
  // 1000 doubles = 8000 B: 5e-6 + 1000 / min(2e8, 1.5e8) = 5e-6 + 6.6667e-6.
  expect_rel(refined_message_time(1000, mp), 5e-6 + 1000 / 1.5e8);
  EXPECT_EQ(refined_message_time(0, mp), 0.0);
}

TEST(RefinedMessage, NeedsThroughput) {
  MachineParams mp = synthetic();
  mp.tau = 0;
  EXPECT_THROW(refined_message_time(10, mp), std::invalid_argument);
}

namespace {

// Ring's overlap needs steps of several chunks (space/ring_chunks.hpp): m = n
// = k = 2048 on p = 4 gives blocks of 512 columns, 4 chunks of 128. With
// t_op = 2^-30 s a step is 2 * 512 * 512 * 2048 * 2^-30 = 1 s, and a shift of
// 2048 * 512 = 2^20 doubles takes 1e-3 + 2^20 / tau: 2.001 s at tau = 2^19.
MachineParams chunked() {
  MachineParams mp = synthetic();
  mp.t_op = 1.0 / double(1 << 30);
  mp.tau = double(1 << 19);
  return mp;
}

}  // namespace

TEST(RefinedRing, ShiftLongerThanStep) {
  // step 1 s, shift 2.001 s: total = 3 * max(1, 2.001) + 1 = 7.003: comp 4 * 1,
  // exposed comm 3 * (2.001 - 1) = 3.003.
  const Prediction r = refined_ring(2048, 2048, 2048, 4, 1, chunked());
  expect_rel(r.comp_s, 4.0);
  expect_rel(r.comm_s, 3.003);
  expect_rel(r.total(), 7.003);
}

TEST(RefinedRing, ShiftHiddenBehindStep) {
  MachineParams mp = chunked();
  mp.tau = double(1 << 22);  // shift = 1e-3 + 0.25 = 0.251 < step 1: fully hidden
  const Prediction r = refined_ring(2048, 2048, 2048, 4, 1, mp);
  EXPECT_EQ(r.comm_s, 0.0);
  expect_rel(r.total(), 4.0);
}

// The overlap tune measured (tuner/shift_overlap.hpp) decides how much of
// the shorter part is hidden. Same case as ShiftLongerThanStep: step 1,
// shift 2.001 per step, 3 steps with a shift.
//   overlap 0:   comm 3 * 2.001 = 6.003 (the plain sum: 10.003 in all);
//   overlap 0.5: comm 3 * (2.001 - 0.5 * 1) = 4.503;
//   overlap 1:   comm 3 * (2.001 - 1) = 3.003, as without the measurement.
TEST(RefinedRing, HidesTheMeasuredShareOfTheShorterPart) {
  MachineParams mp = chunked();
  mp.shift_overlap = OverlapCurve::flat(0);
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).comm_s, 6.003);
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).total(), 10.003);
  mp.shift_overlap = OverlapCurve::flat(0.5);
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).comm_s, 4.503);
  mp.shift_overlap = OverlapCurve::flat(1);
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).comm_s, 3.003);
  // A shift shorter than the step (0.251 < 1) with nothing hidden:
  // 3 * 0.251 exposed.
  mp.tau = double(1 << 22);
  mp.shift_overlap = OverlapCurve::flat(0);
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).comm_s, 3 * 0.251);
}

// The fraction is the one measured at the shift's own size. Same case:
// each shift is 2048 x 512 doubles = 8 MiB. Measured 0.5 at 4 MiB and 0 at
// 16 MiB: 8 MiB lies halfway in log(bytes), so 0.25 is hidden:
// comm 3 * (2.001 - 0.25 * 1) = 5.253. The same curve with 0 at 8 MiB
// itself hides nothing (6.003), and points all below the shift's size
// give the largest one's fraction.
TEST(RefinedRing, HidesTheShareMeasuredAtTheShiftsSize) {
  MachineParams mp = chunked();
  mp.shift_overlap = OverlapCurve({{4 << 20, 0.5}, {16 << 20, 0.0}});
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).comm_s, 5.253);
  mp.shift_overlap = OverlapCurve({{4 << 20, 0.5}, {8 << 20, 0.0}, {16 << 20, 0.0}});
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).comm_s, 6.003);
  mp.shift_overlap = OverlapCurve({{1 << 20, 0.0}, {4 << 20, 0.5}});
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).comm_s, 4.503);
}

// --ring-chunks: a cap of 1 multiplies each step whole, hiding nothing of
// the shift (no MPI call while it multiplies), and `auto` takes it where
// the model prices it lower. Same case (p = 4, 512-wide blocks, shift
// 2.001 s), with a DGEMM profile where 128 columns run at 0.8 of 512's
// rate: a 4-chunk step costs 1 / 0.8 = 1.25 s, a whole one 1 s.
//   nothing hidden (overlap 0): 4 chunks 3 * (1.25 + 2.001) + 1 = 10.753 s,
//     1 chunk 3 * (1 + 2.001) + 1 = 10.003 s -> auto: 1;
//   all of the shorter hidden (overlap 1): 4 chunks 3 * 2.001 + 1 = 7.003 s
//     -> auto: up to 4 (0);
//   no overlap measured -> the model hides all, as with overlap 1: 0.
TEST(RefinedRing, OneChunkWhereChunksHideNothing) {
  MachineParams mp = chunked();
  const double rate = 1.0 / mp.t_op / 1e6;  // MFLOPS: 1 s per 512-wide step (2^30 flops)
  mp.dgemm_profile = {{512, 512, 2048, rate}, {512, 128, 2048, 0.8 * rate}};
  mp.shift_overlap = OverlapCurve::flat(0);
  const Prediction four = refined_ring(2048, 2048, 2048, 4, 1, mp);
  const Prediction one = refined_ring_chunked(2048, 2048, 2048, 4, 1, mp, {}, 1);
  expect_rel(four.total(), 10.753);
  expect_rel(one.total(), 10.003);
  expect_rel(one.comm_s, 3 * 2.001);
  EXPECT_EQ(ring_chunks_by_model(2048, 2048, 2048, 4, 1, mp, {}), 1);
  mp.shift_overlap = OverlapCurve::flat(1);
  expect_rel(refined_ring(2048, 2048, 2048, 4, 1, mp).total(), 7.003);
  EXPECT_EQ(ring_chunks_by_model(2048, 2048, 2048, 4, 1, mp, {}), 0);
  mp.shift_overlap = OverlapCurve();
  EXPECT_EQ(ring_chunks_by_model(2048, 2048, 2048, 4, 1, mp, {}), 0);
  EXPECT_EQ(ring_chunks_by_model(2048, 2048, 2048, 1, 1, mp, {}), 0);
  // The cap itself (space/ring_chunks.hpp).
  EXPECT_EQ(mmbench::space::ring_chunks(2048, false, 0, 256, 1), 1);
  EXPECT_EQ(mmbench::space::ring_chunks(2048, false, 0, 256, 2), 2);
  EXPECT_EQ(mmbench::space::ring_chunks(256, false, 0, 256, 4), 2);
}

// A step of one chunk (blocks narrower than 256 columns, or a local level
// whose cutoff exceeds half the block) makes no MPI call while it
// multiplies, and Open MPI moves a rendezvous message only inside one:
// nothing of the shift is hidden, whatever overlap tune measured.
// m = n = k = 1000 on p = 4: blocks of 250 columns, one chunk; step =
// 2 * 250 * 250 * 1000 * 1e-9 = 0.125 s, shift = 1e-3 + 250000 / 1e6 =
// 0.251 s: comm = 3 * 0.251 = 0.753 (hiding the step as with 4 chunks:
// 0.378). A shift within the eager limit moves at once and is hidden.
TEST(RefinedRing, OneChunkHidesNothingOfARendezvousShift) {
  MachineParams mp = synthetic();
  expect_rel(refined_ring(1000, 1000, 1000, 4, 1, mp).comm_s, 0.753);
  expect_rel(refined_ring(1000, 1000, 1000, 4, 1, mp).comp_s, 0.5);
  mp.eager_limit_bytes = 2000000;  // 250000 doubles = 2e6 bytes: eager
  mp.latency_eager_s = 1e-3;
  mp.tau_eager = 1e6;
  expect_rel(refined_ring(1000, 1000, 1000, 4, 1, mp).comm_s, 3 * (0.251 - 0.125));
  // A local level of cutoff 768 on blocks of 1024 columns: one chunk too
  // (the run of docs/results.md, "The namespace cluster on the Zen 5 VM").
  MachineParams lvl = synthetic();
  const LocalKernel one_level{.levels = 1, .min_dim = 768};
  const Prediction with_level = refined_ring(2048, 2048, 2048, 2, 1, lvl, one_level);
  const double shift = 1e-3 + 2048.0 * 1024 / 1e6;
  expect_rel(with_level.comm_s, shift);
}

TEST(RefinedRing, UnevenBlocksUseTheLargest) {
  // m = n = k = 10, p = 4: blocks 3, 3, 2, 2 -> step = 2 * 3 * 3 * 10 * 1e-9 = 1.8e-7;
  // shift = 1e-3 + 10 * 3 / 1e6 = 1.03e-3; one chunk: comm = 3 * 1.03e-3.
  const Prediction r = refined_ring(10, 10, 10, 4, 1, synthetic());
  expect_rel(r.comp_s, 4 * 1.8e-7);
  expect_rel(r.comm_s, 3 * 1.03e-3);
  // One rank: one DGEMM, no shift.
  const Prediction one = refined_ring(10, 10, 10, 1, 1, synthetic());
  EXPECT_EQ(one.comm_s, 0.0);
  expect_rel(one.comp_s, 2e3 * 1e-9);
}

TEST(RefinedTpmm, SwapsNotOverlapped) {
  // p = 4: swap = 1e-3 + 1000 * 250 / 1e6 = 0.251; comm 3 * 0.251 = 0.753; comp 0.5.
  const Prediction t = refined_tpmm(1000, 1000, 1000, 4, 1, synthetic());
  expect_rel(t.comm_s, 0.753);
  expect_rel(t.comp_s, 0.5);
}

TEST(RefinedPdgemm, VolumeAndLbPanels) {
  // lb at or below the cap (core/lb_in_force.hpp), where nothing but panels
  // and volume counts. (This test used lb = 100 on both grids; with the cap
  // that is above it, 62 on 2 x 2 and 32 on 1 x 4: see WiderThanTheCap.)
  // 2 x 2, lb = 50 (cap: share 500, 500 / 8 = 62 < nb -> 62):
  // comp = 2e9 / 4 * 1e-9 = 0.5;
  // volume: the owners take turns, so a process waits for its row's whole
  // panel once per tree stage (eq. 2.17): (log2 2 * 1e6 / 2 + log2 2 * 1e6
  // / 2) / 1e6 = 1.0 (what a process receives, half of that, counted 0.5
  // while the model assumed the owners' broadcasts overlap);
  // startups = ceil(1000 / 50) * (1 + 1) * 1e-3 = 0.04.
  const Prediction a = refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 50, 1, synthetic());
  expect_rel(a.comp_s, 0.5);
  expect_rel(a.comm_s, 1.04);
  // 1 x 4, lb = 32 (cap: share 250, 31 -> the floor 32): volume = log2 4 *
  // 1e6 / 1 / 1e6 = 2.0; startups ceil(1000 / 32) = 32 panels * 2 * 1e-3.
  const Prediction b = refined_pdgemm(1000, 1000, 1000, 1, 4, 64, 32, 1, synthetic());
  expect_rel(b.comm_s, 2.064);
  // One rank: no communication.
  EXPECT_EQ(refined_pdgemm(1000, 1000, 1000, 1, 1, 64, 100, 1, synthetic()).comm_s, 0.0);
  EXPECT_THROW(refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 0, 1, synthetic()), std::invalid_argument);
}

// The kernel model's fit carries the nearest point's rate to the shape
// asked: its rate there over its rate at the point.
TEST(DgemmRate, KernelFitMovesThePointsRateToTheShape) {
  MachineParams mp = synthetic();
  mp.dgemm_profile = {{1000, 1000, 1000, 4000.0}};
  expect_rel(dgemm_rate(1000, 1000, 100, mp), 4e9);  // no fit: the point's rate
  mp.dgemm_shape_fit.b_s_per_mnk = 1e-12;
  mp.dgemm_shape_fit.c_s_per_mn = 1e-9;  // writing C: thin k pays it per flop more
  // fit: 2e-3 s at the point (2e-12 s per mnk), 1.1e-3 s at k = 100
  // (1.1e-11 s per mnk): 4e9 x 2e-12 / 1.1e-11.
  expect_rel(dgemm_rate(1000, 1000, 100, mp), 4e9 * 2.0 / 11.0);
  expect_rel(dgemm_rate(1000, 1000, 1000, mp), 4e9);  // at the point itself: unchanged
  // Without a profile point there is nothing to carry: 1 / t_op.
  mp.dgemm_profile.clear();
  expect_rel(dgemm_rate(1000, 1000, 100, mp), 1e9);
}

// A core computes faster while fewer cores of its node are busy than when
// tune timed the profile (every tune rank of the node busy): the busy-core
// ladder's ratio.
TEST(BusyCores, SpeedIsTheLaddersRatio) {
  MachineParams mp = synthetic();
  EXPECT_EQ(busy_core_speed(1, mp), 1.0);  // no ladder
  mp.peak_per_core_by_busy = {100, 90, 80, 50};
  EXPECT_EQ(busy_core_speed(1, mp), 1.0);  // profiled count unknown
  mp.profiled_busy_cores = 4;
  EXPECT_DOUBLE_EQ(busy_core_speed(1, mp), 2.0);
  EXPECT_DOUBLE_EQ(busy_core_speed(2, mp), 1.8);
  EXPECT_DOUBLE_EQ(busy_core_speed(4, mp), 1.0);
  EXPECT_DOUBLE_EQ(busy_core_speed(16, mp), 1.0);  // beyond the ladder: its last entry
  EXPECT_EQ(busy_core_speed(0, mp), 1.0);          // not set: as profiled
  // DGEMM's rate follows it; the paper's t_op stays as printed.
  mp.busy_cores = 2;
  expect_rel(dgemm_rate(100, 100, 100, mp), 1.8e9);
  expect_rel(refined_dgemm_time(1000, 1000, 1000, 1, mp), 2e9 / 1.8e9);
}

// DGEMM shares caches and memory with the other busy cores, which the FMA
// ladder does not see: its extra loss s, measured between one busy core
// and the profiled count, prices a configuration on one core; other counts
// keep the ladder's ratio.
TEST(BusyCores, DgemmSharingAddsToTheLadder) {
  MachineParams mp = synthetic();
  mp.peak_per_core_by_busy = {100, 90, 80, 50};
  mp.profiled_busy_cores = 4;
  mp.dgemm_busy_sharing = 1.3;
  EXPECT_DOUBLE_EQ(busy_core_speed(1, mp), 2.0 * 1.3);
  EXPECT_DOUBLE_EQ(busy_core_speed(2, mp), 1.8);
  EXPECT_DOUBLE_EQ(busy_core_speed(4, mp), 1.0);
  EXPECT_DOUBLE_EQ(busy_core_speed(16, mp), 1.0);
  // The 2-core example of refined_model.hpp.
  mp.peak_per_core_by_busy = {56.1, 55.0};
  mp.profiled_busy_cores = 2;
  mp.dgemm_busy_sharing = (51.6 / 47.5) / (56.1 / 55.0);
  EXPECT_NEAR(busy_core_speed(1, mp), 51.6 / 47.5, 1e-12);
}

TEST(BusyCores, ConfigurationsKeepTheirRanksOrThreadsBusy) {
  MachineParams mp = synthetic();
  AlgorithmModel spread, one_node;
  one_node.one_node = true;
  EXPECT_EQ(busy_cores_of(spread, 4, 1, mp), 4);
  EXPECT_EQ(busy_cores_of(spread, 4, 2, mp), 8);
  EXPECT_EQ(busy_cores_of(one_node, 4, 2, mp), 8);  // dgemm: rank 0, p x threads threads
  mp.network.ranks_per_node = 2;                    // across nodes: its ranks of one node
  EXPECT_EQ(busy_cores_of(spread, 8, 1, mp), 2);
  EXPECT_EQ(busy_cores_of(spread, 1, 1, mp), 1);
  EXPECT_EQ(busy_cores_of(one_node, 8, 1, mp), 8);
  // refined_prediction prices the predictor's DGEMMs for those cores.
  mp = synthetic();
  mp.peak_per_core_by_busy = {100, 50};
  mp.profiled_busy_cores = 2;
  spread.refined = [](const mmbench::space::Problem&, const mmbench::space::Options&, int, const MachineParams& m) {
    return Prediction{0.0, 1.0 / dgemm_rate(1, 1, 1, m)};
  };
  expect_rel(refined_prediction(spread, {8, 8, 8}, {}, 2, mp).comp_s, 1e-9);
  expect_rel(refined_prediction(spread, {8, 8, 8}, {}, 1, mp).comp_s, 0.5e-9);
}

// PBLAS updates C in lb-wide panels only where A's k columns or B's k rows
// span two processes; otherwise it calls one DGEMM with the whole k.
TEST(RefinedPdgemm, NoPanelsWhereKDoesNotSpanTwoProcesses) {
  MachineParams mp = synthetic();
  mp.dgemm_profile = {
      {1000, 1000, 32, 2000.0}, {1000, 1000, 1000, 4000.0}, {500, 500, 32, 1000.0}, {500, 500, 64, 3000.0}};
  // 1 x 1, lb = 32: one DGEMM(1000, 1000, 1000) at 4000 MFLOPS, not 31
  // panels at the k = 32 point's 2000.
  expect_rel(refined_pdgemm(1000, 1000, 1000, 1, 1, 64, 32, 1, mp).comp_s, 2e9 / 4e9);
  // 2 x 2, k = 64 = nb: each operand's k in one block, so one DGEMM(500,
  // 500, 64) per process at 3000 MFLOPS, not panels of 32 at 1000.
  expect_rel(refined_pdgemm(1000, 1000, 64, 2, 2, 64, 32, 1, mp).comp_s, 2.0 * 1000 * 1000 * 64 / 4 / 3e9);
  // 2 x 2, k = 1000 spans both: panels of 32 at the k = 32 point's 1000.
  expect_rel(refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 32, 1, mp).comp_s, 2e9 / 4 / 1e9);
}

// One message at a time on a one-row grid has the link to itself (the
// ping-pong's one-way rate); the rows of a 2-D grid broadcast at once and
// share it (tau capped by the all-to-all rate).
TEST(RefinedPdgemm, OneRowGridAtTheOneWayRate) {
  MachineParams mp = synthetic();  // tau = 1e6: the all-to-all rate
  mp.eager_limit_bytes = 65536;
  mp.latency_eager_s = 1e-4;
  mp.tau_eager = 5e5;
  mp.latency_rendezvous_s = 2e-3;
  mp.tau_rendezvous = 2e6;  // one way, alone on the link
  // 1 x 4, lb = 32: a panel message is 1000 x 32 doubles = 256 KB, rendezvous;
  // volume = 2 * 1e6 / 2e6 = 1.0; startups = 32 * 2 * 2e-3 = 0.128.
  expect_rel(refined_pdgemm(1000, 1000, 1000, 1, 4, 64, 32, 1, mp).comm_s, 1.128);
  // 2 x 2, lb = 50: 500 x 50 doubles = 200 KB, rendezvous, rate min(2e6, 1e6);
  // volume = 1.0 as above; startups = 20 * 2 * 2e-3 = 0.08.
  expect_rel(refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 50, 1, mp).comm_s, 1.08);
}

TEST(RefinedPdgemm, WiderThanTheCapPaysItsEnds) {
  // 2 x 2, lb = 100 above the cap 62: lm = ln = 500;
  // steps = max(ceil(1000 / 100), max(2, 2)) = 10 -> startups 10 * 2 * 1e-3 = 0.02;
  // ends(x) = (2 - 1) message(500 x) + (2 - 1) message(x 500) + DGEMM(500, 500, x);
  // exposed = ends(100) - ends(62) = 2 * 500 * 38 / 1e6 + 2 * 500 * 500 * 38 * 1e-9
  //         = 0.038 + 0.019 = 0.057 (the latencies cancel);
  // comm = 1.0 (volume, VolumeAndLbPanels) + 0.02 + 0.057 = 1.077; comp unchanged 0.5.
  const Prediction a = refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 100, 1, synthetic());
  expect_rel(a.comp_s, 0.5);
  expect_rel(a.comm_s, 1.077);
  // 1 x 4, lb = 1000 (one panel for all of k) above the cap 32: lm = 1000, ln = 250;
  // steps = max(1, 4) = 4 -> 4 * (0 + 2) * 1e-3 = 0.008;
  // one row: the volume already waits for every panel and its update, so no end is
  // exposed (neither the hops, 3 * 1000 * 968 / 1e6 = 2.904, nor the update's growth,
  // 2 * 1000 * 250 * 968 * 1e-9 = 0.484, which this model priced until runs that kept
  // PBLAS's panels found lb 64 .. 1024 alike on one row);
  // comm = 2.0 + 0.008 = 2.008.
  const Prediction b = refined_pdgemm(1000, 1000, 1000, 1, 4, 64, 1000, 1, synthetic());
  expect_rel(b.comm_s, 2.008);
  // Just above the cap costs more than the cap itself, however few its startups.
  EXPECT_GT(refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 64, 1, synthetic()).total(),
            refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 62, 1, synthetic()).total());
}

TEST(RefinedPdgemm, OneRowPricesWidePanelsByStartupsAndRateAlone) {
  // 1 x 2, n = 1024, DGEMM at one rate (t_op): lb 512 (2 panels) and lb 1024 (one
  // panel, gathered from its 2 owners: 2 startups) cost the same; lb 64 pays
  // 16 - 2 = 14 startups more, 14 * log2(2) * 1e-3 = 0.014 s.
  const MachineParams mp = synthetic();
  const Prediction w512 = refined_pdgemm(1024, 1024, 1024, 1, 2, 64, 512, 1, mp);
  const Prediction w1024 = refined_pdgemm(1024, 1024, 1024, 1, 2, 64, 1024, 1, mp);
  const Prediction w64 = refined_pdgemm(1024, 1024, 1024, 1, 2, 64, 64, 1, mp);
  expect_rel(w1024.total(), w512.total());
  expect_rel(w64.total() - w512.total(), 0.014, 1e-9);
  // The same on one column.
  expect_rel(refined_pdgemm(1024, 1024, 1024, 2, 1, 64, 1024, 1, mp).total(),
             refined_pdgemm(1024, 1024, 1024, 2, 1, 64, 512, 1, mp).total());
}

TEST(RefinedPdgemm, PanelsMappedAfreshPayTheFirstTouch) {
  MachineParams mp = synthetic();
  const double flops_s = 2.0 * 8192.0 * 8192 * 8192 / 2 * 1e-9;
  // No first-touch rate measured: no price.
  expect_rel(refined_pdgemm(8192, 8192, 8192, 1, 2, 64, 1024, 1, mp).comp_s, flops_s);
  mp.first_touch_bytes_per_s = 1e9;
  // 1 x 2, n = 8192, lb 1024 (lm 8192, ln 4096): A's panel 8192 x 1024 doubles = 64 MiB
  // once per call, B's 1024 x 4096 = 32 MiB once per panel and once more (8 + 1):
  // (67108864 + 9 * 33554432) B / 1e9 B/s = 0.369098752 s.
  expect_rel(refined_pdgemm(8192, 8192, 8192, 1, 2, 64, 1024, 1, mp).comp_s, flops_s + 0.369098752);
  // lb 448 (the mapping bound there): A's 28 MiB and B's 14 MiB come from the heap.
  expect_rel(refined_pdgemm(8192, 8192, 8192, 1, 2, 64, 448, 1, mp).comp_s, flops_s);
  // 2 x 2, m 8192, n 2048, k 4096, lb 1024 (lm 4096, ln 1024): A's 32 MiB once, B's 8 MiB not.
  const double flops_2x2 = 2.0 * 8192 * 2048 * 4096 / 4 * 1e-9;
  expect_rel(refined_pdgemm(8192, 2048, 4096, 2, 2, 64, 1024, 1, mp).comp_s, flops_2x2 + 33554432 / 1e9);
  // 2 x 1, same problem (lm 4096, ln 2048): A's 32 MiB once per panel and once more (4 + 1).
  expect_rel(refined_pdgemm(8192, 2048, 4096, 2, 1, 64, 1024, 1, mp).comp_s, 2 * flops_2x2 + 5 * 33554432 / 1e9);
}

TEST(RefinedPdgemm, RateOfTheLbPanel) {
  MachineParams mp = synthetic();
  // Local block 500 x 500; panel DGEMM(500, 500, lb).
  mp.dgemm_profile = {{500, 500, 32, 1000.0}, {500, 500, 100, 4000.0}};
  // lb = 100: 2e9 / 4 / 4e9 = 0.125 s; lb = 32: 2e9 / 4 / 1e9 = 0.5 s.
  expect_rel(refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 100, 1, mp).comp_s, 0.125);
  expect_rel(refined_pdgemm(1000, 1000, 1000, 2, 2, 64, 32, 1, mp).comp_s, 0.5);
}

TEST(RefinedQ8, CountsTheSubproblemsOfEveryLevel) {
  const MachineParams mp = synthetic();
  auto dgemm_leaf = [&](double m, double n, double k, int) { return Prediction{0.0, refined_dgemm_time(m, n, k, 1, mp)}; };
  // p = 4, r = 1, n = 1000: share = 1e6 / 4 = 250000 doubles;
  // comm = 8 * (1e-3 + 0.25) = 2.008; sums = 7 * 250000 * 1e-9 = 1.75e-3;
  // leaf DGEMM(500^3) = 0.25 s, twice -> comp = 0.50175.
  const Prediction a = refined_strassen_q8(1000, 1000, 1000, 4, 1, dgemm_leaf, mp);
  expect_rel(a.comm_s, 2.008);
  expect_rel(a.comp_s, 0.50175);
  // p = 16, r = 2: 1 + 2 = 3 subproblems at the top, share 62500:
  // comm = 3 * 8 * (1e-3 + 0.0625) = 1.524 (the paper: 8 * 2 * 0.0635 = 1.016);
  // comp = 3 * 7 * 62500e-9 + 4 * DGEMM(250^3) = 1.3125e-3 + 4 * 0.03125.
  const Prediction b = refined_strassen_q8(1000, 1000, 1000, 16, 2, dgemm_leaf, mp);
  expect_rel(b.comm_s, 1.524);
  expect_rel(b.comp_s, 1.3125e-3 + 0.125);
  EXPECT_THROW(refined_strassen_q8(1000, 1000, 1000, 8, 2, dgemm_leaf, mp), std::invalid_argument);
}

TEST(RefinedQ7, ActualGroupsSumsAndTransfers) {
  const MachineParams mp = synthetic();
  // A leaf with no communication and computation m n k 1e-9 / p.
  auto leaf = [](double m, double n, double k, int p) { return Prediction{0.0, m * n * k * 1e-9 / p}; };
  // p = 7 -> groups {2, 2, 2, 1}; h = 500; leaf comp 0.125 / g.
  // T_C11 (g 2): 2 A sums + 2 B sums of 250000 / 2 = 125000 elements + 3 C
  //   sums of 125000 -> 8.75e-4 s, + 2 * 0.0625 = 0.125875.
  // T_C12 (g 2): (1 + 1 + 1) * 1.25e-4 + 2 * 0.0625 = 0.125375.
  // T_C22 (g 1): (1 + 1 + 3) * 2.5e-4 + 0.125 = 0.12625  <- the maximum.
  // (Until 2026-11-23 the model priced each task's A and B sums at half:
  // 0.126 here; the counts now come from the formula tables.)
  const Prediction q = refined_strassen_q7(1000, 1000, 1000, 7, 1, leaf, mp);
  expect_rel(q.comp_s, 0.12625);
  // Transfers: into a group of 2 from the largest (2): 1 partner,
  //   1e-3 + 125000 / 1e6 = 0.126 each; T_C11 takes 6 -> 0.756.
  // Into G22 (1 rank) from 2-rank groups: 2 partners of 125000 doubles:
  //   2 * (1e-3 + 0.125) = 0.252 each; 7 transfers -> 1.764  <- the maximum.
  expect_rel(q.comm_s, 1.764);
  EXPECT_THROW(refined_strassen_q7(1000, 1000, 1000, 3, 1, leaf, mp), std::invalid_argument);
  // r = 0 is the leaf itself.
  expect_rel(refined_strassen_q7(1000, 1000, 1000, 7, 0, leaf, mp).comp_s, 1e9 * 1e-9 / 7);
}

// ---------------------------------------------------------------- local kernel

namespace {
MachineParams with_add_bandwidth(double t_op, double add_bytes_per_s) {
  MachineParams mp = synthetic();
  mp.t_op = t_op;
  mp.add_bytes_per_s = add_bytes_per_s;
  return mp;
}
}  // namespace

// The kernel's operand sums unfused (two temporaries per level), the
// schedule these hand values were written for.
constexpr auto kUnfused = mmbench::local::FastGemmConfig::Fusion::none;

TEST(RefinedLocal, OneWinogradLevelByHand) {
  // 4096^3, one level, t_op 1e-10, 1e10 B/s.
  const MachineParams mp = with_add_bandwidth(1e-10, 1e10);
  const double h = 2048;
  // One level is the deepest: the accumulate schedule's 12 + 12 + 8 touches
  // (the two-temporary schedule of every level above it: 12 + 12 + 14).
  const double products = 7 * 2 * h * h * h * 1e-10, additions = (12 + 12 + 8) * h * h * 8 / 1e10;
  expect_rel(refined_local_time(4096, 4096, 4096, 1,
                                LocalKernel{.levels = 1, .min_dim = 256, .fusion = kUnfused, .streaming = true}, mp),
             products + additions);
  EXPECT_NEAR(products + additions, 12.13, 0.01);
  expect_rel(refined_local_time(4096, 4096, 4096, 1, LocalKernel{.levels = 0, .min_dim = 256, .streaming = true}, mp),
             refined_dgemm_time(4096, 4096, 4096, 1, mp));
  // Classic Strassen moves 15 + 15 + 17 quadrants.
  expect_rel(
      refined_local_time(
          4096, 4096, 4096, 1,
          LocalKernel{.levels = 1, .min_dim = 256, .variant = mmbench::local::FastVariant::strassen, .streaming = true},
          mp),
      products + (15 + 15 + 17) * h * h * 8 / 1e10);
  // Two threads: the parallel top level, whose passes are fused and split
  // whatever the schedule below (6 + 6 + 11 touches with streaming stores,
  // no accumulate schedule); without a measured add speedup additions scale
  // like DGEMM (ideal here).
  expect_rel(refined_local_time(4096, 4096, 4096, 2,
                                LocalKernel{.levels = 1, .min_dim = 256, .fusion = kUnfused, .streaming = true}, mp),
             (products + 23 * h * h * 8 / 1e10) / 2);
}

// The packed GEMM at the bottom: the deepest level has no additions (its
// sums are formed while packing), the levels above keep theirs.
TEST(RefinedLocal, PackedDeepestLevelHasNoAdditions) {
  const MachineParams mp = with_add_bandwidth(1e-10, 1e10);
  LocalKernel packed{.levels = 1, .min_dim = 256, .streaming = true};
  packed.gemm = mmbench::local::LeafGemm::packed;
  const double h = 2048, q = 1024;
  expect_rel(refined_local_time(4096, 4096, 4096, 1, packed, mp), 7 * 2 * h * h * h * 1e-10);
  // Two levels: the top level's fused passes (6 + 6 + 11 touches) remain.
  packed.levels = 2;
  expect_rel(refined_local_time(4096, 4096, 4096, 1, packed, mp),
             49 * 2 * q * q * q * 1e-10 + (6 + 6 + 11) * h * h * 8 / 1e10);
  // Without levels it is a plain product, priced like DGEMM.
  packed.levels = 0;
  expect_rel(refined_local_time(4096, 4096, 4096, 1, packed, mp), refined_dgemm_time(4096, 4096, 4096, 1, mp));
}

TEST(AddSpeedup, MeasuredRatioInterpolatedElseLikeDgemm) {
  MachineParams mp = synthetic();
  EXPECT_EQ(add_speedup(0, mp), 1.0);
  EXPECT_EQ(add_speedup(4, mp), 4.0);  // not measured: thread_speedup (ideal here)
  mp.thread_efficiency = 0.9;
  mp.thread_efficiency_threads = 2;
  EXPECT_DOUBLE_EQ(add_speedup(2, mp), 1.8);  // not measured: DGEMM's
  // The header's example: S = 1.4 measured at T = 2.
  mp.add_thread_speedup = 1.4;
  mp.add_thread_speedup_threads = 2;
  EXPECT_EQ(add_speedup(1, mp), 1.0);
  EXPECT_DOUBLE_EQ(add_speedup(2, mp), 1.4);
  EXPECT_DOUBLE_EQ(add_speedup(4, mp), 1.4);  // no more bandwidth beyond the measured cores
  // Measured at T = 8: linear in between, 1 + 0.4 * 3 / 7 at t = 4.
  mp.add_thread_speedup_threads = 8;
  EXPECT_DOUBLE_EQ(add_speedup(4, mp), 1 + 0.4 * 3.0 / 7.0);
  // A measurement at one thread says nothing: DGEMM's again.
  mp.add_thread_speedup_threads = 1;
  EXPECT_DOUBLE_EQ(add_speedup(2, mp), 1.8);
}

TEST(RefinedLocal, ThreadsSpeedUpLeavesAndAdditionsApart) {
  // 4096^3, two levels on 2 threads, t_op 1e-10, 1e10 B/s; DGEMM scales by
  // 1.8 (efficiency 0.9), additions by 1.2 (measured).
  MachineParams mp = with_add_bandwidth(1e-10, 1e10);
  mp.thread_efficiency = 0.9;
  mp.thread_efficiency_threads = 2;
  mp.add_thread_speedup = 1.2;
  mp.add_thread_speedup_threads = 2;
  const double h = 2048, q = 1024;
  const double leaves = 49 * 2 * q * q * q * 1e-10;
  // Every level's passes share the memory bus: the 7 sequential levels
  // below the top (the deepest, 6 + 6 + 8 on 1024^2 quadrants) and the
  // parallel top (6 + 6 + 11 on 2048^2).
  const double additions = 7 * 20 * q * q * 8 / 1e10 + 23 * h * h * 8 / 1e10;
  expect_rel(refined_local_time(4096, 4096, 4096, 2, LocalKernel{.levels = 2, .min_dim = 256, .streaming = true}, mp),
             leaves / 1.8 + additions / 1.2);
  // Classic Strassen's parallel top: five sums from four quadrants per side,
  // 9 lines each streamed (6.75 touches), and the 11-touch combination;
  // below it the sequential level's 15 + 15 + 17.
  const double strassen_additions = 7 * 47 * q * q * 8 / 1e10 + (6.75 + 6.75 + 11) * h * h * 8 / 1e10;
  expect_rel(
      refined_local_time(
          4096, 4096, 4096, 2,
          LocalKernel{.levels = 2, .min_dim = 256, .variant = mmbench::local::FastVariant::strassen, .streaming = true},
          mp),
      leaves / 1.8 + strassen_additions / 1.2);
  // Ordinary stores at the parallel top: 9 + 9 + 11.
  using F = mmbench::local::FastGemmConfig::Fusion;
  const double cached = 7 * 47 * q * q * 8 / 1e10 + (9 + 9 + 11) * h * h * 8 / 1e10;
  expect_rel(refined_local_time(4096, 4096, 4096, 2,
                                LocalKernel{.levels = 2,
                                            .min_dim = 256,
                                            .variant = mmbench::local::FastVariant::strassen,
                                            .fusion = F::all,
                                            .streaming = false},
                                mp),
             leaves / 1.8 + cached / 1.2);
}

// The model prices the value the option rows set (local_of): one fused level
// moves 8 + 8 + 8 quadrants with cached stores (the default) and 6 + 6 + 8
// with --local-stores streaming.
TEST(RefinedLocal, PricesTheKernelValueTheRunSets) {
  const MachineParams mp = with_add_bandwidth(1e-10, 1e10);
  mmbench::local::LocalKernelSpec spec;
  spec.levels = 1;
  const double h = 2048, products = 7 * 2 * h * h * h * 1e-10;
  EXPECT_FALSE(spec.streaming_stores);
  EXPECT_FALSE(LocalKernel{}.streaming);
  expect_rel(refined_local_time(4096, 4096, 4096, 1, local_of(spec), mp), products + (8 + 8 + 8) * h * h * 8 / 1e10);
  spec.streaming_stores = true;
  expect_rel(refined_local_time(4096, 4096, 4096, 1, local_of(spec), mp), products + (6 + 6 + 8) * h * h * 8 / 1e10);
  spec.variant = mmbench::local::FastVariant::strassen;
  EXPECT_FALSE(local_of(spec).winograd());
  spec.gemm = mmbench::local::LeafGemm::packed;
  EXPECT_TRUE(local_of(spec).packed());
}

TEST(RefinedLocal, FusedOperandSumsByHand) {
  // The header's example with streaming stores (operand sums fused at every
  // level, the default): the deepest level touches 8 + 8 + 8
  // quadrants, its operand passes priced as 6 + 6 (8 lines moved each, at
  // the calibration pass's 4 lines per 3 touches).
  using F = mmbench::local::FastGemmConfig::Fusion;
  const MachineParams mp = with_add_bandwidth(1e-10, 1e10);
  const double h = 2048;
  const double products = 7 * 2 * h * h * h * 1e-10, additions = (6 + 6 + 8) * h * h * 8 / 1e10;
  expect_rel(refined_local_time(4096, 4096, 4096, 1, LocalKernel{.levels = 1, .min_dim = 256, .streaming = true}, mp),
             products + additions);
  EXPECT_NEAR(products + additions, 12.10, 0.01);
  // Ordinary stores: 8 + 8 + 8.
  expect_rel(refined_local_time(4096, 4096, 4096, 1,
                                LocalKernel{.levels = 1, .min_dim = 256, .fusion = F::all, .streaming = false}, mp),
             products + 24 * h * h * 8 / 1e10);
  // Two levels on 4096 (cut-off 256): the top level fused but not the
  // deepest, 6 + 6 + 11; the 7 deepest on 1024^2 quadrants 6 + 6 + 8.
  const double q = 1024;
  const double two = 49 * 2 * q * q * q * 1e-10 + 7 * 20 * q * q * 8 / 1e10 + 23 * h * h * 8 / 1e10;
  expect_rel(refined_local_time(4096, 4096, 4096, 1, LocalKernel{.levels = 2, .min_dim = 256, .streaming = true}, mp),
             two);
  // Only the deepest fused: the top level back to 12 + 12 + 14 (its
  // two-temporary passes are not operand passes: streaming does not apply).
  const double deepest_only = 49 * 2 * q * q * q * 1e-10 + 7 * 20 * q * q * 8 / 1e10 + 38 * h * h * 8 / 1e10;
  expect_rel(refined_local_time(4096, 4096, 4096, 1,
                                LocalKernel{.levels = 2, .min_dim = 256, .fusion = F::deepest, .streaming = true}, mp),
             deepest_only);
}

TEST(RefinedLocal, LevelsStopAtTheCutoff) {
  const MachineParams mp = with_add_bandwidth(1e-10, 1e10);
  // 3000 -> 1500 (< 1024? no: a second level) -> 750 (< 1024: DGEMM).
  const double q = 750, h = 1500;
  // The deepest level (7 of them on 750^2 quadrants) touches 12 + 12 + 8,
  // the top level 12 + 12 + 14.
  const double two = 49 * 2 * q * q * q * 1e-10 + 7 * 32 * q * q * 8 / 1e10 + 38 * h * h * 8 / 1e10;
  expect_rel(refined_local_time(3000, 3000, 3000, 1, LocalKernel{.levels = 3, .min_dim = 1024, .fusion = kUnfused}, mp),
             two);
  // Below the cut-off at the top: plain DGEMM whatever L says.
  expect_rel(refined_local_time(1000, 3000, 3000, 1, LocalKernel{.levels = 3, .min_dim = 1024}, mp),
             refined_dgemm_time(1000, 3000, 3000, 1, mp));
}

TEST(RefinedLocal, RingAndTpmmPriceTheirBlocksWithTheKernel) {
  const MachineParams mp = with_add_bandwidth(1e-10, 1e10);
  const LocalKernel lk{.levels = 2, .min_dim = 256};
  // p = 2: blocks of 2048 x 2048 x 4096 for tpMM; ring multiplies its
  // first step in 4 chunks of 512 columns (ring_chunks: >= the 256 cut-off,
  // so both levels still apply) and its last step whole.
  const double step = refined_local_time(2048, 2048, 4096, 1, lk, mp);
  const double chunk = refined_local_time(2048, 512, 4096, 1, lk, mp);
  expect_rel(refined_ring(4096, 4096, 4096, 2, 1, mp, lk).comp_s, 4 * chunk + step);
  expect_rel(refined_tpmm(4096, 4096, 4096, 2, 1, mp, lk).comp_s, 2 * step);
  EXPECT_LT(chunk, refined_dgemm_time(2048, 512, 4096, 1, mp));
  EXPECT_LT(step, refined_dgemm_time(2048, 2048, 4096, 1, mp));
}

// Ring's chunks never fall below the local kernel's cut-off (ring_chunks):
// p = 16, n = 4096, L = 1: 256-wide blocks stay whole, so the level applies
// at every step (the SimGrid study found the code cutting them to 128).
TEST(RefinedRing, ChunksKeepTheLocalLevels) {
  EXPECT_EQ(mmbench::space::ring_chunks(256, false, 0, 256), 2);
  EXPECT_EQ(mmbench::space::ring_chunks(256, false, 1, 256), 1);
  EXPECT_EQ(mmbench::space::ring_chunks(2048, false, 0, 256), 4);
  EXPECT_EQ(mmbench::space::ring_chunks(2048, true, 0, 256), 1);
  const MachineParams mp = with_add_bandwidth(1e-10, 1e10);
  const LocalKernel lk{.levels = 1, .min_dim = 256};
  const double block = refined_local_time(256, 256, 4096, 1, lk, mp);
  EXPECT_LT(block, refined_dgemm_time(256, 256, 4096, 1, mp));
  expect_rel(refined_ring(4096, 4096, 4096, 16, 1, mp, lk).comp_s, 16 * block);
}

// ---------------------------------------------------------------- Q7 split choice

namespace {
// Computation only: no latency, a network and additions so fast they only
// break exact ties by rounding.
MachineParams compute_only() {
  MachineParams mp;
  mp.latency_s = 0;
  mp.tau = 1e30;
  mp.t_op = 1e-9;
  mp.add_bytes_per_s = 1e30;
  return mp;
}
LeafModel ring_leaf(const MachineParams& mp) {
  return [&mp](double m, double n, double k, int q) { return refined_ring(m, n, k, q, 1, mp); };
}
}  // namespace

TEST(RefinedQ7Split, ModelKeepsThePaperSplitWhereTheyTie) {
  const MachineParams mp = compute_only();
  // p a multiple of 7: 2p/7, 2p/7, 2p/7, p/7 balances the 2, 2, 2, 1
  // products exactly; n = 8400 keeps the blocks near-even.
  for (int p : {7, 14, 21, 28, 49, 56, 70}) {
    mmbench::space::Q7SplitTable table;
    const Prediction chosen = refined_strassen_q7(8400, 8400, 8400, p, 1, ring_leaf(mp), mp, {nullptr, &table});
    const Prediction paper = refined_strassen_q7(8400, 8400, 8400, p, 1, ring_leaf(mp), mp);
    ASSERT_EQ(table.size(), 1u) << p;
    EXPECT_EQ(table.at({1, p}), mmbench::space::q7_group_sizes(p)) << "p = " << p;
    EXPECT_DOUBLE_EQ(chosen.total(), paper.total());
  }
  // An exact tie between different splits: p = 8, paper 2/2/2/2 (max of
  // 2 products / 2 ranks and 1 / 2) against e.g. 3/2/2/1 (2/2 and 1/1):
  // both 1 product per rank on the slowest group. Ties keep the paper.
  mmbench::space::Q7SplitTable table;
  refined_strassen_q7(8400, 8400, 8400, 8, 1, ring_leaf(mp), mp, {nullptr, &table});
  EXPECT_EQ(table.at({1, 8}), (std::array<int, 4>{2, 2, 2, 2}));
}

TEST(RefinedQ7Split, ModelBeatsThePaperWhereItsRoundingHurts) {
  // Opteron-like network and additions: at p = 64 the paper gives
  // 18/18/18/10, but T_C11 also does the most additions and receives the
  // most quadrants; the model may move a rank there.
  MachineParams mp;
  mp.latency_s = 17e-6;
  mp.tau = 146e6 / 8;
  mp.t_op = 1.0 / 3300e6;
  mp.add_bytes_per_s = 2e9;
  for (int p : {64, 96, 128}) {
    mmbench::space::Q7SplitTable table;
    const Prediction chosen = refined_strassen_q7(8192, 8192, 8192, p, 1, ring_leaf(mp), mp, {nullptr, &table});
    const Prediction paper = refined_strassen_q7(8192, 8192, 8192, p, 1, ring_leaf(mp), mp);
    const auto split = table.at({1, p});
    EXPECT_EQ(split[0] + split[1] + split[2] + split[3], p);
    EXPECT_LE(chosen.total(), paper.total()) << p;
    // Pricing the chosen table again gives the same prediction (the run
    // prices exactly what it ran).
    const Prediction again = refined_strassen_q7(8192, 8192, 8192, p, 1, ring_leaf(mp), mp, {&table, nullptr});
    EXPECT_DOUBLE_EQ(again.total(), chosen.total());
    if (split != mmbench::space::q7_group_sizes(p)) {
      EXPECT_LT(chosen.total(), paper.total() * (1 - 1e-9)) << p;
    }
  }
  // Two levels: every group the recursion meets gets an entry, each with
  // >= 4 ranks where it splits again.
  mmbench::space::Q7SplitTable table;
  refined_strassen_q7(8192, 8192, 8192, 64, 2, ring_leaf(mp), mp, {nullptr, &table});
  EXPECT_TRUE(table.count({2, 64}));
  for (const auto& [key, g] : table) {
    EXPECT_EQ(g[0] + g[1] + g[2] + g[3], key.second);
    if (key.first == 2) {
      for (int s : g) EXPECT_GE(s, 4);
    }
  }
}
