// The profile's two-level network (profile key "network_levels";
// docs/machine-profile.md): how many consecutive ranks share a node, what a
// message costs inside a node and between nodes, and the two capacities
// that flows between nodes share (model/two_level_network.hpp). Optional:
// profiles without it price every message with the one-level values.
//
// Written by `tune` (tuner/network_calibration.hpp: both levels' one-flow
// values where the job spans nodes with two or more ranks on one; the
// exchange of all ranks of a node at once; the node link and the backbone
// from flows sent at once, across nodes) and by
// scripts/profile_network_from_platform.py (a SimGrid cluster's values).
// A value of 0 is "not known" for latencies and throughputs and
// "unlimited" for node_link and backbone; a section that lacks a level is
// kept and written back, and the models price one level until both are
// known.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/two_level_network.hpp"

namespace mmbench::profile {

struct NetworkLevelsRecord {
  bool present = false;           // false: the key is left out
  model::TwoLevelNetwork levels;  // job_ranks stays 0 here
  int nodes = 0;                  // nodes of the cluster described (its backbone's); 0 = not known
  std::string source;             // where each value comes from, in words
};

nlohmann::ordered_json network_levels_to_json(const NetworkLevelsRecord& record);
// Throws ProfileError(origin, "field 'network_levels.…' …") on a malformed
// record: a missing or wrongly typed field, ranks_per_node < 1, a value
// negative or not finite.
NetworkLevelsRecord network_levels_from_json(const nlohmann::ordered_json& j, const std::string& origin);

// One line for `tune` and `predict`, e.g. "2 ranks per node; inside 1 us,
// 1500 MB/s; between nodes 17 us, 600 MB/s, node link 600 MB/s, backbone
// 9344 MB/s" (MB/s = 1e6 bytes per second; "?" where not known, "unlimited"
// for a capacity of 0).
std::string describe(const model::TwoLevelNetwork& levels);

}  // namespace mmbench::profile
