// A two-level network (docs/cost-models.md, "Two-level network"): the ranks
// of a node talk through the node (shared memory, a loopback), the nodes
// through their links and a switch. Consecutive ranks share a node
// (`mpirun --map-by core`): ranks 0 .. R-1 on node 0, R .. 2R-1 on node 1.
//
// Units as in machine_params.hpp: seconds, doubles per second. A value of 0
// means "not known" for a level's latency and throughput, and "unlimited"
// for the two capacities that flows share.
#pragma once

#include <algorithm>

namespace mmbench::model {

// One level: a message of s doubles alone on it costs latency_s + s / tau.
struct NetworkLevel {
  double latency_s = 0;
  double tau = 0;  // doubles per second
  bool operator==(const NetworkLevel&) const = default;
};

struct TwoLevelNetwork {
  int ranks_per_node = 0;  // R; 0: no two-level network (one level, as before)
  NetworkLevel intra;      // two ranks of one node, one flow alone
  // Per flow while every rank of a node exchanges inside the node at once
  // (the flows share the node's memory or loopback); 0: intra.tau.
  double intra_tau_concurrent = 0;
  NetworkLevel inter;  // two ranks on two nodes, one flow alone
  // A node's link, shared by the flows leaving the node at once (and, in
  // the other direction, by those entering it); 0: unlimited.
  double node_link_tau = 0;
  // The switch, shared by every flow between nodes at once; 0: unlimited.
  double backbone_tau = 0;
  // When a model prices a part of a job (a Strassen leaf group), the ranks
  // of the whole job: its other groups run the same pattern at the same
  // time and share the backbone with it. 0: the part priced is the job.
  // Set by for_job (network_traffic.hpp), not read from a profile.
  int job_ranks = 0;

  // How many of a job's p ranks share one node: R where known (at most p),
  // else all p (one node).
  int ranks_on_a_node(int p) const { return ranks_per_node > 0 ? std::min(p, ranks_per_node) : p; }
  // Both levels known: R >= 1, latencies >= 0, throughputs > 0.
  bool complete() const {
    return ranks_per_node >= 1 && intra.latency_s >= 0 && intra.tau > 0 && inter.latency_s >= 0 && inter.tau > 0;
  }
  // Complete and not one network in disguise: levels that are equal, with
  // no shared capacity limit, say nothing a one-level network does not, so
  // such a network is priced as one level (the profile's latency_s, tau
  // and regimes), exactly as without the section.
  bool two_level() const {
    const bool same = intra == inter && (intra_tau_concurrent == 0 || intra_tau_concurrent == intra.tau) &&
                      node_link_tau == 0 && backbone_tau == 0;
    return complete() && !same;
  }
};

}  // namespace mmbench::model
