#include "tuner/dgemm_profile.hpp"

#include <cblas.h>

#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/mpi/mpi_check.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::tuner {

namespace {

void check_dim(std::int64_t v, const char* name) {
  if (v < 1 || v > INT_MAX) {
    throw std::invalid_argument(std::string("DGEMM profile: ") + name + " = " + std::to_string(v) +
                                " is outside [1, " + std::to_string(INT_MAX) + "]");
  }
}

// Values in [-0.5, 0.5) from a per-rank seeded LCG: deterministic, no
// denormals, no special structure a BLAS could exploit.
void fill(std::vector<double>& v, std::uint64_t seed) {
  std::uint64_t s = seed;
  for (double& x : v) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<double>(s >> 11) / 9007199254740992.0 - 0.5;
  }
}

std::int64_t median_count(const std::vector<double>& values) {
  return static_cast<std::int64_t>(std::llround(summarize(values).median));
}

}  // namespace

DgemmProfiler::DgemmProfiler(std::int64_t m, std::int64_t n, std::int64_t kmax, int reps,
                             int warmup, MPI_Comm comm)
    : m_(m), n_(n), kmax_(kmax), reps_(reps), warmup_(warmup), comm_(comm) {
  check_dim(m, "m");
  check_dim(n, "n");
  check_dim(kmax, "kmax");
  if (reps < 1) throw std::invalid_argument("DGEMM profile: reps = " + std::to_string(reps) + " must be >= 1");
  if (warmup < 0) {
    throw std::invalid_argument("DGEMM profile: warmup = " + std::to_string(warmup) + " must be >= 0");
  }
  int rank = 0;
  MMBENCH_MPI(MPI_Comm_rank(comm_, &rank));
  a_.resize(static_cast<std::size_t>(m * kmax));
  b_.resize(static_cast<std::size_t>(kmax * n));
  c_.resize(static_cast<std::size_t>(m * n));
  fill(a_, 3 * static_cast<std::uint64_t>(rank) + 1);
  fill(b_, 3 * static_cast<std::uint64_t>(rank) + 2);
  fill(c_, 3 * static_cast<std::uint64_t>(rank) + 3);
}

DgemmTiming DgemmProfiler::measure(std::int64_t k) {
  if (k < 1 || k > kmax_) {
    throw std::invalid_argument("DGEMM profile: k = " + std::to_string(k) + " is outside [1, " +
                                std::to_string(kmax_) + "]");
  }
  const int m = static_cast<int>(m_), n = static_cast<int>(n_), kk = static_cast<int>(k);
  // C += A B with A m x k (lda = m) and B k x n (ldb = k), the shape of
  // PDGEMM's local update with panel width k.
  auto dgemm = [&] {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, kk, 1.0, a_.data(), m, b_.data(),
                kk, 1.0, c_.data(), m);
  };

  for (int w = 0; w < warmup_; ++w) dgemm();
  std::vector<double> times(static_cast<std::size_t>(reps_));
  std::vector<double> cycles, misses;
  for (int r = 0; r < reps_; ++r) {
    MMBENCH_MPI(MPI_Barrier(comm_));
    counters_.start();
    const double t0 = MPI_Wtime();
    dgemm();
    times[static_cast<std::size_t>(r)] = MPI_Wtime() - t0;
    const CounterValues v = counters_.stop();
    if (counters_.available()) {
      cycles.push_back(static_cast<double>(v.total_cycles));
      misses.push_back(static_cast<double>(v.l2_misses));
    }
  }
  MMBENCH_MPI(MPI_Allreduce(MPI_IN_PLACE, times.data(), reps_, MPI_DOUBLE, MPI_MAX, comm_));

  DgemmTiming t;
  t.m = m_;
  t.n = n_;
  t.k = k;
  t.reps = reps_;
  const Stats st = summarize(times);
  t.t_median = st.median;
  t.t_min = st.min;
  const double flops = 2.0 * static_cast<double>(m_) * static_cast<double>(n_) * static_cast<double>(k);
  t.mflops = flops / t.t_median / 1e6;
  t.mflops_max = flops / t.t_min / 1e6;
  if (counters_.available()) {
    t.has_counters = true;
    t.papi_tot_cyc = median_count(cycles);
    t.papi_l2_tcm = median_count(misses);
  }
  return t;
}

}  // namespace mmbench::tuner
