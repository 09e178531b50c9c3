#include "tuner/add_bandwidth.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "core/mpi_check.hpp"
#include "core/timing.hpp"

namespace mmbench::tuner {

namespace {

// Out of line so the compiler cannot fold the timed loop into anything else.
[[gnu::noinline]] void add(const double* a, const double* b, double* c, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) c[i] = a[i] + b[i];
}

}  // namespace

AddBandwidth measure_add_bandwidth(std::int64_t n, int reps, int warmup, MPI_Comm comm) {
  if (n < 1 || n > (std::int64_t{1} << 20)) {
    throw std::invalid_argument("add bandwidth: n = " + std::to_string(n) + " is outside [1, 2^20]");
  }
  if (reps < 1) throw std::invalid_argument("add bandwidth: reps = " + std::to_string(reps) + " must be >= 1");
  if (warmup < 0) {
    throw std::invalid_argument("add bandwidth: warmup = " + std::to_string(warmup) + " must be >= 0");
  }
  const auto count = static_cast<std::size_t>(n * n);
  // Filled here so that every page is touched before the timing starts.
  std::vector<double> a(count, 1.0), b(count, 2.0), c(count, 0.0);

  for (int w = 0; w < warmup; ++w) add(a.data(), b.data(), c.data(), count);
  std::vector<double> times(static_cast<std::size_t>(reps));
  const Comm all = Comm::view(comm);
  for (int r = 0; r < reps; ++r)
    times[static_cast<std::size_t>(r)] = time_max_over_ranks(all, [&] { add(a.data(), b.data(), c.data(), count); });
  if (c[count / 2] != 3.0) throw std::logic_error("add bandwidth: C = A + B computed a wrong value");

  AddBandwidth result;
  result.n = n;
  result.reps = reps;
  const Stats st = summarize(times);
  result.t_median = st.median;
  result.t_min = st.min;
  result.bytes_per_s = 24.0 * static_cast<double>(count) / result.t_median;
  return result;
}

}  // namespace mmbench::tuner
