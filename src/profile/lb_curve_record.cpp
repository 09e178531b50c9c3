#include "profile/lb_curve_record.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

#include "profile/group_reader.hpp"

namespace mmbench::profile {

using json = nlohmann::ordered_json;

LbCurve curve_of(const LbCurveRecord& r, std::int64_t rule_lb) {
  LbCurve c;
  for (const LbCurvePointRecord& p : r.points) {
    if (c.count == LbCurve::kMaxPoints) break;
    c.points[static_cast<std::size_t>(c.count++)] = {p.share, p.lb};
  }
  if (!r.empty()) c.ceiling = std::max(kLbCurveGrowth * r.points.back().lb, rule_lb);
  return c;
}

void write_lb_curve_record(const LbCurveRecord& r, json& profile) {
  if (r.empty()) return;
  json points = json::array();
  for (const LbCurvePointRecord& p : r.points)
    points.push_back({{"n", p.n}, {"share", p.share}, {"lb", p.lb}, {"rounds", p.rounds}});
  profile["lb_curve"] = {{"points", std::move(points)}};
}

LbCurveRecord read_lb_curve_record(const json& profile, const std::string& origin) {
  LbCurveRecord out;
  const auto group = profile.find("lb_curve");
  if (group == profile.end()) return out;
  const GroupReader r(origin);
  if (!group->is_object()) r.fail(std::string("field 'lb_curve' must be an object, got ") + group->type_name());
  constexpr std::int64_t kMax = std::numeric_limits<int>::max();
  const json& points = r.field(*group, "lb_curve.points", "points");
  if (!points.is_array() || points.empty() || points.size() > LbCurve::kMaxPoints)
    r.fail("field 'lb_curve.points' must be an array of 1 to " + std::to_string(LbCurve::kMaxPoints) + " points");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string at = "lb_curve.points[" + std::to_string(i) + "]";
    const json& p = points[i];
    if (!p.is_object()) r.fail("field '" + at + "' must be an object, got " + p.type_name());
    LbCurvePointRecord pt;
    pt.n = r.integer(p, at + ".n", "n", 1, std::numeric_limits<std::int64_t>::max());
    pt.share = r.integer(p, at + ".share", "share", 1, std::numeric_limits<std::int64_t>::max());
    pt.lb = r.integer(p, at + ".lb", "lb", 1, kMax);
    pt.rounds = static_cast<int>(r.integer(p, at + ".rounds", "rounds", 1, kMax));
    if (!out.points.empty() && pt.share <= out.points.back().share)
      r.fail("field '" + at + ".share' = " + std::to_string(pt.share) + " must be larger than the previous point's " +
             std::to_string(out.points.back().share));
    out.points.push_back(pt);
  }
  return out;
}

}  // namespace mmbench::profile
