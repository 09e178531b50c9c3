// The machine profile's lb facts, read in one place: "lb" (tune's lb at its
// size), "rule_lb" (the DGEMM rule's plateau lb, eq. 2.26; absent in older
// profiles: lb), "lb_panels" (absent: kLbPanelsPerProcess) and "lb_curve"
// (profile/lb_curve_record.hpp). machine_profile.cpp reads them here, and
// so does libmmbench-lb.so, which links nothing else of mmbench: this unit
// needs nlohmann-json and the standard library only. In the file:
//
//   "lb": 256, "rule_lb": 244, "lb_panels": 8,
//   "lb_curve": {"points": [{"n": 1024, "share": 512, "lb": 256, "rounds": 28}, ...]}
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

#include "core/lb_in_force.hpp"
#include "profile/lb_curve_record.hpp"

namespace mmbench::profile {

struct LbRecord {
  std::int64_t lb = 0;               // 1 .. INT_MAX
  std::int64_t rule_lb = 0;          // 1 .. INT_MAX
  int panels = kLbPanelsPerProcess;  // 1 .. 64
  LbCurveRecord curve;               // empty: none
};

// Reads the four fields of a profile's JSON object. Throws
// ProfileError(origin, ...) naming the field ("field 'lb' is missing",
// "field 'lb_panels' must be <= 64, got 65", "field
// 'lb_curve.points[0].lb' must be >= 1, got 0").
LbRecord read_lb_record(const nlohmann::ordered_json& profile, const std::string& origin);

// How every PDGEMM follows the tuned lb: the curve's lb for its own size
// where there is a curve (curve_of, bounded by rule_lb), else lb held to
// `panels` panels per process share (core/lb_in_force.hpp).
LbCap cap_of(const LbRecord& record);

}  // namespace mmbench::profile
