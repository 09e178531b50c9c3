// The PDGEMM check of lb: time PDGEMM itself at the tuning size for the
// rule's lb and a few others, and keep the fastest; the same at n/2 and n/4,
// so that the profile records the best lb as a function of the size (the lb
// curve, lb_curve_from_checks below).
//
// Why: eq. 2.26 (tuner/lb_rule.hpp) looks at DGEMM alone. What PDGEMM wants
// also depends on its broadcasts (PBLAS uses lb for the panel width AND to
// pick its broadcast topology) and on how much of them it overlaps. On the
// 2-core VM the rule gave lb = 50 at n = 2048 while PDGEMM at n = 4096 ran
// 1.12x faster than with lb = 32 at lb = 50 and 1.3x at lb = 256. So the
// tuner asks PDGEMM.
//
// Candidates (lb_ladder): the rule's lb r, r/2 and r x 2, x 4, ... (factor 2)
// up to a width, at most 6, plus the library's default 32 as the reference;
// where the width leaves places free, r/4, r/8, ... above 32 take them.
// The tuner asks for four of them up to one panel per process share, and the
// default 8-panel cap of the size (lb_candidates below). Example: r = 78,
// width 2048 -> 32 (reference), 40, 78, 156, 312, 624, 1248.
//
// Measurement (check_lb_with_pdgemm): PDGEMM(n, n, n) on the tuning
// problem's grid, nb = 64 (run's default), one untimed warm-up call, then
// `rounds` rounds; round r calls every candidate once, in the order
// round_order(count, seed, r) (core/stats/paired_stats.hpp), so drift hits all
// candidates alike. A call's time is the maximum over ranks
// (time_max_over_ranks), so every rank holds the same numbers.
//
// Decision (decide_lb): per round, each candidate's speed relative to the
// reference of the same round, t(reference) / t(lb) (paired: both saw the
// same minute of the machine). Per candidate the median of these ratios over
// the rounds, with its distribution-free confidence interval. The chosen lb
// is the candidate with the highest median ratio; exactly equal medians go to
// the smaller lb. A smaller lb whose interval overlaps the best one's is NOT
// preferred: within the noise either could be faster, and the best median is
// the better bet (preferring small lb would pull the choice back towards the
// rule's early lb that this check exists to correct). The decision is taken
// on rank 0's numbers (identical on every rank) and broadcast.
//
// Cost: candidates x rounds PDGEMM calls plus the warm-up: at n = 4096 on 2
// ranks of the VM (~1.7 s per call) about 7 x 7 x 1.7 s = 85 s, at n = 2048
// about 12 s (estimates from the measured PDGEMM rates).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/lb_in_force.hpp"
#include "profile/lb_curve_record.hpp"
#include "profile/machine_profile.hpp"

namespace mmbench::tuner {


// The candidates above, sorted, without duplicates, the reference included
// (even if it is above width). rule_lb is clamped to [2, width]; other values
// are even, >= 2 and <= width. max_ladder counts the candidates besides the
// reference (r/2, r, 2r, ...). Throws std::invalid_argument for width < 1,
// rule_lb < 1, max_ladder < 1 or factor <= 1.
// Examples: (78, 2048) -> 32, 40, 78, 156, 312, 624, 1248
//           (64, 2048) -> 32, 64, 128, 256, 512, 1024
//           (16, 64)   -> 8, 16, 32, 64
//           (604, 512, 4) -> 32, 64, 128, 256, 512 (r clamped to 512)
std::vector<std::int64_t> lb_ladder(std::int64_t rule_lb, std::int64_t width, int max_ladder = 6,
                                    double factor = 2.0);

// The candidate that stands for the rule's lb in a check: the rule's lb
// itself, or, where it lies above the ladder's width (the cap of the
// tuning problem, which lb_ladder clamps it to), the largest candidate
// below it. Example: rule 292, candidates 32, 64, 128, 256 -> 256;
// rule 40 -> 40. 0 when no candidate is at or below rule_lb.
std::int64_t rule_candidate(const profile::LbCheckRecord& record, std::int64_t rule_lb);

// The candidates of the check at size n on a pr x pc grid: lb_ladder(rule,
// width, 4) up to one panel per process share (width = lb_cap(n, pr, pc,
// nb, 1)), with the default cap of that size (lb_cap(n, pr, pc, nb), 8
// panels) among them, and 32. Four around the rule's, the cap and 32: at
// most six, so that make run's tune stays within its time on slow machines.
// Example: rule 78, n = 4096 on 1 x 2, nb 64 (width 2048, cap 256) -> 32,
// 40, 78, 156, 256, 312.
std::vector<std::int64_t> lb_candidates(std::int64_t rule_lb, std::int64_t n, int pr, int pc, int nb);

// The sizes the lb curve is measured at, ascending: n/4, n/2 where they are
// at least kLbCurveMinN, and n itself. Example: 4096 -> 1024, 2048, 4096;
// 512 -> 256, 512; 128 -> 128.
inline constexpr std::int64_t kLbCurveMinN = 256;
std::vector<std::int64_t> lb_curve_sizes(std::int64_t n);

struct LbDecision {
  std::int64_t lb = 0;  // the chosen candidate
  std::vector<profile::LbCheckCandidate> candidates;  // in the order of lbs
  double coverage = 0;  // true coverage of the ratio intervals (all alike)
};

// The decision above from times[round][i] = seconds of candidate lbs[i] in
// that round; flops_per_rank = 2 n^3 / p (for mflops_median). Throws
// std::invalid_argument for no rounds, a round whose size differs from lbs,
// a reference not in lbs, or a time that is not finite and > 0.
LbDecision decide_lb(const std::vector<std::int64_t>& lbs, std::int64_t reference_lb,
                     const std::vector<std::vector<double>>& times, double flops_per_rank);

struct LbCheckOptions {
  std::int64_t n = 0;
  int pr = 0, pc = 0;
  int nb = 64;
  int rounds = 7;
  int warmup = 1;  // untimed calls before the first round (with the first candidate)
  std::uint64_t seed = 0x6c62636865636bULL;  // "lbcheck"
};

struct LbCheckOutcome {
  bool done = false;     // false: not run (reason says why); lb = rule_lb then
  std::string reason;
  std::int64_t lb = 0;
  profile::LbCheckRecord record;           // rounds == 0 when not done
  std::vector<std::vector<double>> times;  // [round][candidate], seconds
};

// Collective over comm: the measurement and decision above for lbs (from
// lb_ladder). Not run (done = false) when PDGEMM does not apply to the
// problem, when A, B, C would not fit in 90 % of the memory available to a
// rank, or when ScaLAPACK did not call mmbench's pilaenv_ (then lb had no
// effect and the times mean nothing). say(line), if set, is called on rank 0
// with one line per round. Every rank returns the same outcome. Throws
// std::invalid_argument for bad options (n, pr, pc, nb, rounds < 1, warmup <
// 0, pr * pc != ranks, lbs without the reference), MpiError on MPI failures.
LbCheckOutcome check_lb_with_pdgemm(const LbCheckOptions& options, const std::vector<std::int64_t>& lbs,
                                    std::int64_t rule_lb, MPI_Comm comm,
                                    const std::function<void(const std::string&)>& say);

// The lb curve a profile records (profile/lb_curve_record.hpp): one point
// per check that was done, {n, share = n / max(pr, pc), the check's best,
// its rounds}, ascending (the ceiling past the largest is the profile's
// reading of them, curve_of). Why a curve and not one lb: the best lb
// follows the problem in ways one panel count cannot hold, e.g. on two
// namespace nodes at 1 Gbit/s 32 at n = 1024 and 256 from 2048 on (16 and
// 4 panels per share), on the Zen 1 VM 512 at every n (1 to 8 panels).
// Checks not done are left out; none done: an empty curve.
profile::LbCurveRecord lb_curve_from_checks(const std::vector<LbCheckOutcome>& checks, int pr, int pc);

// The panels per share a profile records for readers that know no curve:
// share / lb, from 1 to 64, so that such a reader runs lb at the tuning size
// and proportionally less below it. Example: lb 512, share 2048 -> 4.
int lb_panels_without_curve(std::int64_t lb, std::int64_t share);

}  // namespace mmbench::tuner
