#include "model/overlap_curve.hpp"

#include <algorithm>
#include <cmath>

namespace mmbench::model {

OverlapCurve::OverlapCurve(std::vector<OverlapPoint> points) {
  for (const OverlapPoint& p : points)
    if (p.bytes > 0) points_.push_back({p.bytes, std::clamp(p.fraction, 0.0, 1.0)});
  std::sort(points_.begin(), points_.end(),
            [](const OverlapPoint& a, const OverlapPoint& b) { return a.bytes < b.bytes; });
}

double OverlapCurve::at(double bytes) const {
  if (points_.empty()) return 1.0;
  if (bytes <= points_.front().bytes) return points_.front().fraction;
  if (bytes >= points_.back().bytes) return points_.back().fraction;
  const auto hi = std::upper_bound(points_.begin(), points_.end(), bytes,
                                   [](double b, const OverlapPoint& p) { return b < p.bytes; });
  const auto lo = hi - 1;
  const double t = std::log(bytes / lo->bytes) / std::log(hi->bytes / lo->bytes);
  return lo->fraction + t * (hi->fraction - lo->fraction);
}

}  // namespace mmbench::model
