// The refined cost model: what the code really does, priced with what the
// tuner measured (docs/method.md §7.6). The paper model (paper_model.hpp)
// stays exactly as printed; this one differs from it on purpose:
//
// - DGEMM rate: looked up in the machine's DGEMM profile at the point nearest
//   to the actual local shape (distance in log m, log n, log k); 1 / t_op
//   when there is no profile. Scaling with BLAS threads by the measured
//   parallel efficiency where the profile has one (thread_speedup), ideal
//   otherwise.
// - Matrix additions: memory-bound, 24 bytes per element (read two, write
//   one) at the measured add bandwidth; the paper's one t_op per element when
//   the bandwidth was not measured.
// - Messages: lambda and tau of the MPI regime (eager / rendezvous) the
//   message falls in, where measured; tau is capped by the paper's tau
//   (the all-to-all rate under load), because every algorithm here sends on
//   all ranks at once and cannot beat the loaded network. A pairwise
//   exchange (send and receive at once, full duplex) costs one message time,
//   where the paper counts two. On a two-level network (mp.network, where
//   the profile has one) each algorithm prices its own steps by the level
//   their messages cross and the flows sharing their links instead
//   (model/network_traffic.hpp): ring's shift, tpMM's swaps by distance,
//   PDGEMM's and 2.5D's broadcast stages, Strassen's exchange phases.
// - Overlap where the code overlaps (Ring: max(shift, DGEMM) per step, as
//   far as tune measured transfers to move during computation).
// - Local Strassen levels priced level by level with their additions
//   (refined_local_time), not as a flat 8/7 per level.
// - Actual group sizes (Q7: space::q7_group_sizes or the split the run
//   uses), actual recursion counts
//   (Q8 level l runs 2^l subproblems), ceil() of uneven splits.
//
// Every function returns a Prediction whose comm_s is the communication time
// NOT hidden behind computation, so total() = comm_s + comp_s stays the
// predicted wall time. Units as in machine_params.hpp.
#pragma once

#include <cstdint>
#include <functional>

#include "space/strassen_groups.hpp"
#include "local/fast_gemm.hpp"
#include "model/machine_params.hpp"
#include "model/prediction.hpp"

namespace mmbench::model {

// Flops per second of one DGEMM(m, n, k) on one thread: the mflops of the
// profile point nearest to (m, n, k) in log space -- moved to (m, n, k) by
// the kernel model's shape dependence where the profile has one
// (mp.dgemm_shape_fit: times fit rate at (m, n, k) / fit rate at the
// point) -- else 1 / t_op; times busy_core_speed(mp.busy_cores). Throws
// std::invalid_argument when neither exists (t_op <= 0 and no profile).
//   profile {(1000,1000,32): 2000 MFLOPS, (1000,1000,256): 3000 MFLOPS}
//   rate(1000, 1000, 200) = 3e9 (|ln 200/256| = 0.25 < |ln 200/32| = 1.83)
double dgemm_rate(double m, double n, double k, const MachineParams& mp);

// How much faster a core computes with `busy` cores of its node busy than
// it did while the profile was timed (P = mp.profiled_busy_cores busy):
// peak(busy) / peak(P) from mp.peak_per_core_by_busy, counts beyond the
// ladder at its last entry, times DGEMM's own sharing s =
// mp.dgemm_busy_sharing at busy = 1, where tune measured it (DGEMM alone);
// between 1 and P the ladder's ratio alone (docs/cost-models.md, "Busy
// cores", says why). 1 where either count or the ladder is missing.
// Examples: a 16-core node tuned on 16 ranks, ladder 1: 84.2, 4: 64.1,
// 16: 42.5 GFLOP/s per core, s = 1:
// busy_core_speed(4) = 64.1 / 42.5 = 1.51 -- the p = 4 runs there ran 1.5x
// faster per core than the profile's prices said. A 2-core node tuned on 2
// ranks, ladder 56.1, 55.0, DGEMM 51.6 alone and 47.5 per core with both
// busy: s = (51.6 / 47.5) / (56.1 / 55.0) = 1.065, busy_core_speed(1) =
// 1.020 x 1.065 = 1.086 (the FMA loop alone would say 1.020).
double busy_core_speed(int busy, const MachineParams& mp);

// How much faster `threads` BLAS threads run a DGEMM than one: threads x
// efficiency(threads). Without a measured efficiency (mp.thread_efficiency
// 0): threads (ideal scaling, exactly as before the measurement existed).
// With one, E measured at T threads: efficiency(t) = 1 + (E - 1) (t - 1) /
// (T - 1) for t <= T (linear between one thread, which is 100 %, and T), and
// E for t > T. threads < 1 counts as 1.
// Example: E = 0.9 at T = 2: speedup(1) = 1, speedup(2) = 1.8, speedup(4) = 3.6.
double thread_speedup(int threads, const MachineParams& mp);

// How much faster `threads` threads of one rank run the local kernel's
// addition passes than one: memory-bound passes share the memory bus, so
// this is the measured ratio S = mp.add_thread_speedup at
// T = mp.add_thread_speedup_threads threads, linear from 1 at one thread to
// S at T, and S beyond T (more threads than the measured cores find no more
// bandwidth). Not measured (add_thread_speedup 0): thread_speedup(threads),
// the price before the measurement existed. threads < 1 counts as 1.
// Example: S = 1.4 at T = 2: add_speedup(1) = 1, add_speedup(2) = 1.4,
// add_speedup(4) = 1.4.
double add_speedup(int threads, const MachineParams& mp);

// Eq. 2.10 refined: 2 m n k / (rate(m, n, k) * thread_speedup(threads)).
double refined_dgemm_time(double m, double n, double k, int threads, const MachineParams& mp);

// Eq. 2.11 refined: one addition of `elements` elements per rank,
// 24 * elements / add_bytes_per_s (paper: elements * t_op when not measured).
double refined_add_time(double elements, const MachineParams& mp);

// Eq. 2.8 refined: one message of `doubles` doubles in its regime:
//   bytes <= eager_limit -> latency_eager + s / min(tau_eager, tau)
//   else                 -> latency_rendezvous + s / min(tau_rendezvous, tau)
// Regime values of 0 fall back to latency_s / tau.
double refined_message_time(double doubles, const MachineParams& mp);

// One message on a link that carries nothing the other way meanwhile: a
// stage of a binomial broadcast or reduction, where a rank either sends or
// receives. The regime's own throughput, not capped by tau: the ping-pong
// sweep measured it this way, one direction at a time, while tau (the
// all-to-all's) is what a rank gets when it sends and receives at once.
// Example: on two nodes linked at 1 Gbit/s with one core each, the
// ping-pong's rendezvous regime carried 124 MB/s and the all-to-all 69 MB/s
// per rank; 2.5D's replication of A (8 MB) takes 0.065 s, not 0.116 s.
// One regime fitted (eager_limit_bytes 0, tau_rendezvous > 0): its latency
// and throughput at every size. Without regime values, as
// refined_message_time.
double refined_one_way_message_time(double doubles, const MachineParams& mp);

// The local fast kernel inside a rank (local/fast_gemm.hpp): up to `levels`
// Strassen-Winograd (or classic Strassen) levels, a level only while
// min(m, n, k) >= min_dim.
struct LocalKernel {
  int levels = 0;
  std::int64_t min_dim = local::FastGemmConfig{}.min_dim;  // the kernel's default cut-off
  local::FastVariant variant = local::FastVariant::winograd;
  local::FastGemmConfig::Fusion fusion = local::FastGemmConfig{}.fusion;  // the kernel's default schedule
  bool streaming = local::FastGemmConfig{}.streaming_stores;  // the kernel's default stores
  // The packed GEMM at the bottom (FastGemmConfig::leaf = packed): the
  // deepest level makes no pass (its sums ride along the packing, its
  // products go into C from registers), and its products are priced at the
  // profile's DGEMM rate times the packed GEMM's measured speed relative to
  // DGEMM (MachineParams::packed_speed, tune's packed step), or at DGEMM's
  // rate where the profile has no such measurement; where tune also timed
  // one fused level (MachineParams::packed_level_speed), the deepest level
  // is priced as a whole at DGEMM's rate for its product over that speed.
  local::LeafGemm gemm = local::LeafGemm::blas;
  bool packed() const { return gemm == local::LeafGemm::packed; }
  bool winograd() const { return variant == local::FastVariant::winograd; }
};

// One local multiply C = A B (m x k times k x n) with the kernel `lk` on
// `threads` threads, priced the way the kernel (local/fast_gemm_*.cpp) runs it:
//   no level applies -> refined_dgemm_time(m, n, k, threads)
//   a level          -> 7 products of (m/2, n/2, k/2), plus the level's
//                       additions: Winograd touches 8 A-quadrant,
//                       8 B-quadrant and 11 C-quadrant elements (reads +
//                       writes) at a level with fused operand sums (the
//                       default: every level; with streaming stores,
//                       --local-stores streaming, the operand passes are
//                       priced as 6 + 6, see refined_model.cpp), else 12,
//                       12 and 14; at the
//                       deepest level (products are DGEMM calls) only 8
//                       C-quadrant elements (the accumulate schedule: two
//                       products are added by DGEMM's beta), classic
//                       Strassen 15, 15 and 17; 8 bytes per touch at the
//                       add bandwidth (refined_add_time counts 3 touches
//                       per element). With the packed GEMM the deepest
//                       level has no additions (LocalKernel::packed()), and
//                       where tune timed one such level it is priced as a
//                       whole (MachineParams::packed_level_speed).
//   threads > 1      -> the top level runs its seven products on the
//                       threads at once, each product's levels below on one
//                       thread (fast_gemm_parallel.cpp, multiply_parallel_top), and
//                       its passes fused and split by columns: Winograd
//                       8 + 8 + 11 touches (6 + 6 + 11 streaming), classic
//                       Strassen 9 + 9 + 11 (6.75 + 6.75 + 11: five sums
//                       from four quadrants); no accumulate schedule there.
//                       The time is leaves / thread_speedup(threads) +
//                       additions / add_speedup(threads): DGEMM leaves scale
//                       with the threads, memory-bound passes less.
// Example (no profile, t_op = 1e-10, add 1e10 B/s, Winograd, 1 thread,
// streaming stores), 4096^3 with one level (the deepest): 7 * 2 * 2048^3 *
// 1e-10 = 12.03 s of products, (6 + 6 + 8) * 2048^2 * 8 / 1e10 = 0.07 s of additions:
// 12.10 s against 13.74 s of DGEMM (1.14x). With 2 threads and add_speedup
// 1.4 (thread_speedup 2): 12.03 / 2 + (6 + 6 + 11) * 2048^2 * 8 / 1e10 / 1.4
// = 6.01 + 0.055 s.
double refined_local_time(double m, double n, double k, int threads, const LocalKernel& lk, const MachineParams& mp);

// Ring on p ranks, C (m x n) = A (m x k) B (k x n), b_m = ceil(m/p),
// b_n = ceil(n/p) (the first ranks' blocks are the largest), thesis eqs.
// 2.12/2.13 with the overlap of the code (ring.cpp overlaps the shift with
// the DGEMM of the same step), as far as the transport lets it:
//   step = dgemm(b_m, b_n, k),  shift = message(k * b_n),
//   hidden = mp.shift_overlap.at(8 k b_n bytes) * min(step, shift)   (tune's, by size; 1 if not measured)
//   total = (p-1) * (step + shift - hidden) + step    (the last step has no shift)
// comp_s = p * step, comm_s = (p-1) * (shift - hidden); with overlap 1 that
// is (p-1) * max(0, shift - step), with 0 the plain sum.
// The local multiplies use the kernel lk (plain DGEMM by default).
// most_chunks caps the chunks a step (Options::ring_chunks; 0: up to 4).
Prediction refined_ring(double m, double n, double k, int p, int threads, const MachineParams& mp,
                        const LocalKernel& lk = {});
Prediction refined_ring_chunked(double m, double n, double k, int p, int threads, const MachineParams& mp,
                                const LocalKernel& lk, int most_chunks);

// --ring-chunks auto: 1 where the refined model prices ring in one chunk a
// step below ring in up to 4, else 0 (up to 4). Chunks hide the overlap
// fraction of the shift (all of it where none was measured) and cost
// narrower multiplies (a local level's cut-off keeps them no narrower than
// it, but a deep level may apply fewer times), so one chunk wins where the
// profile's overlap hides nothing, or where the multiplies lose more than
// the shift costs.
int ring_chunks_by_model(double m, double n, double k, int p, int threads, const MachineParams& mp,
                         const LocalKernel& lk);

// tpMM on p = 2^i ranks (eqs. 2.14/2.15): p DGEMMs of (ceil(m/p), ceil(n/p), k)
// and p-1 pairwise swaps of a B block (k * ceil(n/p) doubles), one message
// time each (both directions at once), not overlapped.
Prediction refined_tpmm(double m, double n, double k, int p, int threads, const MachineParams& mp,
                        const LocalKernel& lk = {});

// PDGEMM on pr x pc, block factor nb, logical block size lb (eqs. 2.16/2.17
// refined): computation 2mnk/(pr pc) at the profile rate of the local panel
// update DGEMM(ceil(m/pr), ceil(n/pc), lb) times thread_speedup(threads) --
// at DGEMM(m, n, k)'s where PBLAS makes no panels (pr = pc = 1, or k <= nb
// where a dimension of the grid is above 1: A's k columns and B's k rows
// each on one process, so one local DGEMM takes the whole k);
// communication the paper's volume
// (log2 pc * m k / pr + log2 pr * k n / pc) / tau plus ceil(k / lb) panel
// steps of (log2 pr + log2 pc) startups in the regime of one panel message
// (ceil(m/pr) * lb doubles). Not overlapped (the thesis found the
// non-overlapped model accurate for PBLAS on its machines).
// The paper writes ceil(n/nb) startups; PBLAS steps over k in panels of lb.
// An lb above lb_cap(k, pr, pc, nb) (core/lb_in_force.hpp: fewer than
// kLbPanelsPerProcess panels per process share) adds what such a panel
// loses, so the model never prefers a panel wider than a share:
//   startups: max(ceil(k / lb), max(pr, pc)) steps (a panel wider than a
//             share comes from several owners, one broadcast each);
//   exposed:  ends(min(lb, k)) - ends(min(cap, k)) with
//             ends(x) = (pc - 1) message(lm x) + (pr - 1) message(x ln)
//                       + DGEMM(lm, ln, x)
//             (the first panel's ring hops and the last panel's update,
//             which nothing overlaps), added to comm_s.
// At lb <= cap the prediction is the one above, unchanged.
// Example (t_op = 1e-9, one regime: latency 1e-5 s, tau 1e8 doubles/s),
// m = n = k = 1024 on 1 x 2, nb = 64: cap = 64 (share 512 / 8 panels);
// lm = 1024, ln = 512. lb = 512: 2 steps instead of the 16 panels at lb = 64
// (14 startups = 1.4e-4 s less); exposed = message(1024 x 512) -
// message(1024 x 64) + DGEMM(1024, 512, 512) - DGEMM(1024, 512, 64)
// = 4.6e-3 + 0.47 s, against comp 1.07 s: lb = 512 ranks below lb = 64.
Prediction refined_pdgemm(double m, double n, double k, int pr, int pc, int nb, int lb, int threads,
                          const MachineParams& mp);

// The cut-off algorithm at the bottom of a Strassen recursion, on a group of
// p ranks multiplying (m x k) (k x n).
using LeafModel = std::function<Prediction(double m, double n, double k, int p)>;

// Strassen schema Q7 with r levels (eqs. 2.20/2.21 refined). Each level
// halves m, n, k (ceil: the larger half) and splits the group into
// space::q7_group_sizes(p) = |G11|, |G12|, |G21|, |G22|. What each task
// does, from the formulas of docs/method.md §3.1 (T_Cij computes Cij),
// counted by space::strassen::task_work; an A sum costs one addition pass
// over the rank's share of an A quadrant, a B sum over a B quadrant share:
//   task   products  operand sums (A, B)  C sums   quadrants in  products in
//   T_C11  Q1, Q7    2, 2                 3        4             2 (Q4, Q5)
//   T_C12  Q3, Q5    1, 1                 1        2             0
//   T_C21  Q2, Q4    1, 1                 1        2             0
//   T_C22  Q6        1, 1                 3        4             3 (Q1, Q3, Q2)
// (the paper prices 7 sums on every big group and 5 on G22, and 9 transfers.)
// The slowest group (largest sums + products x leaf total) sets the level:
// comp = its sums + products x leaf comp; comm = max over groups of
// (transfers into it) + its products x leaf comm. A transfer of an h x h quadrant into group g costs one rank of g
// `partners` messages of h^2 / |g| / partners doubles each, partners =
// space::max_partners_1d(h, |g|, largest group) (at most 3, eq. 2.19).
// Requires every split to have >= 4 ranks (throws std::invalid_argument).
//
// The split of each group: policy.use's entry where it has one, else eq.
// 2.18 -- unless policy.choose is set: then every (level, group size) the
// recursion meets tries space::q7_split_candidates and keeps the split with
// the smallest predicted total (the paper's split unless another one is
// better by more than 1e-9 relative, so ties keep the thesis' rule), and
// writes it to *policy.choose (key: levels to go, group size), ready for
// space::Options::q7_splits.
struct Q7SplitPolicy {
  const space::Q7SplitTable* use = nullptr;
  space::Q7SplitTable* choose = nullptr;
};
Prediction refined_strassen_q7(double m, double n, double k, int p, int r, const LeafModel& leaf,
                               const MachineParams& mp, const Q7SplitPolicy& policy = {});

// Strassen schema Q8 with r levels on p = p' 4^r ranks (eqs. 2.22-2.24
// refined): level l (0-based) runs 2^l subproblems per group, each with 8
// pairwise transfers of (m_l k_l / p_l) doubles (partners hold equal
// layouts: one message each) and 7 sums, so the top costs
//   sum_l 2^l (8 message(A quadrant share) + 7 add(share))
// where the paper writes r (8 (lambda + n^2/p / tau) + 7 T_add(n, p)).
// Below: 2^r leaf calls on p' ranks with (m/2^r, n/2^r, k/2^r) (ceil).
// Requires p divisible by 4^r (throws std::invalid_argument).
Prediction refined_strassen_q8(double m, double n, double k, int p, int r, const LeafModel& leaf,
                               const MachineParams& mp);

}  // namespace mmbench::model
