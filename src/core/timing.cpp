#include "core/timing.hpp"

#include <mpi.h>

#include <algorithm>
#include <stdexcept>

namespace mmbench {

Stats summarize(std::vector<double> s) {
  if (s.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(s.begin(), s.end());
  std::size_t n = s.size();
  double med = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  return Stats{s.front(), med, s.back()};
}

double time_max_over_ranks(const Comm& comm, const std::function<void()>& f) {
  comm.barrier();
  double t0 = MPI_Wtime();
  f();
  double t = MPI_Wtime() - t0;
  return comm.max(t);
}

}  // namespace mmbench
