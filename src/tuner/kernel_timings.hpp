// The timings behind the kernel model (core/kernel_time_model.hpp): DGEMM
// over the shapes mmbench's algorithms issue, and the elementwise passes
// (addition, contiguous copy, pack) over a range of sizes, on one BLAS
// thread per rank with every rank timing at once (the conditions of a
// simulated rank: each computes while the others do), in interleaved
// rounds so that drift in the machine's speed spreads over every shape
// instead of biasing the ones timed last.
//
// Every call is timed alone: a barrier, then each rank times its own call;
// a call's time is its slowest rank's (a synchronous algorithm's step waits
// for it), so one round of S shapes gives S samples, the same on any number
// of ranks, and the noise is that of the slowest rank. The model holds for
// as many busy ranks as it was measured on (KernelTimeModel::ranks).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tuner/kernel_model_fit.hpp"

namespace mmbench::tuner {

// The size the step is measured at for a tuning size n: n clamped to
// [128, 2048] (larger shapes take seconds each; the flop term the large
// products depend on is set by the shapes near 2048 already).
std::int64_t kernel_model_size(std::int64_t n);

// One DGEMM shape and where in the algorithms it comes from.
struct KernelShape {
  std::int64_t m = 0, n = 0, k = 0;
  std::string what;  // e.g. "square N/2 (leaf of one local Strassen level)"
};

// The DGEMM shapes for size N = kernel_model_size(n), dimensions below 8
// left out, duplicates once:
//   squares N, N/2, N/4, N/8       local Strassen leaves at L = 0..3
//   (N/p, N/p, N), p = 2, 4, 8     a ring / tpMM step on p ranks
//   (N/2, N/8, N)                  one of a ring step's column chunks
//   (N, N, N/2)                    a 2.5D layer's share of k (c = 2)
//   (N/2, N/2, 32), (N/2, N/2, 128), (N, N/2, 64)   PDGEMM panel updates (thin k = lb)
//   (N, 32, N), (32, N, N)         thin n, thin m
// Example N = 2048: 14 shapes, about 27 GFLOP per round.
std::vector<KernelShape> kernel_model_shapes(std::int64_t n);

// The call each DGEMM shape is timed with: C += A B (beta = 1), A m × k,
// B k × n, C m × n, each with its rows as leading dimension. PBLAS updates
// C so with each panel; with beta = 0 OpenBLAS first zeroes C in a pass of
// its own, a cost the size of C: a large share of a thin-k update's time
// and a small one of a deep product's, so a fit to beta = 0 timings priced
// PDGEMM's narrow panels too high (docs/results.md, "The kernel model's
// thin panels").
void kernel_model_dgemm(std::int64_t m, std::int64_t n, std::int64_t k, const double* a, const double* b, double* c);

// The side lengths s of the passes (s × s elements; a pack copies the top
// s/2 rows of an s × s block): N/8, N/4, N/2, 3N/4, N, at least 8.
std::vector<std::int64_t> kernel_model_pass_sizes(std::int64_t n);

// Every timed call, its slowest rank's time; filled on rank 0 only (the
// other ranks' vectors stay empty).
struct KernelTimings {
  std::int64_t size = 0;  // N
  int rounds = 0, ranks = 0;
  std::vector<DgemmSample> dgemm;
  std::vector<PassSample> add, copy, pack;
};

// Collective over comm: `warmup` untimed rounds, then `rounds` timed ones,
// each in the order round_order(items, seed, round). The caller's BLAS
// thread count is restored. Allocates three N × N matrices per rank
// (N = 2048: 96 MiB). progress gets one line per round on rank 0 (may be
// empty). Throws std::invalid_argument for n < 1, rounds < 1, warmup < 0;
// MpiError on an MPI failure.
KernelTimings time_kernels(std::int64_t n, int rounds, int warmup, MPI_Comm comm,
                           const std::function<void(const std::string&)>& progress);

// The model from the timings (rank 0's): tuner/kernel_model_fit.hpp on each
// kind. Throws std::invalid_argument where a fit cannot be made (too few
// shapes); a fit without a positive flop or byte term leaves measured false.
KernelTimeModel fit_kernel_model(const KernelTimings& timings);

// The kernel model's raw timings, one row per timed call: kind (dgemm, add,
// copy, pack), the DGEMM's shape or the pass's bytes, the time and the
// model's price of it (docs/csv-columns.md, "Kernel model timings").
std::string kernel_model_csv(const KernelTimings& t, const KernelTimeModel& model);

}  // namespace mmbench::tuner
