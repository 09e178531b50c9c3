// How much of a transfer moves while the ranks compute, from tune's overlap
// step (tuner/shift_overlap.hpp) -- profile key "shift_overlap",
// docs/machine-profile.md. One point per transfer size; the refined model of
// ring hides the fraction at a shift's size (read between the points,
// model/overlap_curve.hpp) of each step's shorter part (shift or DGEMM)
// behind the longer one; without the key (older profiles, one rank) it
// hides all of it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mmbench::profile {

struct ShiftOverlapPoint {
  std::int64_t bytes = 0;  // each way
  double exchange_s = 0, compute_s = 0, both_s = 0;
  double fraction = 1;  // in [0, 1]
  int rounds = 0;       // the medians' rounds (0: not recorded, profiles before it was)
};

struct ShiftOverlapRecord {
  bool measured = false;  // false: not measured (the key is left out)
  int partner = 0;        // rank 0 and this rank exchanged
  bool across_nodes = false;
  std::vector<ShiftOverlapPoint> points;  // ascending bytes; one in profiles written before the sizes
};

// One line for tune's output, e.g. "0.28 at 4 MiB, 0.27 at 16 MiB, 0.00 at
// 64 MiB each way hidden behind DGEMM chunks with MPI_Testall between them
// (ranks 0 and 1, two nodes)".
std::string describe(const ShiftOverlapRecord& record);

nlohmann::ordered_json shift_overlap_to_json(const ShiftOverlapRecord& record);
// Reads both forms: {"partner", "across_nodes", "points": [...]} and the
// one-size record of older profiles ({"fraction", "bytes", ...} at the top).
// Throws ProfileError(origin, "field 'shift_overlap.…' …") on a malformed record.
ShiftOverlapRecord shift_overlap_from_json(const nlohmann::ordered_json& j, const std::string& origin);

}  // namespace mmbench::profile
