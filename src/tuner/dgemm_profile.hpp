// Timing one point of the DGEMM profile (docs/method.md §8.1): the rate of
// DGEMM(m_local, n_local, k), C += A B, as PDGEMM runs it on every rank.
//
// Every rank of the communicator runs the same DGEMM on its own matrices at
// the same time, because inside PDGEMM all cores multiply at once and share
// the memory bandwidth and caches; a profile taken on one idle-neighbour
// core would be too optimistic. A repetition lasts as long as its slowest
// rank (PDGEMM waits for it at the next broadcast), so each repetition's
// time is the maximum over ranks (MPI_Allreduce MAX); the point's time is
// the median over repetitions. Every rank ends up with the same numbers,
// which lets the caller take data-dependent decisions (the lb rule) on all
// ranks in lockstep. The tuner builds it with reps = 1: each call is one
// pass of measure_in_passes (lb_rule.hpp), the median is over the passes.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tuner/papi_counters.hpp"

namespace mmbench::tuner {

struct DgemmTiming {
  std::int64_t m = 0, n = 0, k = 0;
  int reps = 0;
  double t_median = 0;    // seconds, median over reps of the max over ranks
  double t_min = 0;       // seconds, best repetition
  double mflops = 0;      // 2 m n k / t_median / 1e6 (rate of one rank)
  double mflops_max = 0;  // 2 m n k / t_min / 1e6
  bool has_counters = false;
  std::int64_t papi_tot_cyc = 0;  // rank 0, median over reps (when has_counters)
  std::int64_t papi_l2_tcm = 0;
};

class DgemmProfiler {
 public:
  // Collective over comm. Allocates A (m x kmax), B (kmax x n) and C (m x n)
  // on every rank, column-major, filled with deterministic values. A profile
  // point for k uses the leading m x k of A and B as a k x n matrix, both
  // contiguous. Throws std::invalid_argument for m, n, kmax < 1 or > INT_MAX
  // (the BLAS index type), reps < 1 or warmup < 0.
  DgemmProfiler(std::int64_t m, std::int64_t n, std::int64_t kmax, int reps, int warmup,
                MPI_Comm comm);

  // Collective: warmup untimed calls, then reps timed calls, each started
  // together on all ranks (barrier). Throws std::invalid_argument for k
  // outside [1, kmax]; MpiError on an MPI failure.
  DgemmTiming measure(std::int64_t k);

  // Hardware counters: whether they count, and if not, why (to be printed
  // once by the caller). Rank 0's view.
  bool counters_available() const { return counters_.available(); }
  const std::string& counters_message() const { return counters_.message(); }

 private:
  std::int64_t m_, n_, kmax_;
  int reps_, warmup_;
  MPI_Comm comm_;
  std::vector<double> a_, b_, c_;
  PapiCounters counters_;
};

}  // namespace mmbench::tuner
