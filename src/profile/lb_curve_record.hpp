// The machine profile's "lb_curve" group: the lb PDGEMM ran fastest with at
// each problem size tune's lb check timed, as a function of a process's
// share of k (core/lb_in_force.hpp LbCurve, lb_on_curve). In the file
// (docs/machine-profile.md):
//
//   "lb_curve": {"points": [{"n": 1024, "share": 512, "lb": 256, "rounds": 28},
//                           {"n": 2048, "share": 1024, "lb": 512, "rounds": 14},
//                           {"n": 4096, "share": 2048, "lb": 512, "rounds": 7}]}
//
// share = n / max(pr, pc) of the tuning grid; points ascending in share.
// The file holds what was measured; how the curve goes on past its largest
// point (the ceiling) is decided here, in curve_of, for every profile.
// Profiles written before the group existed have none: their tuned lb is
// held to lb_panels panels per share instead (LbCap::tuned). A "ceiling"
// key written by the first version of the group is ignored.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/lb_in_force.hpp"

namespace mmbench::profile {

struct LbCurvePointRecord {
  std::int64_t n = 0;      // PDGEMM n x n x n the check timed
  std::int64_t share = 0;  // n / max(pr, pc)
  std::int64_t lb = 0;     // the check's best at that size
  int rounds = 0;          // its interleaved rounds
};

struct LbCurveRecord {
  std::vector<LbCurvePointRecord> points;  // ascending share; empty: no curve
  bool empty() const { return points.empty(); }
};

// Past the largest size measured the curve keeps that size's panels per
// share for at most this factor of its lb: one doubling. Why not the DGEMM
// rule's plateau alone: on the Zen 1 VM, tuned at n = 4096 (best 256 there,
// rule 244), lb 256 ran 1.14x the time of 512 at n = 8192 -- past the
// largest size, fewer panel steps still paid where DGEMM had long reached
// its plateau. Why not without a bound: each doubling of lb doubles the
// panels PBLAS broadcasts and buffers, on evidence from one size.
inline constexpr std::int64_t kLbCurveGrowth = 2;

// The curve every PDGEMM follows (empty where the record is): its points,
// and the ceiling max(kLbCurveGrowth x the largest point's lb, rule_lb),
// rule_lb being the profile's DGEMM plateau lb (eq. 2.26).
// Example: points ... (2048, 256), rule 244 -> ceiling 512.
LbCurve curve_of(const LbCurveRecord& record, std::int64_t rule_lb);

// Adds "lb_curve" to a profile's JSON object unless the record is empty.
void write_lb_curve_record(const LbCurveRecord& record, nlohmann::ordered_json& profile);
// Reads "lb_curve": empty when absent. Throws ProfileError(origin, ...)
// naming the field ("lb_curve.points[1].share") when it is malformed: not 1
// to LbCurve::kMaxPoints points, shares not strictly ascending, a value < 1.
LbCurveRecord read_lb_curve_record(const nlohmann::ordered_json& profile, const std::string& origin);

}  // namespace mmbench::profile
