// The machine parameters the cost models are written in (docs/method.md §1, §7).
//
// Units are the thesis' own: latency in seconds, throughput tau in doubles
// per second (so a message of s doubles costs latency + s / tau), t_op in
// seconds per floating-point operation. The refined model adds measured
// values that the paper model does not know about; a value of 0 means
// "not measured", and the refined model then falls back to the paper's.
#pragma once

#include <cstdint>
#include <vector>

#include "core/kernel_time_model.hpp"
#include "model/overlap_curve.hpp"
#include "model/two_level_network.hpp"

namespace mmbench::model {

// One point of the measured DGEMM profile: rate of DGEMM(m, n, k).
struct DgemmPoint {
  std::int64_t m = 0, n = 0, k = 0;
  double mflops = 0;
};

struct MachineParams {
  // Paper model (Tab. 2.5): one latency, one throughput, one flop time.
  double latency_s = 0;       // lambda
  double tau = 0;             // doubles per second
  double t_op = 0;            // seconds per flop (1 / DGEMM flop rate)

  // Refined model (0 / empty = not measured).
  double latency_eager_s = 0;          // small messages
  double latency_rendezvous_s = 0;     // above the eager limit
  double tau_eager = 0;                // doubles per second, small messages
  double tau_rendezvous = 0;           // doubles per second, large messages
  std::int64_t eager_limit_bytes = 0;  // where the two regimes meet
  double add_bytes_per_s = 0;          // memory bandwidth of C = A + B (24 bytes per element)
  double first_touch_bytes_per_s = 0;  // fresh memory allocated and written once, per rank, all at once
  double t_op_pdgemm_default = 0;      // flop time of PDGEMM with lb = 32, if measured
  std::vector<DgemmPoint> dgemm_profile;  // measured DGEMM rates at several shapes
  // The kernel model's DGEMM fit (core/kernel_time_model.hpp; tune's kernel
  // model step): how DGEMM's rate changes with the shape, which carries a
  // profile point's rate to a shape the profile did not time (a local
  // Strassen leaf, a ring step at another p). Not fitted: the nearest
  // point's rate as it is.
  DgemmTimeFit dgemm_shape_fit;
  // Parallel efficiency of multi-thread DGEMM: with thread_efficiency_threads
  // (>= 2) BLAS threads DGEMM ran at thread_efficiency x threads x the
  // single-thread rate. 0 = not measured: ideal scaling (refined_model.hpp,
  // thread_speedup).
  double thread_efficiency = 0;
  int thread_efficiency_threads = 0;
  // How much faster add_threads threads (one rank, the others idle) run a
  // matrix addition than add_bytes_per_s: memory-bound, so less than
  // threads. 0 = not measured: additions scale like DGEMM (thread_speedup),
  // as before the measurement existed (refined_model.hpp, add_speedup).
  double add_thread_speedup = 0;
  int add_thread_speedup_threads = 0;
  // The packed GEMM's rate over DGEMM's, both on one thread at one size in
  // the same rounds (tune's packed step, the best blocking). 0 = not
  // measured: packed products are priced at DGEMM's rate.
  double packed_speed = 0;
  // One Strassen–Winograd level fused into the packed GEMM over DGEMM on the
  // level's whole product, both on one thread at one size in the same rounds
  // (tune's packed step, profile::PackedLevel::packed_vs_dgemm): what a
  // fused level costs, its seven products with their operand sums and
  // their two destinations each, not seven plain products. 0 = not
  // measured: the fused level is priced as seven products at packed_speed.
  double packed_level_speed = 0;
  // The fraction of a transfer that moves while the ranks compute between
  // MPI_Testall calls, by the transfer's size (tuner/shift_overlap.hpp,
  // model/overlap_curve.hpp): ring hides this much of each step's shorter
  // part behind the longer one. Not measured: all of it.
  OverlapCurve shift_overlap;
  // Busy cores: a core computes slower while the others of its node compute
  // too (shared power and frequency, caches, memory). tune timed the DGEMM
  // profile and the kernel model with profiled_busy_cores cores of a node
  // busy (every tune rank of the node at once); peak_per_core_by_busy[c - 1]
  // is the FMA loop's rate per core with c cores busy (tune's busy-core
  // ladder, profile/peak_record.hpp). A configuration that keeps busy_cores
  // cores of a node busy computes peak(busy_cores) / peak(profiled) times
  // the profiled rate (refined_model.hpp, busy_core_speed). Empty, 0: not
  // known, the profiled rate as it is.
  std::vector<double> peak_per_core_by_busy;
  int profiled_busy_cores = 0;
  // What DGEMM loses to the other busy cores beyond what the FMA loop
  // loses: the FMA loop keeps only a core's registers busy, DGEMM also
  // shares the caches and the memory bus. s = (DGEMM alone / DGEMM per core
  // with profiled_busy_cores busy) / (peak(1) / peak(profiled)), from tune's
  // two DGEMM timings (profile/machine_profile.cpp, to_params); 1: not
  // measured, or no more than the FMA loop's loss. busy_core_speed applies
  // it to a configuration with one busy core.
  double dgemm_busy_sharing = 1;
  int busy_cores = 0;  // of the configuration priced (algorithm_models.hpp, refined_prediction); 0: as profiled
  // The two-level network (model/two_level_network.hpp); ranks_per_node 0,
  // or levels that do not differ: one level, priced as above.
  TwoLevelNetwork network;
};

}  // namespace mmbench::model
