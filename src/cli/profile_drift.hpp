// Does this machine still match its profile? Every `run` with a profile
// times the DGEMM peer beside the algorithms and the model predicts the
// peer's time from the profile: where the two disagree by more than the
// noise of both, the profile's compute prices are stale (a clock that moved,
// a neighbour that left), and predict, --algo auto, the dispatcher and the
// simulation price with an old number. The run says so in one line and
// records the comparison in its sidecar; `tune --refresh` re-measures the
// prices in a fraction of a tune's time (tuner/profile_refresh.hpp).
//
// A size disagrees when the prediction lies outside the peer's median
// interval widened on both sides by a tolerance t:
//   predicted < lo / (1 + t)  (the profile is too fast: the machine slowed)
//   predicted > hi * (1 + t)  (the profile is too slow: the machine sped up)
// t is the profile's recorded noise, but at least kModelPeerError: the
// model's own error on the peer with a fresh profile (the DGEMM rate at the
// nearest profiled shape, the threads' measured efficiency) is a few per
// cent, and a healthy machine must not be told its profile is stale for it.
// The profile is stale when every size measured disagrees, all in the same
// direction. Example: noise 0.06, peer 1.00 s [0.98, 1.03], predicted
// 1.20 s > 1.03 * 1.06 = 1.092: the machine runs 1.20x faster than the
// profile says.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmbench::cli {

struct PeerCheck {
  std::int64_t m = 0, n = 0, k = 0;
  double measured_s = 0, lo_s = 0, hi_s = 0;  // the peer's median and its interval
  double predicted_s = 0;                     // the refined model's, from the profile
};

struct ProfileDrift {
  bool checked = false;  // at least one size with a prediction
  bool stale = false;
  double speed = 1;      // median over sizes of predicted / measured (> 1: the machine is faster than its profile)
  double noise = 0;      // the tolerance t used: the profile's noise, at least kModelPeerError
  std::vector<PeerCheck> sizes;
};

// The least tolerance: the refined model's error on the DGEMM peer with a
// profile tuned where it ran is a few per cent (docs/results.md, the
// namespace clusters' dgemm rows: -1.6 to -6.3 %, most within 5 %).
inline constexpr double kModelPeerError = 0.05;

// noise: the profile's dgemm_profile_noise (0: not recorded).
ProfileDrift assess_drift(const std::vector<PeerCheck>& sizes, double noise);

// One line for the user where the profile is stale ("" where it is not):
// names the profile, the factor, the sizes and the command that refreshes it.
std::string describe_drift(const ProfileDrift& d, const std::string& profile_path);

// The sidecar's "profile_check" object.
nlohmann::json drift_json(const ProfileDrift& d, const std::string& profile_path);

}  // namespace mmbench::cli
