// Memory bandwidth of a matrix addition C = A + B (docs/method.md §7.6, §8.3).
//
// Strassen's algorithm trades one multiplication for up to 18 additions per
// level, and an addition is memory-bound: it moves 24 bytes (read a, read b,
// write c) per flop where DGEMM reuses each byte many times. Pricing an
// addition with DGEMM's t_op underestimates it ~50 times, so the refined
// model prices it as bytes / bandwidth with the bandwidth measured here.
//
// Two measurements of the same n x n addition, interleaved in `reps` rounds
// in the order round_order(2, seed, round) (core/stats/paired_stats.hpp):
//  - single: every rank adds its own matrices on one thread at the same time
//    (like the additions inside a parallel Strassen level, which share the
//    memory bus); a round lasts as long as its slowest rank (max over ranks);
//  - threaded (threads >= 2 only): rank 0 alone splits the addition into
//    `threads` contiguous parts added by `threads` threads at once -- as the
//    local kernel's parallel top level splits its passes by columns --
//    while the other ranks sleep (Comm::idle_barrier), its affinity widened
//    to its node's cores for the call (core/machine/affinity.hpp).
// Before them, the buffers' first touch: every rank allocates and fills
// its three fresh n x n matrices at once (page faults and the kernel's
// zeroing included), timed on the slowest rank -- what a dispatched
// member's first call pays for its buffers (dispatch/decision.hpp).
// Results are medians over the rounds. An addition is memory-bound, so
// threads speed it up less than they speed up DGEMM (this project's VM,
// 2 cores, `tune --n 4096` on one rank: 29.9 GB/s on one thread, 50.2 GB/s
// split over two, 1.68x, where DGEMM gained 1.98x);
// the refined model prices the kernel's additions with this ratio
// (refined_model.hpp, add_speedup) instead of DGEMM's thread speedup.
// The 24 bytes per element are the model's count; caches with
// write-allocate really move 32 (c is read before it is written), so the
// figures are the *effective* rate of an addition.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace mmbench::tuner {

struct AddBandwidth {
  std::int64_t n = 0;
  int reps = 0;
  double t_median = 0;     // seconds for one n x n addition, max over ranks
  double t_min = 0;
  double bytes_per_s = 0;  // 24 n^2 / t_median, per rank
  int threads = 0;                   // rank 0's threads in the threaded measurement; 0 = not measured
  double threaded_t_median = 0;      // seconds, rank 0 alone with `threads` threads
  double threaded_bytes_per_s = 0;   // 24 n^2 / threaded_t_median
  double first_touch_bytes_per_s = 0;  // 24 n^2 / the slowest rank's time to allocate and fill them
};

// Collective over comm. Allocates 3 n^2 doubles per rank (n = 2048: 96 MiB).
// threads = rank 0's value counts; < 2 measures only the single rate.
// Throws std::invalid_argument for n < 1, reps < 1, warmup < 0; MpiError on
// an MPI failure.
AddBandwidth measure_add_bandwidth(std::int64_t n, int reps, int warmup, MPI_Comm comm, int threads = 1);

}  // namespace mmbench::tuner
