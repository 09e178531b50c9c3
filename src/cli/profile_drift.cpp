#include "cli/profile_drift.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/stats/timing.hpp"

namespace mmbench::cli {

namespace {

// -1: the profile is too fast (the machine slowed), +1: too slow (the
// machine sped up), 0: within the noise.
int disagreement(const PeerCheck& c, double noise) {
  if (c.predicted_s < c.lo_s / (1 + noise)) return -1;
  if (c.predicted_s > c.hi_s * (1 + noise)) return 1;
  return 0;
}

}  // namespace

ProfileDrift assess_drift(const std::vector<PeerCheck>& sizes, double noise) {
  ProfileDrift d;
  d.noise = std::max(noise, kModelPeerError);
  std::vector<double> speeds;
  int direction = 0;
  bool all = true;
  for (const PeerCheck& c : sizes) {
    if (!(c.predicted_s > 0 && c.measured_s > 0 && c.lo_s > 0 && c.hi_s >= c.lo_s)) continue;
    d.sizes.push_back(c);
    speeds.push_back(c.predicted_s / c.measured_s);
    const int dir = disagreement(c, d.noise);
    if (dir == 0 || (direction != 0 && dir != direction)) all = false;
    direction = dir;
  }
  if (speeds.empty()) return d;
  d.checked = true;
  d.stale = all;
  d.speed = summarize(speeds).median;
  return d;
}

std::string describe_drift(const ProfileDrift& d, const std::string& profile_path) {
  if (!d.stale) return "";
  std::string sizes;
  for (const PeerCheck& c : d.sizes)
    sizes += (sizes.empty() ? "" : ", ") + (c.m == c.n && c.n == c.k ? fmt::format("n = {}", c.n)
                                                                        : fmt::format("{}x{}x{}", c.m, c.n, c.k));
  return fmt::format("note: the DGEMM peer ran {:.2f}x {} than the profile {} predicts ({}; beyond the peer's interval "
                     "widened by {:.0f} %): its compute prices are stale, and predict, --algo auto "
                     "and the simulation use them; `mmbench tune --refresh --profile {}` re-measures them in a fraction of a tune's time",
                     d.speed >= 1 ? d.speed : 1 / d.speed, d.speed >= 1 ? "faster" : "slower", profile_path, sizes,
                     100 * d.noise, profile_path);
}

nlohmann::json drift_json(const ProfileDrift& d, const std::string& profile_path) {
  nlohmann::json sizes = nlohmann::json::array();
  for (const PeerCheck& c : d.sizes)
    sizes.push_back({{"m", c.m}, {"n", c.n}, {"k", c.k}, {"measured_s", c.measured_s}, {"ci_lo_s", c.lo_s},
                     {"ci_hi_s", c.hi_s}, {"predicted_s", c.predicted_s}});
  return {{"profile", profile_path}, {"stale", d.stale}, {"speed", d.speed}, {"noise", d.noise},
          {"sizes", std::move(sizes)}};
}

}  // namespace mmbench::cli
