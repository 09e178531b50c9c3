// Network calibration (docs/method.md §8.2): latency lambda and throughput tau of the
// message cost model T = lambda + s / tau (s doubles, eq. 2.8).
//
//  - Ping-pong between ranks 0 and 1 over a sweep of sizes (8 B .. 4 MiB):
//    the half round-trip time of each size (median of several batches).
//    lambda = median over the smallest sizes (<= 64 B): there the size term
//    is negligible and a least-squares intercept would only add noise.
//    tau_pingpong = slope of a relative least-squares fit over the large
//    sizes (>= 64 KiB), where the rendezvous protocol is settled.
//    The whole sweep is also fitted with one line and with two regimes
//    (eager / rendezvous), for the refined model.
//  - All-to-all with all ranks (the thesis' COMMS3 measurement): the
//    thesis' algorithms load every link at once, and a link shared by all
//    ranks delivers less than one ping-pong pair sees (Infiniband in the
//    thesis: 600 MB/s point-to-point, 146 MB/s under all-to-all load).
//    tau_alltoall = bytes each rank sends to the others / time / 8, at the
//    largest size of the sweep (the least latency-bound).
//
//  - Where the ranks sit (MPI_Comm_split_type SHARED): ranks on rank 0's
//    node, nodes the job spans, whether ranks 0 and 1 share a node (then
//    the ping-pong is the intra-node one-flow value of the two-level
//    network, else its inter-node one), and every rank of each node
//    exchanging with its node's neighbours at once (the intra-node
//    throughput under the concurrency of the algorithms' steps, which share
//    the node's memory): each rank sends the largest ping-pong size to the
//    next rank of its node and receives from the previous one, all nodes
//    at the same time, time = max over the ranks, median of the repeats.
//
//  - Across nodes (a job on two or more nodes): the level ranks 0 and 1 do
//    not share gets a short ping-pong of its own (latency: median of 8 ..
//    64 B; rate: fit over 256 KiB .. 4 MiB) between rank 0 and its first
//    rank on the other level; the node link: every rank of rank 0's node
//    sends to its counterpart on the next node at once (the flows leaving
//    one node share its link), their rates summed; the backbone: every
//    rank of every node sends to its counterpart on the next node at once,
//    all flows' rates summed. A capacity the flows did not find short of
//    what they would get alone (within 10 %) is recorded as unlimited (0).
//
// A batch's round trips are sized by time as well as bytes (at least 4, a
// batch of about 20 ms at most), so a slow link cannot stretch the sweep:
// on a link of 4 ms per round trip it takes seconds, not minutes.
// With one rank there is no network: measured = false, zeros and a note.
// With more than two ranks, the sweep runs between ranks 0 and 1 only (its
// pair may be node-local or not; the note says which ranks).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tuner/lsq_fit.hpp"

namespace mmbench::tuner {

struct PingPongPoint {
  std::int64_t bytes = 0;
  double seconds = 0;  // half round trip, median over batches
};

struct AlltoallPoint {
  std::int64_t bytes_per_pair = 0;  // block each rank sends to each other rank
  double seconds = 0;               // one MPI_Alltoall, median of max over ranks
  double tau = 0;                   // doubles per second and rank
};

struct NetworkOptions {
  std::vector<std::int64_t> pingpong_sizes;  // empty: default_pingpong_sizes()
  std::vector<std::int64_t> alltoall_sizes = {1 << 20, 4 << 20};
  int reps = 5;  // timed batches per size
};

struct NetworkCalibration {
  bool measured = false;
  std::string note;  // e.g. why nothing was measured, clamped fit values
  std::vector<PingPongPoint> pingpong;
  std::vector<AlltoallPoint> alltoall;
  LinearFit overall;        // one line through the whole ping-pong sweep
  LinearFit large;          // sizes >= 64 KiB
  TwoRegimeFit two_regime;  // latencies clamped to >= 0 (see note)
  double latency_s = 0;
  double tau_pingpong = 0;  // doubles per second
  double tau_alltoall = 0;  // doubles per second and rank
  int ranks_per_node = 0;   // ranks of this job on rank 0's node
  int nodes = 0;            // nodes this job spans
  bool pingpong_same_node = false;  // ranks 0 and 1 share a node
  // Doubles per second and rank while every rank of a node sends to the
  // next rank of its node at once; 0 with one rank per node.
  double tau_node_concurrent = 0;
  // The level ranks 0 and 1 do not share, measured between rank 0 and
  // other_partner (-1: the job has no such pair, nothing measured).
  int other_partner = -1;
  double other_latency_s = 0, other_tau = 0;  // seconds, doubles per second
  // Across nodes (nodes >= 2), doubles per second summed over the flows:
  // one node's link with every rank of it sending out at once, and the
  // backbone with every node doing so; 0 = not limited (within 10 % of the
  // flows' rates alone) or not measured (one node).
  double node_link_tau = 0, backbone_tau = 0;
  int link_flows = 0, backbone_flows = 0;   // the flows of each measurement
  double link_sum_tau = 0, backbone_sum_tau = 0;  // what they carried, limited or not
  // What was measured again because it came out short, and what each
  // measurement gave ("" where nothing was): tune prints it and keeps it in
  // the profile's notes.
  std::string remeasured;
};

// Powers of two 8 B .. 4 MiB plus 1.5 * 2^j from 1.5 KiB to 3 MiB (so the
// eager limit and the fit have points between the powers), sorted.
std::vector<std::int64_t> default_pingpong_sizes();

// Why tune checks both directions against one: with two nodes of one rank
// each, the all-to-all is a single exchange over the link between them,
// both directions at once. A full-duplex link carries each direction at the
// one-way (ping-pong) rate, and the models price every exchange at the
// all-to-all rate, so an all-to-all well short of the ping-pong means either
// a link whose directions share it (half duplex, a shared segment) or a
// measurement that met a slow spell of the host or the network; runs then
// differ from the prices by the same factor. The warning names both rates
// and the ratio so the user can tell which (`run --validate` shows what the
// runs got). both_ways_short: below kBothWaysShortfall of the ping-pong
// rate; false for any other layout or where either rate is missing. The
// warning is "" wherever that is false.
// Example: 2 nodes x 1 rank, ping-pong 60 MB/s, all-to-all 30 MB/s per
// rank -> a warning naming 0.50; 2 nodes x 2 ranks -> "" (four ranks share
// the link, so a lower all-to-all rate is what the layout gives).
inline constexpr double kBothWaysShortfall = 0.75;
bool both_ways_short(double tau_pingpong, double tau_alltoall, int nodes, int ranks_per_node);
std::string both_ways_warning(double tau_pingpong, double tau_alltoall, int nodes, int ranks_per_node);

// Where a measurement came out short of what the link gives one way (the
// all-to-all by both_ways_short, a capacity by capacity_short), tune
// measures it again, up to kRemeasureRetries times, each after
// kRemeasurePauseSeconds with the link idle, and keeps the fastest. Why: on
// the namespace cluster the slow spell was a state of tune's connection
// that could last the whole network step and then end, while runs in fresh
// jobs crossed at the full rate (docs/method.md, "Both directions against
// one"); a link whose directions really share it, or a node link or
// backbone really narrower than its flows, gives the same rate every time,
// and that rate is kept. The pause lets the link's queues drain and TCP
// restart its window after idle, as between an algorithm's exchanges.
inline constexpr int kRemeasureRetries = 2;
inline constexpr double kRemeasurePauseSeconds = 1.0;

// A capacity (the node link, the backbone) counts where its flows together
// carried less than kCapacityShortfall of what they would alone (`alone`:
// the flows times one flow's rate, or what the links before it allow);
// 10 % is about what repeated measurements of one flow differ by on the
// namespace cluster. False where `alone` is unknown (0).
// Example: 2 flows of 59 MB/s alone carried 60 MB/s -> short (the link's
// capacity, 60); they carried 112 -> not (unlimited).
inline constexpr double kCapacityShortfall = 0.9;
bool capacity_short(double carried, double alone);

// The loop of that rule: while still_short(), up to kRemeasureRetries
// times, pause() then measure(); returns what each measure() gave, in
// order (empty where the first measurement was not short). measure() must
// keep the fastest, so that still_short() asks about the kept value. In
// tune, pause() is a barrier, kRemeasurePauseSeconds asleep and a barrier,
// and every rank holds the same rates, so all ranks loop together.
// Example: 29.8 MB/s short; again 58.1 -> [58.1], no longer short, stop.
std::vector<double> measure_again_while(const std::function<bool()>& still_short, const std::function<void()>& pause,
                                        const std::function<double()>& measure);

// The rate tau_alltoall takes from a sweep: its largest block's (doubles
// per second and rank; 0 for an empty sweep).
double alltoall_tau(const std::vector<AlltoallPoint>& sweep);

// The faster of two sweeps by alltoall_tau; the first where they tie.
// Example: a sweep at 29.8 MB/s per rank and one at 58.1 -> the second.
const std::vector<AlltoallPoint>& faster_alltoall(const std::vector<AlltoallPoint>& a,
                                                  const std::vector<AlltoallPoint>& b);

// Collective over comm; every rank returns the same result (rank 0's
// timings are broadcast and fitted everywhere). Throws std::invalid_argument
// for a size < 1 or reps < 1, MpiError on an MPI failure.
NetworkCalibration calibrate_network(MPI_Comm comm, const NetworkOptions& options = {});

}  // namespace mmbench::tuner
