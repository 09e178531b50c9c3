#include "tuner/network_levels_record.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "tuner/machine_profile.hpp"

namespace mmbench::tuner {

namespace {

using json = nlohmann::ordered_json;

const json& object(const json& j, const char* key, const std::string& origin) {
  if (!j.contains(key) || !j.at(key).is_object())
    throw ProfileError(origin, std::string("field 'network_levels.") + key + "' must be an object");
  return j.at(key);
}

// A finite number >= 0 of group `at` ("intra_node." or "").
double read(const json& j, const std::string& at, const char* key, const std::string& origin) {
  const std::string name = "network_levels." + at + key;
  if (!j.contains(key)) throw ProfileError(origin, "field '" + name + "' is missing");
  const json& v = j.at(key);
  if (!v.is_number()) throw ProfileError(origin, "field '" + name + "' must be a number, got " + v.type_name());
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < 0)
    throw ProfileError(origin, "field '" + name + "' must be a finite number >= 0, got " + fmt::format("{}", d));
  return d;
}

int read_int(const json& j, const char* key, int min, const std::string& origin) {
  const std::string name = std::string("network_levels.") + key;
  if (!j.contains(key)) throw ProfileError(origin, "field '" + name + "' is missing");
  const json& v = j.at(key);
  if (!v.is_number_integer() || v.get<long long>() < min || v.get<long long>() > std::numeric_limits<int>::max())
    throw ProfileError(origin, "field '" + name + "' must be an integer >= " + std::to_string(min) + ", got " + v.dump());
  return static_cast<int>(v.get<long long>());
}

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
  NetworkLevelsRecord r;
  r.present = true;
  model::TwoLevelNetwork& l = r.levels;
  l.ranks_per_node = read_int(j, "ranks_per_node", 1, origin);
  r.nodes = read_int(j, "nodes", 0, origin);
  const json& in = object(j, "intra_node", origin);
  l.intra.latency_s = read(in, "intra_node.", "latency_s", origin);
  l.intra.tau = read(in, "intra_node.", "tau_doubles_per_s", origin);
  l.intra_tau_concurrent = read(in, "intra_node.", "tau_concurrent_doubles_per_s", origin);
  const json& out = object(j, "inter_node", origin);
  l.inter.latency_s = read(out, "inter_node.", "latency_s", origin);
  l.inter.tau = read(out, "inter_node.", "tau_doubles_per_s", origin);
  l.node_link_tau = read(out, "inter_node.", "node_link_doubles_per_s", origin);
  l.backbone_tau = read(out, "inter_node.", "backbone_doubles_per_s", origin);
  if (j.contains("source")) {
    if (!j.at("source").is_string()) throw ProfileError(origin, "field 'network_levels.source' must be a string");
    r.source = j.at("source").get<std::string>();
  }
  return r;
}

std::string describe(const model::TwoLevelNetwork& l) {
  return fmt::format("{} ranks per node; inside a node {:.3g} us, {} ({} at once); between nodes {:.3g} us, {}, "
                     "node link {}, backbone {}",
                     l.ranks_per_node, l.intra.latency_s * 1e6, rate_text(l.intra.tau, "?"),
                     rate_text(l.intra_tau_concurrent > 0 ? l.intra_tau_concurrent : l.intra.tau, "?"),
                     l.inter.latency_s * 1e6, rate_text(l.inter.tau, "?"), rate_text(l.node_link_tau, "unlimited"),
                     rate_text(l.backbone_tau, "unlimited"));
}

}  // namespace mmbench::tuner
