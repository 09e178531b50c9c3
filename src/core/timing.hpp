// Timing of collective operations and repetition statistics (docs/method.md §5).
#pragma once

#include <functional>
#include <vector>

#include "core/comm.hpp"

namespace mmbench {

struct Stats {
  double min = 0, median = 0, max = 0;
};

// min / median / max of the samples (median of an even count: mean of the
// two middle values). Throws on an empty vector.
Stats summarize(std::vector<double> samples);

// Barrier, time f() on every rank, return the maximum over ranks: a
// parallel multiplication is done when its slowest rank is.
double time_max_over_ranks(const Comm& comm, const std::function<void()>& f);

}  // namespace mmbench
