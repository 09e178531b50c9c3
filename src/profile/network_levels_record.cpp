#include "profile/network_levels_record.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "profile/profile_error.hpp"
#include "profile/group_reader.hpp"

namespace mmbench::profile {

namespace {

using json = nlohmann::ordered_json;

std::string rate_text(double doubles_per_s, const char* zero) {
  return doubles_per_s > 0 ? fmt::format("{:.4g} MB/s", doubles_per_s * 8 / 1e6) : zero;
}

}  // namespace

json network_levels_to_json(const NetworkLevelsRecord& r) {
  const model::TwoLevelNetwork& l = r.levels;
  return {{"ranks_per_node", l.ranks_per_node},
          {"nodes", r.nodes},
          {"intra_node",
           {{"latency_s", l.intra.latency_s},
            {"tau_doubles_per_s", l.intra.tau},
            {"tau_concurrent_doubles_per_s", l.intra_tau_concurrent}}},
          {"inter_node",
           {{"latency_s", l.inter.latency_s},
            {"tau_doubles_per_s", l.inter.tau},
            {"node_link_doubles_per_s", l.node_link_tau},
            {"backbone_doubles_per_s", l.backbone_tau}}},
          {"source", r.source}};
}

NetworkLevelsRecord network_levels_from_json(const json& j, const std::string& origin) {
  if (!j.is_object()) throw ProfileError(origin, "field 'network_levels' must be an object");
  const GroupReader reader(origin);
  constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
  auto count = [&](const char* key, int min) {
    return static_cast<int>(reader.integer(j, std::string("network_levels.") + key, key, min, kIntMax));
  };
  // A number >= 0 of the level `level` ("intra_node" or "inter_node").
  auto number = [&](const json& g, const char* level, const char* key) {
    return reader.number(g, std::string("network_levels.") + level + "." + key, key, false);
  };
  NetworkLevelsRecord r;
  r.present = true;
  model::TwoLevelNetwork& l = r.levels;
  l.ranks_per_node = count("ranks_per_node", 1);
  r.nodes = count("nodes", 0);
  const json& in = reader.object(j, "network_levels.intra_node", "intra_node");
  l.intra.latency_s = number(in, "intra_node", "latency_s");
  l.intra.tau = number(in, "intra_node", "tau_doubles_per_s");
  l.intra_tau_concurrent = number(in, "intra_node", "tau_concurrent_doubles_per_s");
  const json& out = reader.object(j, "network_levels.inter_node", "inter_node");
  l.inter.latency_s = number(out, "inter_node", "latency_s");
  l.inter.tau = number(out, "inter_node", "tau_doubles_per_s");
  l.node_link_tau = number(out, "inter_node", "node_link_doubles_per_s");
  l.backbone_tau = number(out, "inter_node", "backbone_doubles_per_s");
  if (j.contains("source")) {
    if (!j.at("source").is_string()) throw ProfileError(origin, "field 'network_levels.source' must be a string");
    r.source = j.at("source").get<std::string>();
  }
  return r;
}

std::string describe(const model::TwoLevelNetwork& l) {
  return fmt::format(
      "{} ranks per node; inside a node {:.3g} us, {} ({} at once); between nodes {:.3g} us, {}, "
      "node link {}, backbone {}",
      l.ranks_per_node, l.intra.latency_s * 1e6, rate_text(l.intra.tau, "?"),
      rate_text(l.intra_tau_concurrent > 0 ? l.intra_tau_concurrent : l.intra.tau, "?"), l.inter.latency_s * 1e6,
      rate_text(l.inter.tau, "?"), rate_text(l.node_link_tau, "unlimited"), rate_text(l.backbone_tau, "unlimited"));
}

}  // namespace mmbench::profile
