// Messages sent at the same time on a two-level network
// (model/two_level_network.hpp; docs/cost-models.md, "Two-level network"):
// which level each message crosses and how many flows share its links.
//
// A communication step of an algorithm is a Traffic: messages of one size,
// sent at once by the ranks of a group of p ranks, of which some stay
// inside a node and some cross nodes. The step lasts until its slowest
// message arrives:
//   inside a node:  intra.latency + s / (intra_tau_concurrent when more
//                   than one flow runs inside the node, else intra.tau)
//   between nodes:  max(inter.latency + s / min(inter.tau,
//                                               node_link / flows leaving a node),
//                       s / (backbone / flows between nodes))
// The backbone term carries no latency: where many flows share the
// backbone, a flow that waits out its latency leaves its share to the
// others, so the backbone stays busy (the steps of an algorithm are not in
// lockstep; SMPI shows it: ring at p = 256 on the thesis platform moves a
// shift in the backbone's time alone, docs/results.md "Two-level network").
// A one-level network (no section, or levels that do not differ) prices
// every message as before: refined_message_time(s), whatever the traffic.
//
// Example (the thesis cluster as its platform describes it: R = 2, intra
// 1 us and 1.5e9 B/s, inter 17 us and 6e8 B/s, node link 6e8 B/s, backbone
// 9.344e9 B/s), a ring shift of 2^20 doubles on p = 64 ranks: every node's
// second rank sends to the next node (32 flows share the backbone, 2.92e8
// B/s each), every first rank to the second (inside the node):
//   max(1e-6 + 8.39e6 B / 1.5e9, 17e-6 + 8.39e6 B / 6e8, 8.39e6 B / 2.92e8)
//   = max(0.0056, 0.0140, 0.0287) = 0.0287 s.
#pragma once

#include <algorithm>
#include <cstdint>

#include "model/machine_params.hpp"

namespace mmbench::model {

struct Traffic {
  int intra_flows = 0;     // flows inside the busiest node at once; 0: no message stays inside a node
  int inter_flows = 0;     // flows leaving the busiest node at once; 0: no message crosses nodes
  double inter_total = 0;  // flows between nodes in the whole group at once
};

// What the messages of a step get on one level: the latency and rate of
// their own path, and their share of the backbone (0: not limited by it).
struct LinkPrice {
  double latency_s = 0;
  double tau = 0;           // doubles per second
  double backbone_tau = 0;  // doubles per second; 0 = unlimited
  // `messages` messages in a row moving `doubles` in all (a tree stage's
  // panels): each pays its latency on its path; the backbone carries the
  // volume at its share, latency hidden by the other flows.
  double time(double doubles, double messages = 1) const {
    if (doubles <= 0) return 0.0;
    const double path = messages * latency_s + doubles / tau;
    return backbone_tau > 0 ? std::max(path, doubles / backbone_tau) : path;
  }
};

// Rank i sends to i + 1 (mod p) while receiving from i - 1, R ranks per node:
// one node (p <= R): p flows inside it; else R - 1 flows inside each node
// and one leaving it (its last rank's), ceil(p / R) between nodes in all.
Traffic ring_shift_traffic(int p, int ranks_per_node);

// Pairwise exchanges at distance d: rank g <-> g + d in blocks of 2d
// (tpMM's swaps, Q8's partners). d >= R: every pair crosses nodes, all R
// ranks of a node at once, p flows in all; 2d <= R with R a multiple of 2d:
// every pair inside a node, R flows there; otherwise some of each (priced
// as both at full load).
Traffic pairwise_traffic(int p, std::int64_t distance, int ranks_per_node);

// Every rank sends to a rank of another node at once (Q7's transfers
// between groups, the stages of a broadcast tree that leave the node):
// R flows leave each node, p cross nodes; on one node (p <= R), p flows
// inside it.
Traffic all_ranks_across_traffic(int p, int ranks_per_node);

// The prices of a step's two levels (mp.network.two_level() must hold):
// inside a node with t.intra_flows flows at once; between nodes with
// t.inter_flows leaving a node and t.inter_total in the group of p ranks,
// scaled to the job as in traffic_time.
LinkPrice intra_price(const Traffic& t, const MachineParams& mp);
LinkPrice inter_price(const Traffic& t, int p, const MachineParams& mp);

// An exchange phase between the groups of a Strassen level: every rank
// of a group of p ranks receives at once from ranks of other groups (on
// other nodes), the busiest rank `busiest` doubles in `messages` messages,
// all ranks together `total` doubles. Bounded by the busiest rank's path
// (its share of its node link: all R ranks of its node receive at once)
// and by the backbone, which carries the total (scaled to the job as in
// inter_price):
//   max(messages * inter.latency + busiest / min(inter.tau, node_link / R),
//       total / backbone)
// (mp.network.two_level() must hold). Where every rank receives the same,
// this is inter_price's: total = p * busiest.
// Example (R = 2, inter 1e-5 s and 1e6 doubles/s, node link 1e6, backbone
// 4e6, p = 8): busiest 1e5 in 2 messages, total 4e5: max(2e-5 + 1e5 / 5e5,
// 4e5 / 4e6) = 0.20002 s.
double exchange_time(double busiest, double messages, double total, int p, const MachineParams& mp);

// mp for the model of a job of p ranks whose parts (Strassen's leaf
// groups, its levels' groups) price their own steps: network.job_ranks = p
// unless already set (by an enclosing job).
MachineParams for_job(const MachineParams& mp, int p);

// Seconds until the slowest message of `doubles` doubles of the step
// arrives, the step taken by a group of p ranks. Where the group is part of
// a job (mp.network.job_ranks > p), the job's other groups run the same
// step at once: the flows between nodes scale by job_ranks / p. One-level
// network: refined_message_time(doubles, mp).
double traffic_time(double doubles, const Traffic& traffic, int p, const MachineParams& mp);

// Members of a set of ranks placed `stride` ranks apart (a process row:
// stride 1; a process column: stride pc) that share one node: R / stride
// where stride divides R (nodes hold whole blocks of the set), else 1;
// at most `members`. Example: R = 2, stride 1: 2; stride 8: 1.
int members_per_node(int members, int stride, int ranks_per_node);

// A binomial tree (MPI_Bcast and MPI_Reduce as MPICH and SMPI run them) over
// `members` ranks `stride` ranks apart, `trees` such trees at once in a
// group of p ranks (every row of a grid broadcasts together): stage s of
// S = ceil(log2 members) sends over distance d = 2^(S-1-s) members (the
// root sends the farthest first; a reduction runs the stages backwards),
// from ceil((members - d) / 2d) senders per tree. A stage whose distance
// d * stride is below R, with R a multiple of 2 d stride, stays inside a
// node (R flows there); any other crosses nodes, with min(R, stride)
// senders per node (a row keeps its senders apart, the R ranks of a node
// lie in R different columns) and trees x senders flows between nodes.
// Seconds of one tree whose stages each move `doubles` in `messages`
// messages (PDGEMM: a rank's share of A or B in panels).
// Example: R = 2, a row of 8 consecutive ranks (stride 1), 4 such rows:
// stage 0 (d = 4) crosses nodes, 1 sender per tree and per node, 4 flows
// in all; stage 1 (d = 2) crosses, 2 senders per tree, 8 flows; stage 2
// (d = 1) stays inside the nodes.
double tree_time(double doubles, double messages, int members, int stride, int trees, int p,
                 const MachineParams& mp);
// The stages of tree_time's tree over `members` ranks: ceil(log2 members)
// (0 for one member).
int tree_stages(int members);

}  // namespace mmbench::model
