// Timing of collective operations and repetition statistics (docs/method.md §5).
#pragma once

#include <functional>
#include <vector>

#include "core/mpi/comm.hpp"

namespace mmbench {

struct Stats {
  double min = 0, median = 0, max = 0;
};

// min / median / max of the samples (median of an even count: mean of the
// two middle values). Throws on an empty vector.
Stats summarize(std::vector<double> samples);

// Barrier, time f() on every rank that takes part, return the maximum over
// those ranks: a parallel multiplication is done when its slowest rank is.
//
// A rank with takes_part = false (e.g. rank 1 while the dgemm peer runs on
// rank 0) does not call f(); it waits in Comm::idle_barrier, sleeping, so
// it leaves its core to the ranks that work, and contributes no time. Its
// wake-up latency falls after the participants' clocks have stopped.
double time_max_over_ranks(const Comm& comm, const std::function<void()>& f, bool takes_part = true);

// f() on the ranks that take part, then all ranks meet; the others wait
// without burning a core (warm-up runs of a plan some ranks sit out).
void run_taking_part(const Comm& comm, const std::function<void()>& f, bool takes_part);

}  // namespace mmbench
