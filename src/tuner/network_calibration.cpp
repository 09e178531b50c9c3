#include "tuner/network_calibration.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "core/mpi/comm.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::tuner {

namespace {

constexpr int kTag = 4711;
constexpr std::int64_t kLatencyMaxBytes = 64;        // sizes whose median is lambda
constexpr std::int64_t kLargeMinBytes = 64 * 1024;   // sizes fitted for tau_pingpong
constexpr std::int64_t kBatchBytes = 4 << 20;        // bytes moved per timed ping-pong batch
constexpr std::int64_t kAlltoallRepBytes = 16 << 20;  // bytes each rank sends per rep of the all-to-all
constexpr double kBatchSeconds = 0.02;               // the longest timed batch a slow link may make
constexpr std::int64_t kFlowBytes = 4 << 20;         // a message of the node-link and backbone flows

// Round trips per batch: enough to move ~kBatchBytes, between 4 and 1000, so
// an 8-byte batch is not a few timer ticks and a 4 MiB batch stays short;
// and no more than kBatchSeconds at the round trip measured before (at
// least 4). Example: 8 B -> 1000 at 10 us a round trip, 5 at 4 ms; 64 KiB
// -> 64; 4 MiB -> 4.
int round_trips(std::int64_t bytes, double round_trip_s) {
  std::int64_t n = std::clamp<std::int64_t>(kBatchBytes / bytes, 4, 1000);
  if (round_trip_s > 0) n = std::min(n, std::max<std::int64_t>(4, static_cast<std::int64_t>(kBatchSeconds / round_trip_s)));
  return static_cast<int>(n);
}

// Half round-trip times of each size between ranks a and b, a's view (other
// ranks, and b: empty). a times a round trip after the first (connections
// are made in the first) and tells b how many a batch holds.
std::vector<double> pingpong(MPI_Comm comm, int rank, int a, int b, const std::vector<std::int64_t>& sizes,
                             int reps) {
  std::vector<double> result;
  if (rank != a && rank != b) return result;
  const std::int64_t max_bytes = *std::max_element(sizes.begin(), sizes.end());
  std::vector<char> buf(static_cast<std::size_t>(max_bytes), 1);
  const int peer = rank == a ? b : a;
  for (std::int64_t bytes : sizes) {
    const int count = static_cast<int>(bytes);
    auto exchange = [&] {
      if (rank == a) {
        MMBENCH_MPI(MPI_Send(buf.data(), count, MPI_BYTE, peer, kTag, comm));
        MMBENCH_MPI(MPI_Recv(buf.data(), count, MPI_BYTE, peer, kTag, comm, MPI_STATUS_IGNORE));
      } else {
        MMBENCH_MPI(MPI_Recv(buf.data(), count, MPI_BYTE, peer, kTag, comm, MPI_STATUS_IGNORE));
        MMBENCH_MPI(MPI_Send(buf.data(), count, MPI_BYTE, peer, kTag, comm));
      }
    };
    exchange();  // connection set-up, page faults of the transport's buffers
    const double t_one = MPI_Wtime();
    exchange();
    int iters = round_trips(bytes, MPI_Wtime() - t_one);
    if (rank == a) MMBENCH_MPI(MPI_Send(&iters, 1, MPI_INT, peer, kTag + 2, comm));
    else MMBENCH_MPI(MPI_Recv(&iters, 1, MPI_INT, peer, kTag + 2, comm, MPI_STATUS_IGNORE));
    // Warm-up; each batch then starts with one untimed round trip, which
    // also brings the two ranks into step.
    for (int i = 0; i < std::min(iters, 10); ++i) exchange();
    std::vector<double> halves;
    for (int r = 0; r < reps; ++r) {
      exchange();
      const double t0 = MPI_Wtime();
      for (int i = 0; i < iters; ++i) exchange();
      halves.push_back((MPI_Wtime() - t0) / iters / 2.0);
    }
    if (rank == a) result.push_back(summarize(halves).median);
  }
  return result;
}

// Flows at once: each rank sends `iters` messages of kFlowBytes to `to` and
// receives as many from `from` (-1: none), every rank of comm in the
// timing; the sum of the flows' rates in doubles per second (flows x bytes
// / the slowest rank's time), median over reps. Every exchange starts
// together after a barrier, as an algorithm's step does (a shift or swap
// between two multiplies): back to back, the two ways of one pair drift out
// of step, and as Open MPI's TCP transport carries both ways of a pair on
// one connection, each way's next message then waits behind the other's
// data, which measured the exchange far below what the links carry
// (docs/results.md, "The backbone probe's exchanges").
double flows_rate(MPI_Comm comm, int to, int from, int flows, int reps) {
  const Comm all = Comm::view(comm);
  std::vector<char> send(to >= 0 ? static_cast<std::size_t>(kFlowBytes) : 0, 1),
      recv(from >= 0 ? static_cast<std::size_t>(kFlowBytes) : 0, 0);
  const int count = static_cast<int>(kFlowBytes), iters = 4;
  auto batch = [&](int n) {
    for (int i = 0; i < n; ++i) {
      all.barrier();
      MPI_Request req[2];
      int k = 0;
      if (from >= 0) MMBENCH_MPI(MPI_Irecv(recv.data(), count, MPI_BYTE, from, kTag + 3, comm, &req[k++]));
      if (to >= 0) MMBENCH_MPI(MPI_Isend(send.data(), count, MPI_BYTE, to, kTag + 3, comm, &req[k++]));
      MMBENCH_MPI(MPI_Waitall(k, req, MPI_STATUSES_IGNORE));
    }
  };
  batch(1);  // warm-up
  std::vector<double> times(static_cast<std::size_t>(reps));
  for (int r = 0; r < reps; ++r) times[static_cast<std::size_t>(r)] = time_max_over_ranks(all, [&] { batch(iters); });
  return static_cast<double>(flows) * kFlowBytes * iters / 8.0 / summarize(times).median;
}

// The short sweep of the other level: latency from 8 .. 64 B, the rate
// from a fit over 256 KiB .. 4 MiB; every rank returns the pair's values.
void other_level(MPI_Comm comm, int rank, int partner, int reps, NetworkCalibration& cal) {
  const std::vector<std::int64_t> sizes = {8, 16, 32, 64, 256 << 10, 1 << 20, 2 << 20, 4 << 20};
  std::vector<double> halves = pingpong(comm, rank, 0, partner, sizes, reps);
  halves.resize(sizes.size());
  MMBENCH_MPI(MPI_Bcast(halves.data(), static_cast<int>(halves.size()), MPI_DOUBLE, 0, comm));
  std::vector<double> small(halves.begin(), halves.begin() + 4);
  cal.other_latency_s = summarize(small).median;
  std::vector<std::pair<double, double>> large;
  for (std::size_t i = 4; i < sizes.size(); ++i) large.emplace_back(static_cast<double>(sizes[i]), halves[i]);
  try {
    cal.other_tau = fit_latency_bandwidth(large).tau;
  } catch (const std::invalid_argument&) {
    cal.other_tau = 0;
  }
  if (!(cal.other_tau > 0)) cal.other_tau = static_cast<double>(sizes.back()) / 8.0 / halves.back();
  cal.other_partner = partner;
}

std::vector<AlltoallPoint> alltoall(MPI_Comm comm, int p, const std::vector<std::int64_t>& sizes,
                                    int reps) {
  std::vector<AlltoallPoint> result;
  for (std::int64_t bytes : sizes) {
    const int count = static_cast<int>(bytes);
    std::vector<char> send(static_cast<std::size_t>(bytes * p), 1);
    std::vector<char> recv(static_cast<std::size_t>(bytes * p), 0);
    // Each rank sends bytes * (p - 1) to the others per call (its own block
    // is a local copy and not counted, as in COMMS3's per-rank rate).
    const std::int64_t sent = bytes * (p - 1);
    const int calls_per_rep = static_cast<int>(std::clamp<std::int64_t>(kAlltoallRepBytes / sent, 2, 100));
    auto call = [&] {
      MMBENCH_MPI(MPI_Alltoall(send.data(), count, MPI_BYTE, recv.data(), count, MPI_BYTE, comm));
    };
    call();  // warm-up
    // Each call timed alone, between barriers: an algorithm's exchanges
    // (a ring shift, a tpMM swap, a Strassen transfer) each start from a
    // network that was idle while the ranks computed. Back to back, on a
    // rate-limited TCP link the calls read lower than any one exchange of
    // an algorithm sees (likely each direction's acknowledgements queuing
    // behind the other direction's data; docs/method.md §8.2).
    std::vector<double> times;
    const Comm all = Comm::view(comm);
    for (int r = 0; r < reps * calls_per_rep; ++r) times.push_back(time_max_over_ranks(all, call));
    AlltoallPoint pt;
    pt.bytes_per_pair = bytes;
    pt.seconds = summarize(times).median;
    pt.tau = static_cast<double>(sent) / 8.0 / pt.seconds;
    result.push_back(pt);
  }
  return result;
}

// Every rank of a node sends `bytes` to the next rank of its node and
// receives from the previous one, every node at once; doubles per second and
// rank of the slowest rank, median over reps. 0 where no node holds two
// ranks (every rank still joins the collectives).
double node_exchange(MPI_Comm comm, const Comm& node, std::int64_t bytes, int reps) {
  const Comm all = Comm::view(comm);
  if (all.max(static_cast<long long>(node.size())) < 2) return 0.0;
  const bool busy = node.size() >= 2;
  const int count = static_cast<int>(bytes);
  const int to = (node.rank() + 1) % node.size(), from = (node.rank() - 1 + node.size()) % node.size();
  std::vector<char> send(busy ? static_cast<std::size_t>(bytes) : 0, 1), recv(send.size(), 0);
  const int iters = static_cast<int>(std::clamp<std::int64_t>(kBatchBytes / bytes, 2, 100));
  auto exchange = [&] {
    if (busy)
      MMBENCH_MPI(MPI_Sendrecv(send.data(), count, MPI_BYTE, to, kTag + 1, recv.data(), count, MPI_BYTE, from,
                               kTag + 1, node.get(), MPI_STATUS_IGNORE));
  };
  exchange();  // warm-up
  std::vector<double> times(static_cast<std::size_t>(reps));
  for (int r = 0; r < reps; ++r)
    times[static_cast<std::size_t>(r)] = time_max_over_ranks(all, [&] {
      for (int i = 0; i < iters; ++i) exchange();
    }) / iters;
  return static_cast<double>(bytes) / 8.0 / summarize(times).median;
}

std::string seconds_text(double s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

void append(std::string& note, const std::string& text) {
  if (!note.empty()) note += "; ";
  note += text;
}

// Every rank idle for kRemeasurePauseSeconds between two barriers.
void idle_pause(MPI_Comm comm) {
  MMBENCH_MPI(MPI_Barrier(comm));
  std::this_thread::sleep_for(std::chrono::duration<double>(kRemeasurePauseSeconds));
  MMBENCH_MPI(MPI_Barrier(comm));
}

// One entry of NetworkCalibration::remeasured; rates in doubles per second.
// Example: "the all-to-all ran at (per rank) 29.8 MB/s, below 0.75 of one
// direction's 59.2; measured again after 1 s idle: 58.1 MB/s; the fastest
// kept (58.1 MB/s)".
std::string remeasured_text(const std::string& what, double first, const std::string& below,
                            const std::vector<double>& again, double kept) {
  std::string rates;
  for (double r : again) rates += fmt::format("{}{:.1f}", rates.empty() ? "" : ", ", r * 8 / 1e6);
  return fmt::format(
      "{} {:.1f} MB/s, below {}; measured again after {:g} s idle: {} MB/s; the fastest kept ({:.1f} MB/s)", what,
      first * 8 / 1e6, below, kRemeasurePauseSeconds, rates, kept * 8 / 1e6);
}

}  // namespace

std::vector<std::int64_t> default_pingpong_sizes() {
  std::vector<std::int64_t> sizes;
  for (int j = 3; j <= 22; ++j) sizes.push_back(std::int64_t{1} << j);
  for (int j = 10; j <= 21; ++j) sizes.push_back(3 * (std::int64_t{1} << (j - 1)));
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

bool both_ways_short(double tau_pingpong, double tau_alltoall, int nodes, int ranks_per_node) {
  if (nodes != 2 || ranks_per_node != 1 || !(tau_pingpong > 0) || !(tau_alltoall > 0)) return false;
  return tau_alltoall / tau_pingpong < kBothWaysShortfall;
}

std::string both_ways_warning(double tau_pingpong, double tau_alltoall, int nodes, int ranks_per_node) {
  if (!both_ways_short(tau_pingpong, tau_alltoall, nodes, ranks_per_node)) return "";
  const double ratio = tau_alltoall / tau_pingpong;
  return fmt::format(
      "warning: both directions at once (the all-to-all of one rank on each of two nodes) ran at {:.3g} GB/s per "
      "rank, {:.2f} of one direction's rate ({:.3g} GB/s ping-pong), also when measured again after a pause: the two "
      "directions share the link, or a slow spell lasted (other work on the nodes' cores can make one where the "
      "kernel moves the packets). The models price every exchange at the all-to-all rate; `mmbench run --validate` "
      "shows whether runs see it, and a second tune whether it recurs",
      tau_alltoall * 8 / 1e9, ratio, tau_pingpong * 8 / 1e9);
}

double alltoall_tau(const std::vector<AlltoallPoint>& sweep) {
  if (sweep.empty()) return 0.0;
  return std::max_element(sweep.begin(), sweep.end(),
                          [](const auto& a, const auto& b) { return a.bytes_per_pair < b.bytes_per_pair; })
      ->tau;
}

bool capacity_short(double carried, double alone) { return alone > 0 && carried < kCapacityShortfall * alone; }

std::vector<double> measure_again_while(const std::function<bool()>& still_short, const std::function<void()>& pause,
                                        const std::function<double()>& measure) {
  std::vector<double> rates;
  for (int retry = 0; retry < kRemeasureRetries && still_short(); ++retry) {
    pause();
    rates.push_back(measure());
  }
  return rates;
}

const std::vector<AlltoallPoint>& faster_alltoall(const std::vector<AlltoallPoint>& a,
                                                  const std::vector<AlltoallPoint>& b) {
  return alltoall_tau(b) > alltoall_tau(a) ? b : a;
}

NetworkCalibration calibrate_network(MPI_Comm comm, const NetworkOptions& options) {
  const std::vector<std::int64_t> sizes =
      options.pingpong_sizes.empty() ? default_pingpong_sizes() : options.pingpong_sizes;
  if (options.reps < 1) {
    throw std::invalid_argument("network calibration: reps = " + std::to_string(options.reps) +
                                " must be >= 1");
  }
  for (const auto* list : {&sizes, &options.alltoall_sizes}) {
    for (std::int64_t s : *list) {
      if (s < 1 || s > (1 << 30)) {
        throw std::invalid_argument("network calibration: message size " + std::to_string(s) +
                                    " is outside [1, 2^30] bytes");
      }
    }
  }
  int rank = 0, p = 1;
  MMBENCH_MPI(MPI_Comm_rank(comm, &rank));
  MMBENCH_MPI(MPI_Comm_size(comm, &p));

  NetworkCalibration cal;
  if (p < 2) {
    cal.note = "one rank: no network to measure, latency and tau are 0";
    return cal;
  }

  // Where the ranks sit: every rank's node named by its lowest rank (what
  // the launcher placed on one node: MPI_Comm_split_type SHARED).
  const Comm node = Comm::view(comm).split_node();
  int lowest = rank;
  MMBENCH_MPI(MPI_Allreduce(&rank, &lowest, 1, MPI_INT, MPI_MIN, node.get()));
  std::vector<int> node_of(static_cast<std::size_t>(p));
  MMBENCH_MPI(MPI_Allgather(&lowest, 1, MPI_INT, node_of.data(), 1, MPI_INT, comm));
  cal.ranks_per_node = static_cast<int>(std::count(node_of.begin(), node_of.end(), node_of[0]));
  std::vector<int> leaders = node_of;
  std::sort(leaders.begin(), leaders.end());
  leaders.erase(std::unique(leaders.begin(), leaders.end()), leaders.end());
  cal.nodes = static_cast<int>(leaders.size());
  cal.pingpong_same_node = node_of[0] == node_of[1];

  std::vector<double> halves = pingpong(comm, rank, 0, 1, sizes, options.reps);
  halves.resize(sizes.size());
  MMBENCH_MPI(MPI_Bcast(halves.data(), static_cast<int>(halves.size()), MPI_DOUBLE, 0, comm));
  if (!options.alltoall_sizes.empty()) cal.alltoall = alltoall(comm, p, options.alltoall_sizes, options.reps);
  cal.tau_node_concurrent = node_exchange(comm, node, *std::max_element(sizes.begin(), sizes.end()), options.reps);

  // The other level: rank 0 and its first rank on it.
  for (int r = 2; r < p; ++r)
    if ((node_of[static_cast<std::size_t>(r)] == node_of[0]) != cal.pingpong_same_node) {
      other_level(comm, rank, r, options.reps, cal);
      break;
    }
  // Each rank's flows across nodes: the node link's (node 0's ranks send,
  // node 1's receive) and the backbone's (every node to the next); -1: none.
  int link_to = -1, link_from = -1, to = -1, from = -1;
  if (cal.nodes >= 2) {
    // The ranks of each node in order; a rank's counterpart on the next
    // node is the rank of the same place there.
    std::vector<std::vector<int>> on(leaders.size());
    for (int r = 0; r < p; ++r) {
      const auto node_index = std::lower_bound(leaders.begin(), leaders.end(), node_of[static_cast<std::size_t>(r)]) - leaders.begin();
      on[static_cast<std::size_t>(node_index)].push_back(r);
    }
    const std::size_t mine = static_cast<std::size_t>(std::lower_bound(leaders.begin(), leaders.end(), lowest) - leaders.begin());
    const std::size_t place = static_cast<std::size_t>(std::find(on[mine].begin(), on[mine].end(), rank) - on[mine].begin());
    const std::size_t next = (mine + 1) % on.size(), prev = (mine + on.size() - 1) % on.size();
    to = place < on[next].size() ? on[next][place] : -1;
    from = place < on[prev].size() ? on[prev][place] : -1;
    // The link: node 0's ranks send, node 1's receive.
    const int link_flows = static_cast<int>(std::min(on[0].size(), on[1].size()));
    const bool sends = mine == 0 && place < on[1].size(), receives = mine == 1 && place < on[0].size();
    link_to = sends ? to : -1;
    link_from = receives ? from : -1;
    cal.link_flows = link_flows;
    cal.link_sum_tau = flows_rate(comm, link_to, link_from, link_flows, options.reps);
    // The backbone: every node sends to the next at once.
    int flows = 0;
    for (std::size_t i = 0; i < on.size(); ++i) flows += static_cast<int>(std::min(on[i].size(), on[(i + 1) % on.size()].size()));
    cal.backbone_flows = flows;
    cal.backbone_sum_tau = flows_rate(comm, to, from, flows, options.reps);
  }

  // From here on every rank computes the same from the same numbers.
  cal.measured = true;
  if (p > 2) append(cal.note, "ping-pong between ranks 0 and 1 only");
  std::vector<std::pair<double, double>> all, large;
  std::vector<double> small;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    cal.pingpong.push_back({sizes[i], halves[i]});
    all.emplace_back(static_cast<double>(sizes[i]), halves[i]);
    if (sizes[i] >= kLargeMinBytes) large.emplace_back(static_cast<double>(sizes[i]), halves[i]);
    if (sizes[i] <= kLatencyMaxBytes) small.push_back(halves[i]);
  }
  std::sort(cal.pingpong.begin(), cal.pingpong.end(),
            [](const auto& a, const auto& b) { return a.bytes < b.bytes; });

  if (small.empty()) small.push_back(cal.pingpong.front().seconds);  // custom sweep without small sizes
  cal.latency_s = summarize(small).median;

  const PingPongPoint& biggest = cal.pingpong.back();
  const double tau_biggest = static_cast<double>(biggest.bytes) / 8.0 / biggest.seconds;
  bool large_fit = false;
  if (large.size() >= 2) {
    try {
      cal.large = fit_latency_bandwidth(large);
      large_fit = cal.large.tau > 0.0;
    } catch (const std::invalid_argument&) {
      // fewer than two distinct large sizes: handled below
    }
  }
  if (large_fit) {
    cal.tau_pingpong = cal.large.tau;
  } else {
    cal.tau_pingpong = tau_biggest;
    append(cal.note, "tau_pingpong from the largest message alone (no usable fit >= 64 KiB)");
  }

  cal.overall = fit_latency_bandwidth(all);
  cal.two_regime = fit_two_regimes(all);
  for (LinearFit* f : {&cal.two_regime.eager, &cal.two_regime.rendezvous}) {
    if (f->latency_s < 0.0) {
      append(cal.note, "a negative fitted latency (" + seconds_text(f->latency_s) +
                           ") of the two-regime fit was clamped to 0");
      f->latency_s = 0.0;
    }
  }
  if (cal.two_regime.break_bytes == 0) append(cal.note, "one regime fits the ping-pong sweep");

  cal.tau_alltoall = alltoall_tau(cal.alltoall);
  // Whatever came out short is measured again before it is trusted
  // (kRemeasureRetries). Every rank holds the same rates (the ping-pong
  // broadcast, the all-to-all's and the flows' max over ranks), so all
  // ranks loop together.
  const auto pause = [comm] { idle_pause(comm); };
  {
    const double first = cal.tau_alltoall;
    const std::vector<double> again = measure_again_while(
        [&] { return both_ways_short(cal.tau_pingpong, cal.tau_alltoall, cal.nodes, cal.ranks_per_node); }, pause,
        [&] {
          const std::vector<AlltoallPoint> sweep = alltoall(comm, p, options.alltoall_sizes, options.reps);
          cal.alltoall = faster_alltoall(cal.alltoall, sweep);
          cal.tau_alltoall = alltoall_tau(cal.alltoall);
          return alltoall_tau(sweep);
        });
    if (!again.empty())
      append(cal.remeasured, remeasured_text("the all-to-all ran at (per rank)", first,
                                             fmt::format("{} of one direction's {:.1f}", kBothWaysShortfall,
                                                         cal.tau_pingpong * 8 / 1e6),
                                             again, cal.tau_alltoall));
  }

  // A capacity counts where its flows got less than they would alone: one
  // inter-node flow's rate each (the link), each node's link (the backbone).
  if (cal.nodes >= 2) {
    const double inter = cal.pingpong_same_node ? cal.other_tau : cal.tau_pingpong;
    // measured: the flows' sum, raised to the fastest measurement.
    auto capacity = [&](double& measured, double alone, int flows, int flow_to, int flow_from, const char* what,
                        const std::string& below) {
      const double first = measured;
      const std::vector<double> again =
          measure_again_while([&] { return capacity_short(measured, alone); }, pause,
                              [&] {
                                const double r = flows_rate(comm, flow_to, flow_from, flows, options.reps);
                                measured = std::max(measured, r);
                                return r;
                              });
      if (!again.empty())
        append(cal.remeasured, remeasured_text(fmt::format("the {}'s {} flows carried", what, flows), first,
                                               fmt::format("{} of {}", kCapacityShortfall, below), again, measured));
      return capacity_short(measured, alone) ? measured : 0.0;
    };
    const double link_alone = cal.link_flows * inter;
    cal.node_link_tau = capacity(cal.link_sum_tau, link_alone, cal.link_flows, link_to, link_from, "node link",
                                 fmt::format("{:.1f} MB/s alone", link_alone * 8 / 1e6));
    const double per_node = cal.node_link_tau > 0 ? cal.node_link_tau : link_alone;
    const double without_backbone = std::min(cal.backbone_flows * inter, cal.nodes * per_node);
    cal.backbone_tau = capacity(cal.backbone_sum_tau, without_backbone, cal.backbone_flows, to, from, "backbone",
                                fmt::format("the {:.1f} MB/s the links allow", without_backbone * 8 / 1e6));
  }
  return cal;
}

}  // namespace mmbench::tuner
