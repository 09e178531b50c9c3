#include "tuner/add_bandwidth.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/machine/affinity.hpp"
#include "core/machine/heap_policy.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::tuner {

namespace {

// Out of line so the compiler cannot fold the timed loop into anything else.
[[gnu::noinline]] void add(const double* a, const double* b, double* c, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) c[i] = a[i] + b[i];
}

// c = a + b split into `threads` contiguous parts added at once: part t is
// [count·t/T, count·(t+1)/T). Example count = 10, T = 3: [0, 3), [3, 6), [6, 10).
void add_split(const double* a, const double* b, double* c, std::size_t count, int threads) {
  auto begin = [&](int t) { return count * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads); };
  std::vector<std::jthread> helpers;  // joined on scope exit
  helpers.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t)
    helpers.emplace_back([=] { add(a + begin(t), b + begin(t), c + begin(t), begin(t + 1) - begin(t)); });
  add(a, b, c, begin(1));
}

}  // namespace

AddBandwidth measure_add_bandwidth(std::int64_t n, int reps, int warmup, MPI_Comm comm, int threads) {
  if (n < 1 || n > (std::int64_t{1} << 20)) {
    throw std::invalid_argument("add bandwidth: n = " + std::to_string(n) + " is outside [1, 2^20]");
  }
  if (reps < 1) throw std::invalid_argument("add bandwidth: reps = " + std::to_string(reps) + " must be >= 1");
  if (warmup < 0) {
    throw std::invalid_argument("add bandwidth: warmup = " + std::to_string(warmup) + " must be >= 0");
  }
  const Comm all = Comm::view(comm);
  const bool root = all.rank() == 0;
  threads = static_cast<int>(all.max(static_cast<long long>(root ? std::max(threads, 1) : 0)));  // rank 0 decides
  if (threads >= 2) record_node_cpus(all);  // the cores rank 0 may widen its affinity to

  const auto count = static_cast<std::size_t>(n * n);
  // Filled here so that every page is touched before the additions are
  // timed; the filling itself is the first touch, timed on every rank at once.
  // Free heap memory goes back first, so that the pages are fresh even where
  // the heap keeps what it frees (core/machine/heap_policy.hpp).
  heap_policy::release_free_memory();
  all.barrier();
  const double t_touch = MPI_Wtime();
  std::vector<double> a(count, 1.0), b(count, 2.0), c(count, 0.0);
  const double first_touch = all.max(MPI_Wtime() - t_touch);

  auto single = [&] { return time_max_over_ranks(all, [&] { add(a.data(), b.data(), c.data(), count); }); };
  // Rank 0 widens its affinity for the call (the others keep theirs: a
  // scope of 1 thread never widens); they sleep while it adds.
  auto threaded = [&] {
    const ScopedWideAffinity wide(root ? threads : 1);
    return time_max_over_ranks(all, [&] { add_split(a.data(), b.data(), c.data(), count, threads); }, root);
  };

  for (int w = 0; w < warmup; ++w) {
    single();
    if (threads >= 2) threaded();
  }
  std::vector<double> t_single, t_threaded;
  constexpr std::uint64_t kSeed = 0x6164640000000000ULL;  // "add"
  for (int r = 0; r < reps; ++r) {
    if (threads < 2) {
      t_single.push_back(single());
      continue;
    }
    for (std::size_t which : round_order(2, kSeed, r)) {
      if (which == 0)
        t_single.push_back(single());
      else
        t_threaded.push_back(threaded());
    }
  }
  if (c[count / 2] != 3.0) throw std::logic_error("add bandwidth: C = A + B computed a wrong value");

  const double bytes = 24.0 * static_cast<double>(count);
  AddBandwidth result;
  result.n = n;
  result.reps = reps;
  const Stats st = summarize(t_single);
  result.t_median = st.median;
  result.t_min = st.min;
  result.bytes_per_s = bytes / result.t_median;
  if (first_touch > 0) result.first_touch_bytes_per_s = bytes / first_touch;
  if (threads >= 2) {
    result.threads = threads;
    result.threaded_t_median = summarize(t_threaded).median;
    result.threaded_bytes_per_s = bytes / result.threaded_t_median;
  }
  return result;
}

}  // namespace mmbench::tuner
