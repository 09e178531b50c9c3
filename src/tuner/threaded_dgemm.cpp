#include "tuner/threaded_dgemm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/machine/affinity.hpp"
#include "core/machine/blas.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/generate.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::tuner {

std::int64_t threaded_dgemm_size(std::int64_t n) { return std::clamp<std::int64_t>(n, 1024, 2048); }

ThreadedDgemm measure_threaded_dgemm(std::int64_t n, int threads, int rounds, int warmup, MPI_Comm comm_handle) {
  if (n < 1 || threads < 1 || rounds < 1 || warmup < 0) {
    throw std::invalid_argument(fmt::format(
        "threaded DGEMM: n = {}, threads = {}, rounds = {}, warmup = {}: needs n, threads, rounds >= 1, warmup >= 0",
        static_cast<long long>(n), threads, rounds, warmup));
  }
  const Comm comm = Comm::view(comm_handle);
  const bool root = comm.rank() == 0;
  record_node_cpus(comm);  // the cores rank 0 may widen its affinity to
  // Rank 0's node decides.
  threads = static_cast<int>(comm.max(static_cast<long long>(root ? threads : 0)));

  const std::size_t size = static_cast<std::size_t>(n * n);
  std::vector<double> a(size), b(size), c(size, 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      a[static_cast<std::size_t>(i + j * n)] = matrix_entry(i, j, 11);
      b[static_cast<std::size_t>(i + j * n)] = matrix_entry(i, j, 12);
    }
  auto multiply = [&] { dgemm(n, n, n, a.data(), n, b.data(), n, 0.0, c.data(), n); };

  // One BLAS thread for the whole stretch, restored also when a call throws;
  // the threaded call widens it for itself only.
  const ScopedBlasThreads one(1);
  auto single = [&] { return time_max_over_ranks(comm, multiply); };
  auto threaded = [&] {
    double t = 0.0;
    {
      // mpirun may have bound rank 0 to one core: spread its threads over
      // the cores of the node's ranks for this call only (a scope of 1 thread
      // on the others never widens). The others sleep while rank 0 computes.
      const ScopedWideAffinity wide(root ? threads : 1);
      const ScopedBlasThreads many(root ? threads : 1);
      t = time_max_over_ranks(comm, multiply, root);
    }
    // Let rank 0's BLAS workers stop spinning before anything else is timed.
    let_blas_workers_stop_spinning();
    return t;
  };

  for (int w = 0; w < warmup; ++w) {
    single();
    threaded();
  }
  std::vector<double> t_single, t_threaded;
  constexpr std::uint64_t kSeed = 0x7468726561647300ULL;  // "threads"
  for (int r = 0; r < rounds; ++r)
    for (std::size_t which : round_order(2, kSeed, r)) {
      if (which == 0)
        t_single.push_back(single());
      else
        t_threaded.push_back(threaded());
    }

  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  ThreadedDgemm out;
  out.n = n;
  out.threads = threads;
  out.rounds = rounds;
  out.single_mflops = flops / summarize(t_single).median / 1e6;
  out.threaded_mflops = flops / summarize(t_threaded).median / 1e6;
  return out;
}

profile::CoreLayoutRecord core_layout_of(const ThreadedDgemm& m, int ranks) {
  using profile::CoreLayout;
  profile::CoreLayoutRecord r;
  if (m.threads < 2 || ranks < 1 || !(m.single_mflops > 0) || !(m.threaded_mflops > 0)) return r;
  r.measured = true;
  r.n = m.n;
  r.ranks = ranks;
  r.threads = m.threads;
  r.ranks_mflops = m.single_mflops * ranks;
  r.threads_mflops = m.threaded_mflops;
  r.better = r.threads_per_core() > r.ranks_per_core() ? CoreLayout::threads : CoreLayout::rank_per_core;
  return r;
}

}  // namespace mmbench::tuner
