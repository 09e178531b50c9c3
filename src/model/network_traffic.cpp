#include "model/network_traffic.hpp"

#include <algorithm>
#include <cmath>

#include "model/refined_model.hpp"

namespace mmbench::model {

namespace {

int nodes_of(int p, int r) { return (p + r - 1) / r; }

// What a group of p ranks puts between nodes, scaled to the job: its other
// groups run the same step at once (Strassen's leaves and levels).
double across_job(double group_amount, int p, const TwoLevelNetwork& net) {
  return net.job_ranks > p && p > 0 ? group_amount * double(net.job_ranks) / p : group_amount;
}

// One flow's rate between nodes while `sharing` flows leave its node at once.
double inter_rate(int sharing, const TwoLevelNetwork& net) {
  return net.node_link_tau > 0 && sharing > 0 ? std::min(net.inter.tau, net.node_link_tau / sharing) : net.inter.tau;
}

}  // namespace

Traffic ring_shift_traffic(int p, int r) {
  r = std::max(1, r);
  if (p <= 1) return {};
  if (p <= r) return {p, 0, 0.0};  // the ring closes inside one node
  return {r - 1, 1, double(nodes_of(p, r))};
}

Traffic pairwise_traffic(int p, std::int64_t d, int r) {
  r = std::max(1, r);
  if (p <= 1 || d <= 0) return {};
  const int busy = std::min(r, p);
  if (d >= r) return {0, busy, double(p)};
  if (r % (2 * d) == 0) return {busy, 0, 0.0};
  return {busy, busy, double(p)};  // pairs across a node boundary and pairs inside one
}

Traffic all_ranks_across_traffic(int p, int r) {
  r = std::max(1, r);
  if (p <= 1) return {};
  if (p <= r) return {p, 0, 0.0};
  return {0, r, double(p)};
}

LinkPrice intra_price(const Traffic& t, const MachineParams& mp) {
  const TwoLevelNetwork& net = mp.network;
  const double tau = t.intra_flows > 1 && net.intra_tau_concurrent > 0 ? net.intra_tau_concurrent : net.intra.tau;
  return {net.intra.latency_s, tau, 0.0};
}

LinkPrice inter_price(const Traffic& t, int p, const MachineParams& mp) {
  const TwoLevelNetwork& net = mp.network;
  const double total = across_job(t.inter_total, p, net);
  const double backbone = net.backbone_tau > 0 && total > 0 ? net.backbone_tau / total : 0.0;
  return {net.inter.latency_s, inter_rate(t.inter_flows, net), backbone};
}

double exchange_time(double busiest, double messages, double total, int p, const MachineParams& mp) {
  const TwoLevelNetwork& net = mp.network;
  const int r = std::max(1, std::min(net.ranks_per_node, p));
  const double backbone = net.backbone_tau > 0 ? across_job(total, p, net) / net.backbone_tau : 0.0;
  return std::max(messages * net.inter.latency_s + busiest / inter_rate(r, net), backbone);
}

MachineParams for_job(const MachineParams& mp, int p) {
  MachineParams job = mp;
  if (job.network.job_ranks <= 0) job.network.job_ranks = p;
  return job;
}

double traffic_time(double doubles, const Traffic& t, int p, const MachineParams& mp) {
  if (!mp.network.two_level()) return refined_message_time(doubles, mp);
  if (doubles <= 0) return 0.0;
  double slowest = 0;
  if (t.intra_flows > 0) slowest = intra_price(t, mp).time(doubles);
  if (t.inter_flows > 0) slowest = std::max(slowest, inter_price(t, p, mp).time(doubles));
  return slowest;
}

int members_per_node(int members, int stride, int r) {
  r = std::max(1, r);
  stride = std::max(1, stride);
  const int per_node = stride < r && r % stride == 0 ? r / stride : 1;
  return std::max(1, std::min(members, per_node));
}

int tree_stages(int members) {
  int stages = 0;
  while ((1 << stages) < members) ++stages;
  return stages;
}

double tree_time(double doubles, double messages, int members, int stride, int trees, int p,
                 const MachineParams& mp) {
  if (members <= 1 || doubles <= 0) return 0.0;
  const int r = std::max(1, mp.network.ranks_per_node);
  stride = std::max(1, stride);
  const int stages = tree_stages(members);
  double t = 0;
  for (int s = 0; s < stages; ++s) {
    const std::int64_t d = std::int64_t{1} << (stages - 1 - s);
    const std::int64_t reach = d * stride;
    const double senders = std::ceil(double(members - d) / double(2 * d));
    if (reach < r && r % (2 * reach) == 0) {
      t += intra_price(Traffic{std::min(r, members * stride), 0, 0.0}, mp).time(doubles, messages);
    } else {
      const Traffic across{0, std::min(r, stride), double(trees) * senders};
      t += inter_price(across, p, mp).time(doubles, messages);
    }
  }
  return t;
}

}  // namespace mmbench::model
