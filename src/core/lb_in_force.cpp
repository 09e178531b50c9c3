#include "core/lb_in_force.hpp"

#include <algorithm>
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

int lb_in_force(std::int64_t requested, LbCap cap, std::int64_t k, int pr, int pc, int nb) {
  if (requested <= 0) return kScalapackDefaultLb;
  const std::int64_t lb = cap.panels > 0 ? std::min(requested, lb_cap(k, pr, pc, nb, cap.panels)) : requested;
  return static_cast<int>(std::min<std::int64_t>(lb, std::numeric_limits<int>::max()));
}

}  // namespace mmbench
