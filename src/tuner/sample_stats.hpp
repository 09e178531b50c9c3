// Median and minimum of repeated timings, shared by the calibrations.
//
// The median, not the mean: one repetition disturbed by another process (a
// compile on the same two cores) moves the mean but not the median.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace mmbench::tuner {

// Median of the values; for an even count the mean of the middle two
// (e.g. {4, 1, 3, 2} -> 2.5). Throws std::invalid_argument if empty.
inline double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of an empty sample");
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 != 0 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

inline double minimum(const std::vector<double>& values) {
  if (values.empty()) throw std::invalid_argument("minimum of an empty sample");
  return *std::min_element(values.begin(), values.end());
}

}  // namespace mmbench::tuner
