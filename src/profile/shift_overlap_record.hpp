// How much of a transfer moves while the ranks compute, from tune's overlap
// step (tuner/shift_overlap.hpp) -- profile key "shift_overlap",
// docs/machine-profile.md. The refined model of ring hides this fraction of
// each step's shorter part (shift or DGEMM) behind the longer one; without
// the key (older profiles, one rank) it hides all of it, as before.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace mmbench::profile {

struct ShiftOverlapRecord {
  bool measured = false;  // false: not measured (the key is left out)
  int partner = 0;        // rank 0 and this rank exchanged
  bool across_nodes = false;
  std::int64_t bytes = 0;  // each way
  double exchange_s = 0, compute_s = 0, both_s = 0;
  double fraction = 1;  // in [0, 1]
};

// One line for tune's output, e.g. "0.04 of a transfer hidden behind DGEMM
// chunks (ranks 0 and 1, two nodes: 4 MiB each way 0.045 s, chunks 0.044 s,
// both 0.087 s)".
std::string describe(const ShiftOverlapRecord& record);

nlohmann::ordered_json shift_overlap_to_json(const ShiftOverlapRecord& record);
// Throws ProfileError(origin, "field 'shift_overlap.…' …") on a malformed record.
ShiftOverlapRecord shift_overlap_from_json(const nlohmann::ordered_json& j, const std::string& origin);

}  // namespace mmbench::profile
