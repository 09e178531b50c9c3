#include "core/lb_in_force.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mmbench {

std::int64_t lb_cap(std::int64_t k, int pr, int pc, int nb, int panels) {
  const std::int64_t kk = std::max<std::int64_t>(1, k);
  const std::int64_t owners = std::max({1, pr, pc});
  const std::int64_t block = std::max(1, nb);
  const std::int64_t raw = kk / owners / std::max(1, panels);
  const std::int64_t whole_blocks = raw >= block ? raw / block * block : raw;
  return std::max<std::int64_t>(kScalapackDefaultLb, whole_blocks);
}

std::int64_t lb_on_curve(const LbCurve& c, std::int64_t k, int pr, int pc, int nb) {
  if (c.empty()) return 0;
  const int count = std::min(c.count, LbCurve::kMaxPoints);
  const std::int64_t w = std::max<std::int64_t>(1, k) / std::max({1, pr, pc});
  for (int i = 0; i < count; ++i)
    if (c.points[i].share == w) return c.points[i].lb;
  const LbPoint& first = c.points[0];
  const LbPoint& last = c.points[count - 1];
  const double x = static_cast<double>(w);
  double raw = 0;
  double floor = 1;
  if (w < first.share) {
    raw = static_cast<double>(first.lb) * x / static_cast<double>(first.share);
    floor = static_cast<double>(std::min<std::int64_t>(first.lb, kScalapackDefaultLb));
  } else if (w > last.share) {
    raw = std::min(static_cast<double>(last.lb) * x / static_cast<double>(last.share),
                   static_cast<double>(std::max(last.lb, c.ceiling)));
  } else {
    int i = 0;
    while (i + 1 < count && c.points[i + 1].share < w) ++i;
    const LbPoint& a = c.points[i];
    const LbPoint& b = c.points[i + 1];
    const double t = std::log(x / static_cast<double>(a.share)) /
                     std::log(static_cast<double>(b.share) / static_cast<double>(a.share));
    raw = std::exp(std::log(static_cast<double>(a.lb)) +
                   t * (std::log(static_cast<double>(b.lb)) - std::log(static_cast<double>(a.lb))));
  }
  const double block = std::max(1, nb);
  const double rounded = raw >= block ? std::round(raw / block) * block : std::round(raw);
  return static_cast<std::int64_t>(std::max(rounded, floor));
}

std::int64_t panel_length(std::int64_t m, std::int64_t n, int pr, int pc) {
  auto ceil_div = [](std::int64_t a, int b) {
    const std::int64_t d = std::max(1, b);
    return (std::max<std::int64_t>(0, a) + d - 1) / d;
  };
  return std::max(ceil_div(m, pr), ceil_div(n, pc));
}

namespace {

// malloc adds a header of up to 16 bytes and PBLAS may round a request up
// by an alignment; 64 KiB below the bound leaves room for either.
constexpr std::int64_t kMappingSlack = std::int64_t(64) << 10;

}  // namespace

bool mapped_afresh(double bytes) { return bytes > double(kFreshMappingBytes - kMappingSlack); }

std::int64_t lb_mapping_bound(std::int64_t length, int nb) {
  if (length <= 0) return 0;
  const std::int64_t raw = (kFreshMappingBytes - kMappingSlack) / (std::int64_t(sizeof(double)) * length);
  const std::int64_t block = std::max(1, nb);
  const std::int64_t whole_blocks = raw >= block ? raw / block * block : raw;
  return std::max<std::int64_t>(kScalapackDefaultLb, whole_blocks);
}

int lb_in_force(std::int64_t requested, LbCap cap, std::int64_t k, int pr, int pc, int nb, std::int64_t length) {
  if (requested <= 0) return kScalapackDefaultLb;
  std::int64_t lb = requested;
  if (cap.panels > 0) {
    lb = cap.curve.empty() ? std::min(requested, lb_cap(k, pr, pc, nb, cap.panels))
                           : lb_on_curve(cap.curve, k, pr, pc, nb);
    if (const std::int64_t bound = lb_mapping_bound(length, nb); bound > 0) lb = std::min(lb, bound);
  }
  return static_cast<int>(std::min<std::int64_t>(lb, std::numeric_limits<int>::max()));
}

}  // namespace mmbench
