#include "profile/lb_record.hpp"

#include <nlohmann/json.hpp>

#include <limits>

#include "profile/group_reader.hpp"

namespace mmbench::profile {

LbRecord read_lb_record(const nlohmann::ordered_json& profile, const std::string& origin) {
  const GroupReader r(origin);
  constexpr std::int64_t kMax = std::numeric_limits<int>::max();
  LbRecord out;
  out.lb = r.integer(profile, "lb", "lb", 1, kMax);
  // Before the PDGEMM check existed, lb was the rule's.
  out.rule_lb = profile.contains("rule_lb") ? r.integer(profile, "rule_lb", "rule_lb", 1, kMax) : out.lb;
  // Before tune timed PDGEMM past the cap, every profile kept 8 panels.
  if (profile.contains("lb_panels")) out.panels = static_cast<int>(r.integer(profile, "lb_panels", "lb_panels", 1, 64));
  out.curve = read_lb_curve_record(profile, origin);
  return out;
}

LbCap cap_of(const LbRecord& record) {
  if (record.curve.empty()) return LbCap::tuned(record.panels);
  return LbCap::measured(curve_of(record.curve, record.rule_lb), record.panels);
}

}  // namespace mmbench::profile
