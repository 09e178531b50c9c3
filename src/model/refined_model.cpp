#include "model/refined_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <stdexcept>
#include <string>

#include "space/ring_chunks.hpp"
#include "space/strassen_formulas.hpp"
#include "space/strassen_groups.hpp"
#include "core/lb_in_force.hpp"
#include "model/network_traffic.hpp"
#include "model/require.hpp"

namespace mmbench::model {

namespace {

using std::to_string;

double tau_capped(double regime_tau, const MachineParams& mp) {
  if (regime_tau > 0 && mp.tau > 0) return std::min(regime_tau, mp.tau);
  return regime_tau > 0 ? regime_tau : mp.tau;
}

}  // namespace

double busy_core_speed(int busy, const MachineParams& mp) {
  const auto& ladder = mp.peak_per_core_by_busy;
  if (busy < 1 || mp.profiled_busy_cores < 1 || ladder.empty()) return 1.0;
  auto at = [&](int c) { return ladder[static_cast<std::size_t>(std::min<int>(c, int(ladder.size())) - 1)]; };
  const double profiled = at(mp.profiled_busy_cores), now = at(busy);
  if (!(profiled > 0 && now > 0)) return 1.0;
  const int p = mp.profiled_busy_cores;
  // DGEMM's own sharing is measured at one busy core only (tune's DGEMM
  // alone); between one and p the FMA ladder's ratio stands alone.
  const double sharing = busy == 1 && p > 1 && mp.dgemm_busy_sharing > 0 ? mp.dgemm_busy_sharing : 1.0;
  return now / profiled * sharing;
}

namespace {

// How much faster DGEMM(m, n, k) runs than DGEMM at the profile point `at`,
// by the kernel model's fit (1 without one): the fit's rate at the shape
// over its rate at the point. Example (the namespace cluster's 2 x 1
// profile): a local Strassen leaf 128 x 128 x 256 whose nearest point is
// 256^3 at 53.8 GFLOP/s; the fit gives 39.2 and 47.4 GFLOP/s there, so the
// leaf is priced at 53.8 x 39.2 / 47.4 = 44.5.
double shape_factor(double m, double n, double k, const DgemmPoint& at, const DgemmTimeFit& fit) {
  if (!fit.fitted()) return 1.0;
  const double here = fit.seconds(m, n, k) / (m * n * k);
  const double there = fit.seconds(double(at.m), double(at.n), double(at.k)) / (double(at.m) * at.n * at.k);
  return here > 0 && there > 0 ? there / here : 1.0;
}

double profiled_dgemm_rate(double m, double n, double k, const MachineParams& mp) {
  if (!mp.dgemm_profile.empty()) {
    // Nearest in log space: a factor 2 off in any dimension counts the same
    // at k = 32 as at k = 4096.
    auto lg = [](double x) { return std::log(std::max(1.0, x)); };
    double best = std::numeric_limits<double>::infinity();
    const DgemmPoint* nearest = nullptr;
    for (const DgemmPoint& pt : mp.dgemm_profile) {
      const double d = std::abs(lg(m) - lg(double(pt.m))) + std::abs(lg(n) - lg(double(pt.n))) +
                       std::abs(lg(k) - lg(double(pt.k)));
      if (d < best && pt.mflops > 0) {
        best = d;
        nearest = &pt;
      }
    }
    if (nearest) return nearest->mflops * 1e6 * shape_factor(m, n, k, *nearest, mp.dgemm_shape_fit);
  }
  require(std::isfinite(mp.t_op) && mp.t_op > 0, [&] { return
          "refined model: no DGEMM profile and t_op = " + to_string(mp.t_op) + " s/flop; needs t_op > 0"; });
  return 1.0 / mp.t_op;
}

}  // namespace

double dgemm_rate(double m, double n, double k, const MachineParams& mp) {
  return profiled_dgemm_rate(m, n, k, mp) * busy_core_speed(mp.busy_cores, mp);
}

namespace {

// A per-thread-count quantity that is 1 at one thread and `measured` at
// `measured_at` threads: linear in between, `measured` beyond.
// Example: measured 0.9 at 2: 1 at t = 1, 0.9 at t = 2 and t = 4.
double linear_to_measured(int t, int measured_at, double measured) {
  if (t >= measured_at) return measured;
  return 1.0 + (measured - 1.0) * (t - 1) / (measured_at - 1);
}

}  // namespace

double thread_speedup(int threads, const MachineParams& mp) {
  const int t = std::max(1, threads);
  if (!(mp.thread_efficiency > 0) || mp.thread_efficiency_threads < 2) return t;
  return t * linear_to_measured(t, mp.thread_efficiency_threads, mp.thread_efficiency);
}

double refined_dgemm_time(double m, double n, double k, int threads, const MachineParams& mp) {
  if (m <= 0 || n <= 0 || k <= 0) return 0.0;
  return 2.0 * m * n * k / (dgemm_rate(m, n, k, mp) * thread_speedup(threads, mp));
}

double refined_add_time(double elements, const MachineParams& mp) {
  if (mp.add_bytes_per_s > 0) return 24.0 * elements / mp.add_bytes_per_s;
  return elements * mp.t_op;
}

namespace {

// Where one thread's time goes in the sequential recursion: DGEMM leaves
// and addition passes, kept apart because threads speed them up differently.
struct LocalCost {
  double leaves_s = 0, additions_s = 0;
};

// The kernel's own rule (local/fast_gemm.hpp). The model halves sizes as
// real numbers; for a whole-number threshold x >= t holds exactly when
// floor(x) >= t, so flooring gives the kernel's answer on its halved-down
// sizes.
bool level_applies(double m, double n, double k, const LocalKernel& lk) {
  auto whole = [](double x) { return static_cast<std::int64_t>(std::floor(x)); };
  return local::local_level_applies(whole(m), whole(n), whole(k), lk.levels, lk.min_dim);
}

// Operand-pass touches of one fused pass that reads 4 quadrants and writes
// `sums` of them. With streaming stores it moves 4 + sums cache lines per
// element (no read of the lines it writes); the add bandwidth is calibrated
// on c = a + b with ordinary stores, 4 lines per 3 touches, so a line prices
// as 3/4 touch. Example: Winograd's S1..S4, 8 lines -> 6 touches (8 cached).
double fused_operand_touches(int sums, bool streaming) {
  return streaming ? 0.75 * (4 + sums) : 4.0 + sums;
}

// A product at the bottom of the local levels: DGEMM's time, or with the
// packed GEMM that over its measured speed relative to DGEMM.
double leaf_time(double m, double n, double k, int threads, const LocalKernel& lk, const MachineParams& mp) {
  const double t = refined_dgemm_time(m, n, k, threads, mp);
  return lk.packed() && mp.packed_speed > 0 ? t / mp.packed_speed : t;
}

LocalCost sequential_local_cost(double m, double n, double k, const LocalKernel& lk, const MachineParams& mp) {
  if (!level_applies(m, n, k, lk)) return {leaf_time(m, n, k, 1, lk, mp), 0.0};
  const double hm = std::floor(m / 2), hn = std::floor(n / 2), hk = std::floor(k / 2);
  LocalKernel below = lk;  // the same kernel, one level less
  --below.levels;
  const LocalCost product = sequential_local_cost(hm, hn, hk, below, mp);
  // Winograd as fast_gemm_schedules.hpp runs it: the deepest level (its products are
  // DGEMM calls) uses the accumulate schedule, 8 C-quadrant touches instead
  // of 14 (11 when fused); a fused level reads each operand quadrant once,
  // 8 + 8 operand touches instead of 12 + 12 (6 + 6 streaming).
  const bool deepest = !level_applies(hm, hn, hk, below);
  if (deepest && lk.packed()) {  // fused into the packed GEMM: no pass
    // Measured as a whole where tune timed one (MachineParams::packed_level_speed),
    // at DGEMM's rate for the level's whole product over that speed.
    if (mp.packed_level_speed > 0) return {refined_dgemm_time(m, n, k, 1, mp) / mp.packed_level_speed, 0.0};
    return {7.0 * product.leaves_s, 0.0};
  }
  const bool fused = local::fuses_level(lk.fusion, deepest);
  const double operand_touches = fused ? fused_operand_touches(4, lk.streaming) : 12.0;
  const double c_touches = deepest ? 8.0 : fused ? 11.0 : 14.0;
  const double touches = lk.winograd() ? operand_touches * (hm * hk + hk * hn) + c_touches * hm * hn
                                       : 15.0 * hm * hk + 15.0 * hk * hn + 17.0 * hm * hn;
  return {7.0 * product.leaves_s, 7.0 * product.additions_s + refined_add_time(touches / 3.0, mp)};
}

}  // namespace

double add_speedup(int threads, const MachineParams& mp) {
  const int t = std::max(1, threads);
  if (!(mp.add_thread_speedup > 0) || mp.add_thread_speedup_threads < 2) return thread_speedup(t, mp);
  return linear_to_measured(t, mp.add_thread_speedup_threads, mp.add_thread_speedup);
}

double refined_local_time(double m, double n, double k, int threads, const LocalKernel& lk, const MachineParams& mp) {
  if (!level_applies(m, n, k, lk)) return leaf_time(m, n, k, threads, lk, mp);
  if (threads <= 1) {
    const LocalCost one = sequential_local_cost(m, n, k, lk, mp);
    return one.leaves_s + one.additions_s;
  }
  // The parallel top level (fast_gemm_parallel.cpp, multiply_parallel_top): seven
  // products below it on one thread each, its own passes fused and split.
  const double hm = std::floor(m / 2), hn = std::floor(n / 2), hk = std::floor(k / 2);
  LocalKernel below = lk;
  --below.levels;
  const LocalCost product = sequential_local_cost(hm, hn, hk, below, mp);
  const int sums = lk.winograd() ? 4 : 5;  // operand sums per side
  const double touches = fused_operand_touches(sums, lk.streaming) * (hm * hk + hk * hn) + 11.0 * hm * hn;
  const double leaves = 7.0 * product.leaves_s;
  const double additions = 7.0 * product.additions_s + refined_add_time(touches / 3.0, mp);
  return leaves / thread_speedup(threads, mp) + additions / add_speedup(threads, mp);
}

namespace {

// Latency and throughput of the MPI regime a message of `doubles` falls in.
struct Regime {
  double latency_s, tau;
};

// Whether a message of `doubles` goes eagerly (below the profile's measured
// break; false where the profile knows no break).
bool is_eager(double doubles, const MachineParams& mp) {
  return mp.eager_limit_bytes > 0 && 8.0 * doubles <= static_cast<double>(mp.eager_limit_bytes);
}

// one_way: the regime's own throughput (refined_one_way_message_time), not
// capped by tau.
Regime regime_of(double doubles, const MachineParams& mp, bool one_way = false) {
  Regime rg{mp.latency_s, mp.tau};
  if (mp.eager_limit_bytes > 0) {
    const bool eager = is_eager(doubles, mp);
    const double l = eager ? mp.latency_eager_s : mp.latency_rendezvous_s;
    if (l > 0) rg.latency_s = l;
    const double regime_tau = eager ? mp.tau_eager : mp.tau_rendezvous;
    rg.tau = one_way && regime_tau > 0 ? regime_tau : tau_capped(regime_tau, mp);
  } else if (one_way && mp.tau_rendezvous > 0) {
    // One regime fitted (break 0): its values, which the ping-pong measured
    // one way, stand for every size.
    if (mp.latency_rendezvous_s > 0) rg.latency_s = mp.latency_rendezvous_s;
    rg.tau = mp.tau_rendezvous;
  }
  require(rg.tau > 0, [&] { return "refined model: network throughput tau = " + to_string(rg.tau) +
                          " doubles/s; needs tau > 0 (a profile tuned with one rank has no network values)"; });
  return rg;
}

}  // namespace

double refined_message_time(double doubles, const MachineParams& mp) {
  if (doubles <= 0) return 0.0;
  const Regime rg = regime_of(doubles, mp);
  return rg.latency_s + doubles / rg.tau;
}

double refined_one_way_message_time(double doubles, const MachineParams& mp) {
  if (doubles <= 0) return 0.0;
  const Regime rg = regime_of(doubles, mp, true);
  return rg.latency_s + doubles / rg.tau;
}

// Eqs. 2.12/2.13 with the overlap of ring.cpp.
Prediction refined_ring(double m, double n, double k, int p, int threads, const MachineParams& mp,
                        const LocalKernel& lk) {
  return refined_ring_chunked(m, n, k, p, threads, mp, lk, 0);
}

int ring_chunks_by_model(double m, double n, double k, int p, int threads, const MachineParams& mp,
                         const LocalKernel& lk) {
  if (p < 2) return 0;
  return refined_ring_chunked(m, n, k, p, threads, mp, lk, 1).total() <
                 refined_ring_chunked(m, n, k, p, threads, mp, lk, 0).total()
             ? 1
             : 0;
}

Prediction refined_ring_chunked(double m, double n, double k, int p, int threads, const MachineParams& mp,
                                const LocalKernel& lk, int most_chunks) {
  const double bm = std::ceil(m / p), bn = std::ceil(n / p);
  // The first p - 1 steps multiply in column chunks (space/ring_chunks.hpp),
  // overlapping the shift; the last step in one piece.
  const double whole = refined_local_time(bm, bn, k, threads, lk, mp);
  if (p == 1) return {0.0, whole};
  const double chunks =
      double(space::ring_chunks(static_cast<std::int64_t>(bn), false, lk.levels, lk.min_dim, most_chunks));
  const double step = chunks * refined_local_time(bm, std::ceil(bn / chunks), k, threads, lk, mp);
  // Every rank shifts at once; the step waits for the slowest shift (on a
  // two-level network the one that leaves a node). Of the shorter of shift
  // and multiply, the overlap fraction tune measured at the shift's size is
  // hidden behind the longer (1: max(shift, step); 0: their sum, e.g. a TCP
  // stack on the rank's core).
  // Open MPI moves a rendezvous message only inside an MPI call (ring.cpp):
  // a step of one chunk makes none while it multiplies, so it hides nothing
  // of a shift above the eager limit (all of them where the profile knows
  // no limit). Example: n = 2048 on 2 ranks with a local level of cutoff
  // 768: one chunk of 1024 columns, 16.8 MB shifted after it.
  const double shift = traffic_time(k * bn, ring_shift_traffic(p, mp.network.ranks_per_node), p, mp);
  const double overlap = chunks > 1 || is_eager(k * bn, mp) ? mp.shift_overlap.at(k * bn * sizeof(double)) : 0.0;
  const double hidden = overlap * std::min(shift, step);
  return {(p - 1) * (shift - hidden), (p - 1) * step + whole};
}

// Eqs. 2.14/2.15: p DGEMMs, p - 1 swaps, no overlap.
Prediction refined_tpmm(double m, double n, double k, int p, int threads, const MachineParams& mp,
                        const LocalKernel& lk) {
  const double bm = std::ceil(m / p), bn = std::ceil(n / p);
  if (!mp.network.two_level() || p <= 1) {
    const double swap = p > 1 ? refined_message_time(k * bn, mp) : 0.0;
    return {(p - 1) * swap, p * refined_local_time(bm, bn, k, threads, lk, mp)};
  }
  // Two levels (eq. 2.2): p / (2d) swaps at distance d = 1, 2, 4, .., p/2;
  // the near ones stay inside a node, the far ones put every rank of a
  // node on its link at once.
  double comm = 0;
  for (int d = 1; d < p; d *= 2)
    comm += double(p / (2 * d)) * traffic_time(k * bn, pairwise_traffic(p, d, mp.network.ranks_per_node), p, mp);
  return {comm, p * refined_local_time(bm, bn, k, threads, lk, mp)};
}

namespace {

// PDGEMM's communication on a two-level network: the volume, startups and
// (lb above the cap) exposed pipeline ends of refined_pdgemm, each stage
// priced by the level it crosses. Ranks are row-major (rank = i pc + j): a
// process row is pc consecutive ranks, a process column pc ranks apart; the
// pr rows broadcast A's panels at once, the pc columns B's, each a binomial
// tree (tree_time) each of whose stages moves a process's whole share of
// A (m k / pr) or B (k n / pc), the owners' pieces one after another
// (refined_pdgemm, one level, says why), in `panels` panel messages per
// stage. The ring hops of the pipeline's ends: pc - 1 along a row, of
// which (nodes the row spans) - 1 cross nodes, with every rank of a node on
// its link; the same down a column. Example: R = 2 on 2 x 4: a row's tree
// has 2 stages, the first across nodes (one sender per node), the second
// inside them; a column's 1 stage crosses nodes (both ranks of a node send).
// The broadcast steps of PDGEMM's lb panels: one per panel; a panel wider
// than the cap (fewer than kLbPanelsPerProcess per share) is gathered from
// several owners, one broadcast each, so no fewer than max(pr, pc) steps.
double pdgemm_steps(double panels, int lb, double cap, int pr, int pc) {
  return lb <= cap ? panels : std::max(panels, double(std::max(pr, pc)));
}

// PBLAS's panel workspaces that glibc maps afresh (core/lb_in_force.hpp,
// mapped_afresh), each written to new pages at the profile's first-touch
// rate. PBLAS takes A's panel (ceil(m / pr) x width) and B's (width x
// ceil(n / pc)) once per call; on one process row it takes B's, whose rows
// are all local, once per panel and once more, and on one process column
// A's likewise (counted with strace, docs/results.md, "PDGEMM's panels on
// one row"). 0 without a first-touch rate. Example: 1 x 2, m = n = k =
// 8192, lb 1024: A's panel 8192 x 1024 (64 MiB) once, B's 1024 x 4096
// (32 MiB) 9 times: 352 MiB, 1.4 s at 0.25 GB/s.
double mapped_panels_time(double lm, double ln, double width, double panels, int pr, int pc, const MachineParams& mp) {
  if (!(mp.first_touch_bytes_per_s > 0)) return 0.0;
  const double a_bytes = 8.0 * lm * width, b_bytes = 8.0 * width * ln;
  const double a_times = pc == 1 ? panels + 1 : 1.0, b_times = pr == 1 ? panels + 1 : 1.0;
  const double bytes =
      (mapped_afresh(a_bytes) ? a_times * a_bytes : 0.0) + (mapped_afresh(b_bytes) ? b_times * b_bytes : 0.0);
  return bytes / mp.first_touch_bytes_per_s;
}

double two_level_pdgemm_comm(double m, double n, double k, int pr, int pc, int nb, int lb, int threads,
                             const MachineParams& mp) {
  const int r = mp.network.ranks_per_node, p = pr * pc;
  const double lm = std::ceil(m / pr), ln = std::ceil(n / pc);
  const double a_words = pc > 1 ? m * k / pr : 0.0, b_words = pr > 1 ? k * n / pc : 0.0;
  auto stages = [&](double panel_messages) {
    return tree_time(a_words, panel_messages, pc, 1, pr, p, mp) + tree_time(b_words, panel_messages, pr, pc, pc, p, mp);
  };
  const double panels = std::ceil(k / lb);
  const double cap = double(lb_cap(static_cast<std::int64_t>(k), pr, pc, nb));
  if (lb <= cap) return stages(panels);
  const double steps = pdgemm_steps(panels, lb, cap, pr, pc);
  const LinkPrice in = intra_price(Traffic{std::min(r, p), 0, 0.0}, mp);
  const LinkPrice out = inter_price(all_ranks_across_traffic(p, r), p, mp);
  auto nodes_spanned = [&](int members, int stride) {
    const int per_node = members_per_node(members, stride, r);
    return (members + per_node - 1) / per_node;
  };
  const int row_nodes = nodes_spanned(pc, 1), col_nodes = nodes_spanned(pr, pc);
  auto hops = [&](int members, int nodes, double words) {
    return (members - nodes) * in.time(words) + (nodes - 1) * out.time(words);
  };
  auto ends = [&](double width) {
    return hops(pc, row_nodes, lm * width) + hops(pr, col_nodes, width * ln) +
           refined_dgemm_time(lm, ln, width, threads, mp);
  };
  const double exposed = std::max(0.0, ends(std::min<double>(lb, k)) - ends(std::min(cap, k)));
  return stages(steps) + exposed;
}

}  // namespace

// Eqs. 2.16/2.17 with lb panels.
Prediction refined_pdgemm(double m, double n, double k, int pr, int pc, int nb, int lb, int threads,
                          const MachineParams& mp) {
  require(pr >= 1 && pc >= 1 && nb >= 1 && lb >= 1, [&] { return "refined_pdgemm: grid " + to_string(pr) + " x " +
                                                        to_string(pc) + ", nb " + to_string(nb) + ", lb " +
                                                        to_string(lb) + ": each needs >= 1"; });
  const double lm = std::ceil(m / pr), ln = std::ceil(n / pc);
  const double p = double(pr) * pc;
  // The whole local update runs in panels of width lb; price all of its
  // flops at the rate of one panel update -- unless PBLAS makes no panels:
  // where neither A's k columns nor B's k rows span two processes (PBLAS's
  // PB_CpgemmAB, "no need to pack the data"), it calls one local DGEMM with
  // the whole k, whatever lb. That is every PDGEMM on 1 x 1, and k within
  // one block. Example: 1 x 1, n = 1024, lb = 32 on the 2-core VM ran at
  // DGEMM's speed, where 32 panels of k = 32 were priced 50 % slower.
  const bool a_in_one_column = pc == 1 || k <= nb, b_in_one_row = pr == 1 || k <= nb;
  const bool makes_panels = !(a_in_one_column && b_in_one_row);
  const double width = makes_panels ? std::min<double>(lb, k) : k;
  const double rate = dgemm_rate(lm, ln, width, mp) * thread_speedup(threads, mp);
  const double panels = std::ceil(k / lb);
  const double comp =
      2.0 * m * n * k / p / rate + (makes_panels ? mapped_panels_time(lm, ln, width, panels, pr, pc, mp) : 0.0);
  const double lr = std::log2(double(pr)), lc = std::log2(double(pc));
  if (p == 1) return {0.0, comp};
  if (mp.network.two_level()) return {two_level_pdgemm_comm(m, n, k, pr, pc, nb, lb, threads, mp), comp};
  // One panel message: an lb-wide slice of the local A or B block.
  // The panels' owners take turns: PBLAS assembles each panel in a
  // workspace from every owner's piece, one broadcast per piece (BLACS,
  // blocking; a piece of hundreds of KiB goes in the rendezvous protocol),
  // and updates C once the panel is whole. So per panel a process waits for
  // its row's whole panel once per stage of the tree (log2 pc stages: its
  // own piece going out, the others' coming in, one after another), and the
  // same down its column: eq. 2.17's volume. On a grid of one row or one
  // column, one message is on the network at a time and has the link to
  // itself (the ping-pong's one-way rate); on a 2-D grid the rows broadcast
  // at once and share it (tau, capped by the all-to-all rate).
  // Example: 1 x 2, n = 2048 across two nodes on 1 Gbit/s links: each
  // process waits for 2048 x 2048 doubles (33.6 MB: its half of A going
  // out, the other half coming in), 0.28 s at 119 MB/s. Counting only what
  // a process receives (half of that) at the all-to-all rate, as if both
  // ways ran at once, gave 0.23 s: optimistic against the runs across
  // nodes (docs/results.md, "PDGEMM's broadcasts take turns").
  const bool one_message_at_a_time = pr == 1 || pc == 1;
  const Regime rg = regime_of(std::max(lm, ln) * std::min<double>(lb, k), mp, one_message_at_a_time);
  const double startup = rg.latency_s;
  const double volume = (lc * m * k / pr + lr * k * n / pc) / rg.tau;
  const double cap = double(lb_cap(static_cast<std::int64_t>(k), pr, pc, nb));
  if (lb <= cap) return {volume + panels * (lr + lc) * startup, comp};
  // Wider than the cap: fewer than kLbPanelsPerProcess panels per process
  // share. A panel wider than a share is gathered from several owners, one
  // broadcast each: no fewer startups than owners (max(pr, pc)). And the
  // ends of the panel sequence grow with the panel: a broadcast's root
  // goes on to its update while the others still forward, so ranks drift
  // apart and narrow panels hide part of each hop, but the first panel's
  // hops ((pc - 1) along the row, (pr - 1) along the column) hide behind
  // no update, and the last panel's update runs after every rank waited for
  // it. The model above holds with the cap's panel; the difference is
  // exposed time. (Without this price the model ranks wide panels first,
  // where runs find them slower: docs/results.md, the same section.)
  // On one row or one column nothing is exposed: the volume above already
  // has every process wait for each whole panel and then update with it,
  // one after the other, whatever lb. Runs that keep PBLAS's freed panels
  // agree: on 1 x 2 lb 64 to 1024 ran within a few per cent of each other
  // at n = 2048 and 4096, their DGEMMs at one rate (docs/results.md,
  // "PDGEMM's panels on one row"); only panels glibc maps afresh cost more
  // (mapped_panels_time, in comp).
  const double steps = pdgemm_steps(panels, lb, cap, pr, pc);
  if (one_message_at_a_time) return {volume + steps * (lr + lc) * startup, comp};
  auto ends = [&](double width) {
    return (pc - 1) * refined_message_time(lm * width, mp) + (pr - 1) * refined_message_time(width * ln, mp) +
           refined_dgemm_time(lm, ln, width, threads, mp);
  };
  const double exposed = std::max(0.0, ends(std::min<double>(lb, k)) - ends(std::min(cap, k)));
  return {volume + steps * (lr + lc) * startup + exposed, comp};
}

namespace {

void check_split(int p, int r, int level, const char* who) {
  require(p >= 4, [&] { return std::string(who) + ": r = " + to_string(r) + " needs a group of >= 4 ranks at level " +
                      to_string(level) + ", got " + to_string(p); });
}

// space::max_partners_1d walks the ranks of a group (O(p)); the ranking asks
// the same question for every lb and r of a candidate list, so the answers
// are kept (per thread, bounded).
int partners_cached(std::int64_t rows, int sa, int sb) {
  thread_local std::map<std::tuple<std::int64_t, int, int>, int> cache;
  const auto key = std::make_tuple(rows, sa, sb);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (cache.size() > 100000) cache.clear();
  return cache[key] = space::max_partners_1d(rows, sa, sb);
}

// The recursion meets the same (level, group size) many times (the groups
// of a split differ by a rank or two): memo holds each once. Without it
// r = 6 at p = 100000 evaluates 4^6 leaves.
using Q7Memo = std::map<std::pair<int, int>, Prediction>;

struct Q7Walk {
  double m, n, k;
  int r;
  const LeafModel& leaf;
  const MachineParams mp;
  const Q7SplitPolicy& policy;
  Q7Memo memo;

  // One level on a group of p ranks with sizes halved `level` times.
  Prediction at(int p, int level) {
    if (auto it = memo.find({level, p}); it != memo.end()) return it->second;
    if (level == r) return memo[{level, p}] = leaf(size(m, level), size(n, level), size(k, level), p);
    check_split(p, r, level, "refined_strassen_q7");
    const int levels_to_go = r - level;
    Prediction best;
    if (!policy.choose) {
      best = split_cost(space::q7_split(p, levels_to_go, policy.use), level);
    } else {
      // The paper's split comes first among the candidates; a later one
      // must be better by more than rounding to replace it.
      const int min_group = level + 1 < r ? 4 : 1;
      std::optional<std::array<int, 4>> chosen;
      for (const std::array<int, 4>& g : space::q7_split_candidates(p, min_group)) {
        const Prediction c = split_cost(g, level);
        if (!chosen || c.total() < best.total() * (1.0 - 1e-9)) best = c, chosen = g;
      }
      require(chosen.has_value(), [&] { return "refined_strassen_q7: no split of " + to_string(p) + " ranks leaves " +
                                      to_string(min_group) + " or more in every group (r = " + to_string(r) + ")"; });
      (*policy.choose)[{levels_to_go, p}] = *chosen;
    }
    memo[{level, p}] = best;
    return best;
  }

  static double size(double x, int level) {
    for (int i = 0; i < level; ++i) x = std::ceil(x / 2);
    return x;
  }

  // Per task (T_C11, T_C12, T_C21, T_C22), counted from the formula tables
  // (space::strassen::task_work; the table in the header).
  Prediction split_cost(const std::array<int, 4>& g, int level) {
    static const std::array<space::strassen::TaskWork, 4> work = {
        space::strassen::task_work(space::strassen::Schema::q7, 0), space::strassen::task_work(space::strassen::Schema::q7, 1),
        space::strassen::task_work(space::strassen::Schema::q7, 2), space::strassen::task_work(space::strassen::Schema::q7, 3)};
    const double hm = size(m, level + 1), hn = size(n, level + 1), hk = size(k, level + 1);
    const int largest = *std::max_element(g.begin(), g.end());
    const int parent = g[0] + g[1] + g[2] + g[3];  // the level's group
    // The groups run independently after the operand transfers: the level
    // takes the slowest group's time. (Taking the maxima of communication
    // and computation separately would let a split that is best for a
    // subgroup be worse for its parent, and the choice would stop being
    // optimal level by level.)
    double comm_top = 0;
    // Two levels: the level's transfers are one exchange phase (all of a
    // level's moves are in flight at once, algos/strassen_redistribution_transport.cpp):
    // what the busiest group's ranks receive against their node links, and
    // what all groups receive against the backbone (exchange_time).
    const bool two = mp.network.two_level();
    double total_in = 0;
    std::array<double, 4> rank_in{}, messages{};
    Prediction slowest{0.0, 0.0};
    for (int t = 0; t < 4; ++t) {
      const Prediction sub = at(g[t], level + 1);
      const space::strassen::TaskWork& w = work[t];
      const double sums = w.a_sums * refined_add_time(hm * hk / g[t], mp) +
                          w.b_sums * refined_add_time(hk * hn / g[t], mp) +
                          w.c_sums * refined_add_time(hm * hn / g[t], mp);
      const Prediction group{w.products * sub.comm_s, sums + w.products * sub.comp_s};
      if (group.total() > slowest.total()) slowest = group;
      const double quad = std::max({hm * hk, hk * hn, hm * hn});
      const int partners = std::max(1, partners_cached(static_cast<std::int64_t>(hm), g[t], largest));
      const int arriving = w.quadrants_in + w.products_in;
      if (two) {
        rank_in[t] = arriving * quad / g[t];
        messages[t] = double(arriving) * partners;
        total_in += arriving * quad;
        continue;
      }
      const double one = partners * refined_message_time(quad / g[t] / partners, mp);
      comm_top = std::max(comm_top, arriving * one);
    }
    if (two)
      for (int t = 0; t < 4; ++t) comm_top = std::max(comm_top, exchange_time(rank_in[t], messages[t], total_in, parent, mp));
    return {comm_top + slowest.comm_s, slowest.comp_s};
  }
};

}  // namespace

Prediction refined_strassen_q7(double m, double n, double k, int p, int r, const LeafModel& leaf,
                               const MachineParams& mp, const Q7SplitPolicy& policy) {
  require(r >= 0, [&] { return "refined_strassen_q7: r = " + to_string(r) + ", needs r >= 0"; });
  // The groups of a level transfer at the same time (inter_price).
  Q7Walk walk{m, n, k, r, leaf, for_job(mp, p), policy, {}};
  return walk.at(p, 0);
}

namespace {

// The moves of one Q8 subproblem on a group of pl ranks on a two-level
// network (mp.network.two_level()): quarters of q = pl / 4 ranks, rank j of
// one quarter partnered with rank j of another, the moves of the formula
// tables (space::strassen::derive_moves: the busiest task receives 6
// shares, the four 16). A move stays inside a node where its partners share
// one (quarters smaller than a node); the others are one exchange phase
// (exchange_time), the ones inside priced at the node's rate at once; the
// two proceed side by side. Example: R = 2, pl = 4 (quarters of one rank):
// T_C11 (rank 0) gets A12 and Q5 from rank 1, inside its node, and A22,
// B21, B22, Q4 from ranks 2 and 3, across.
double q8_exchange_time(double share, std::int64_t pl, const MachineParams& mp) {
  using space::strassen::Move;
  const int r = std::max(1, mp.network.ranks_per_node);
  const std::int64_t q = std::max<std::int64_t>(1, pl / 4);
  static const space::strassen::LevelMoves moves = space::strassen::derive_moves(space::strassen::Schema::q8);
  std::array<double, 4> inter{}, intra{};
  double inter_total = 0;
  for (const std::vector<Move>* list : {&moves.a, &moves.b, &moves.products})
    for (const Move& mv : *list) {
      std::int64_t inside = 0;  // partner pairs of this move that share a node
      if (q < r)
        for (std::int64_t j = 0; j < q; ++j) inside += (mv.from * q + j) / r == (mv.to * q + j) / r;
      if (inside < q) inter[mv.to] += 1;  // the busiest rank of the receiving quarter
      if (inside > 0) intra[mv.to] += 1;
      inter_total += double(q - inside);
    }
  const double busiest_inter = *std::max_element(inter.begin(), inter.end());
  const double busiest_intra = *std::max_element(intra.begin(), intra.end());
  const double across =
      busiest_inter > 0 ? exchange_time(busiest_inter * share, busiest_inter, inter_total * share, int(pl), mp) : 0.0;
  const double inside = busiest_intra > 0 ? intra_price(Traffic{int(std::min<std::int64_t>(r, pl)), 0, 0.0}, mp)
                                                .time(busiest_intra * share, busiest_intra)
                                          : 0.0;
  return std::max(across, inside);
}

}  // namespace

Prediction refined_strassen_q8(double m, double n, double k, int p, int r, const LeafModel& leaf,
                               const MachineParams& mp) {
  require(r >= 0, [&] { return "refined_strassen_q8: r = " + to_string(r) + ", needs r >= 0"; });
  std::int64_t four_r = 1;
  for (int i = 0; i < r && four_r <= p; ++i) four_r *= 4;
  require(four_r <= p && p % four_r == 0, [&] { return "refined_strassen_q8: p = " + to_string(p) + " with r = " +
                                              to_string(r) + ", schema Q8 needs p divisible by 4^r"; });
  // Per rank, every level moves and adds the same share: (m/2)(k/2)/(p/4).
  const double share = std::max({m * k, k * n, m * n}) / p;
  const double per_sub = 8.0 * refined_message_time(share, mp);
  const double sums = 7.0 * refined_add_time(share, mp);
  const double subproblems = std::ldexp(1.0, r) - 1;  // sum_{l<r} 2^l
  // Two levels: a subproblem's moves are one exchange phase (as Q7's):
  // the busiest task (T_C11: 8 shares, one message each, partners in other
  // quarters) against its node link, what all four groups receive against
  // the backbone; level l's 2^l subproblems run on groups of p / 4^l ranks,
  // all groups of the level at once (the job's backbone).
  double moves = subproblems * per_sub;
  if (mp.network.two_level()) {
    const MachineParams job = for_job(mp, p);
    moves = 0;
    std::int64_t pl = p;
    for (int l = 0; l < r; ++l, pl /= 4) moves += std::ldexp(1.0, l) * q8_exchange_time(share, pl, job);
  }
  double lm = m, ln = n, lk = k;
  for (int i = 0; i < r; ++i) lm = std::ceil(lm / 2), ln = std::ceil(ln / 2), lk = std::ceil(lk / 2);
  const Prediction cut = leaf(lm, ln, lk, static_cast<int>(p / four_r));
  const double copies = std::ldexp(1.0, r);
  return {moves + copies * cut.comm_s, subproblems * sums + copies * cut.comp_s};
}

}  // namespace mmbench::model
