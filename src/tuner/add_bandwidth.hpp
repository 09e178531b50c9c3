// Memory bandwidth of a matrix addition C = A + B (docs/method.md §7.6, §8.3).
//
// Strassen's algorithm trades one multiplication for up to 18 additions per
// level, and an addition is memory-bound: it moves 24 bytes (read a, read b,
// write c) per flop where DGEMM reuses each byte many times. Pricing an
// addition with DGEMM's t_op underestimates it ~50 times, so the refined
// model prices it as bytes / bandwidth with the bandwidth measured here.
//
// Every rank adds its own n x n matrices at the same time (like the
// additions inside a parallel Strassen level, which share the memory bus),
// a repetition lasts as long as its slowest rank (max over ranks), and the
// result is the median over repetitions. The 24 bytes per element are the
// model's count; caches with write-allocate really move 32 (c is read before
// it is written), so the figure is the *effective* rate of an addition.
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
};

// Collective over comm. Allocates 3 n^2 doubles per rank (n = 2048: 96 MiB).
// Throws std::invalid_argument for n < 1, reps < 1, warmup < 0; MpiError on
// an MPI failure.
AddBandwidth measure_add_bandwidth(std::int64_t n, int reps, int warmup, MPI_Comm comm);

}  // namespace mmbench::tuner
