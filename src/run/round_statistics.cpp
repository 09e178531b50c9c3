#include "run/round_statistics.hpp"

#include <algorithm>
#include <stdexcept>

namespace mmbench::run {

MedianInterval paired_speed_ratio(const std::vector<double>& t_ref, const std::vector<double>& t_x) {
  std::vector<double> ratios;
  for (std::size_t r = 0; r < std::min(t_ref.size(), t_x.size()); ++r)
    if (t_ref[r] > 0 && t_x[r] > 0) ratios.push_back(t_ref[r] / t_x[r]);
  if (ratios.empty()) throw std::invalid_argument("paired_speed_ratio: no round has both times");
  return median_interval(std::move(ratios));
}

std::optional<std::size_t> reference_for_stopping(const std::vector<std::vector<double>>& times,
                                                  std::optional<std::size_t> peer) {
  if (peer && *peer < times.size() && !times[*peer].empty()) return peer;
  std::optional<std::size_t> best;
  double t_best = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (times[i].empty()) continue;
    const double t = median_interval(times[i]).median;
    if (!best || t < t_best) {
      best = i;
      t_best = t;
    }
  }
  return best;
}

bool precise_enough(const std::vector<std::vector<double>>& times, std::optional<std::size_t> peer, double precision,
                    int min_rounds) {
  const auto ref = reference_for_stopping(times, peer);
  if (!ref) return true;  // nothing measured: nothing to refine
  const auto measured = std::count_if(times.begin(), times.end(), [](const auto& t) { return !t.empty(); });
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (times[i].empty()) continue;  // not applicable or failed
    if (static_cast<int>(times[i].size()) < min_rounds) return false;
    if (i == *ref && measured > 1) continue;  // its ratio to itself is 1 in every round
    const MedianInterval m = i == *ref ? median_interval(times[i]) : paired_speed_ratio(times[*ref], times[i]);
    // Below 95 % coverage the interval is not yet the one we promise.
    if (m.coverage < 0.95 || m.relative_half_width() > precision) return false;
  }
  return true;
}

}  // namespace mmbench::run
