#include "core/stats/timing.hpp"

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

double time_max_over_ranks(const Comm& comm, const std::function<void()>& f, bool takes_part) {
  // A rank that sits out may arrive long before the workers (they were
  // still generating their data): it waits idle here too.
  comm.idle_barrier(!takes_part);
  double t = 0;
  if (takes_part) {
    const double t0 = MPI_Wtime();
    f();
    t = MPI_Wtime() - t0;
  }
  comm.idle_barrier(!takes_part);
  return comm.max(t);
}

void run_taking_part(const Comm& comm, const std::function<void()>& f, bool takes_part) {
  if (takes_part) f();
  comm.idle_barrier(!takes_part);
}

}  // namespace mmbench
