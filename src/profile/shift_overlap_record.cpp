#include "profile/shift_overlap_record.hpp"

#include <fmt/format.h>

#include "profile/group_reader.hpp"

namespace mmbench::profile {

namespace {

std::string size_text(std::int64_t bytes) {
  return bytes % (1 << 20) == 0 ? fmt::format("{} MiB", bytes >> 20)
                                : fmt::format("{:.3g} MiB", static_cast<double>(bytes) / (1 << 20));
}

ShiftOverlapPoint point_from_json(const nlohmann::ordered_json& j, const std::string& path, const GroupReader& g) {
  if (!j.is_object()) g.fail("field '" + path + "' must be an object, got " + j.type_name());
  ShiftOverlapPoint pt;
  pt.fraction = g.number(j, path + ".fraction", "fraction", false);
  if (pt.fraction > 1) g.fail("field '" + path + ".fraction' must be <= 1, got " + fmt::format("{}", pt.fraction));
  pt.bytes = g.integer(j, path + ".bytes", "bytes", 1, std::int64_t{1} << 40);
  pt.exchange_s = g.number(j, path + ".exchange_s", "exchange_s", true);
  pt.compute_s = g.number(j, path + ".compute_s", "compute_s", true);
  pt.both_s = g.number(j, path + ".both_s", "both_s", true);
  if (j.contains("rounds")) pt.rounds = static_cast<int>(g.integer(j, path + ".rounds", "rounds", 1, 1 << 20));
  return pt;
}

}  // namespace

std::string describe(const ShiftOverlapRecord& r) {
  if (!r.measured) return "not measured: a transfer is taken as fully hidden behind the DGEMM it overlaps";
  std::string sizes;
  for (const ShiftOverlapPoint& pt : r.points)
    sizes += fmt::format("{}{:.2f} at {}", sizes.empty() ? "" : ", ", pt.fraction, size_text(pt.bytes));
  return fmt::format(
      "{} each way hidden behind DGEMM chunks with MPI_Testall between them (ranks 0 and {}, {}; of the shorter of "
      "the exchange and the chunks)",
      sizes, r.partner, r.across_nodes ? "two nodes" : "one node");
}

nlohmann::ordered_json shift_overlap_to_json(const ShiftOverlapRecord& r) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const ShiftOverlapPoint& pt : r.points) {
    nlohmann::ordered_json j = {{"bytes", pt.bytes},
                                {"fraction", pt.fraction},
                                {"exchange_s", pt.exchange_s},
                                {"compute_s", pt.compute_s},
                                {"both_s", pt.both_s}};
    if (pt.rounds > 0) j["rounds"] = pt.rounds;
    points.push_back(std::move(j));
  }
  return {{"partner", r.partner}, {"across_nodes", r.across_nodes}, {"points", std::move(points)}};
}

ShiftOverlapRecord shift_overlap_from_json(const nlohmann::ordered_json& j, const std::string& origin) {
  const GroupReader g(origin);
  if (!j.is_object()) g.fail(std::string("field 'shift_overlap' must be an object, got ") + j.type_name());
  ShiftOverlapRecord r;
  r.measured = true;
  r.partner = static_cast<int>(g.integer(j, "shift_overlap.partner", "partner", 1, 1 << 24));
  r.across_nodes = g.boolean(j, "shift_overlap.across_nodes", "across_nodes");
  if (!j.contains("points")) {  // one size, as tune wrote it before it measured several
    r.points.push_back(point_from_json(j, "shift_overlap", g));
    return r;
  }
  const nlohmann::ordered_json& points = j.at("points");
  if (!points.is_array() || points.empty())
    g.fail("field 'shift_overlap.points' must be a non-empty array, got " + points.dump());
  for (std::size_t i = 0; i < points.size(); ++i) {
    r.points.push_back(point_from_json(points[i], fmt::format("shift_overlap.points[{}]", i), g));
    if (i > 0 && r.points[i].bytes <= r.points[i - 1].bytes)
      g.fail(fmt::format("field 'shift_overlap.points[{}].bytes' must exceed the point before it ({}), got {}", i,
                         r.points[i - 1].bytes, r.points[i].bytes));
  }
  return r;
}

}  // namespace mmbench::profile
