#include "profile/shift_overlap_record.hpp"

#include <fmt/format.h>

#include "profile/group_reader.hpp"

namespace mmbench::profile {

std::string describe(const ShiftOverlapRecord& r) {
  if (!r.measured) return "not measured: a transfer is taken as fully hidden behind the DGEMM it overlaps";
  return fmt::format(
      "{:.2f} of a transfer hidden behind DGEMM chunks with MPI_Testall between them (ranks 0 and {}, {}: {} MiB "
      "each way {:.3g} s, the chunks {:.3g} s, both {:.3g} s)",
      r.fraction, r.partner, r.across_nodes ? "two nodes" : "one node", static_cast<double>(r.bytes) / (1 << 20),
      r.exchange_s, r.compute_s, r.both_s);
}

nlohmann::ordered_json shift_overlap_to_json(const ShiftOverlapRecord& r) {
  return {{"fraction", r.fraction}, {"partner", r.partner},       {"across_nodes", r.across_nodes},
          {"bytes", r.bytes},       {"exchange_s", r.exchange_s}, {"compute_s", r.compute_s},
          {"both_s", r.both_s}};
}

ShiftOverlapRecord shift_overlap_from_json(const nlohmann::ordered_json& j, const std::string& origin) {
  const GroupReader g(origin);
  if (!j.is_object()) g.fail(std::string("field 'shift_overlap' must be an object, got ") + j.type_name());
  ShiftOverlapRecord r;
  r.measured = true;
  r.fraction = g.number(j, "shift_overlap.fraction", "fraction", false);
  if (r.fraction > 1) g.fail("field 'shift_overlap.fraction' must be <= 1, got " + fmt::format("{}", r.fraction));
  r.partner = static_cast<int>(g.integer(j, "shift_overlap.partner", "partner", 1, 1 << 24));
  r.across_nodes = g.boolean(j, "shift_overlap.across_nodes", "across_nodes");
  r.bytes = g.integer(j, "shift_overlap.bytes", "bytes", 1, std::int64_t{1} << 40);
  r.exchange_s = g.number(j, "shift_overlap.exchange_s", "exchange_s", true);
  r.compute_s = g.number(j, "shift_overlap.compute_s", "compute_s", true);
  r.both_s = g.number(j, "shift_overlap.both_s", "both_s", true);
  return r;
}

}  // namespace mmbench::profile
