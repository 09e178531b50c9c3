#include "tuner/lb_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "algos/algorithm.hpp"
#include "algos/pilaenv_override.hpp"
#include "algos/registry.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/dist_matrix.hpp"
#include "core/matrix/generate.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/machine/sysinfo.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::tuner {

namespace {

std::int64_t even_at_least_2(double v) {
  return std::max<std::int64_t>(2, 2 * static_cast<std::int64_t>(std::llround(v / 2.0)));
}

}  // namespace

std::vector<std::int64_t> lb_ladder(std::int64_t rule_lb, std::int64_t width, int max_ladder, double factor) {
  if (width < 1 || rule_lb < 1 || max_ladder < 1 || !(factor > 1.0)) {
    throw std::invalid_argument(fmt::format(
        "lb_ladder: rule_lb = {}, width = {}, max_ladder = {}, factor = {:g}: needs rule_lb >= 1, width >= 1, "
        "max_ladder >= 1, factor > 1",
        static_cast<long long>(rule_lb), static_cast<long long>(width), max_ladder, factor));
  }
  const std::int64_t r = std::clamp<std::int64_t>(rule_lb, std::min<std::int64_t>(2, width), width);
  std::vector<std::int64_t> ladder;
  auto add = [&](std::int64_t v) {
    if (static_cast<int>(ladder.size()) < max_ladder &&
        std::find(ladder.begin(), ladder.end(), v) == ladder.end())
      ladder.push_back(v);
  };
  if (r / 2 >= 2) add(std::min(width, even_at_least_2(static_cast<double>(r) / 2.0)));
  add(r);
  for (double v = static_cast<double>(r) * factor; static_cast<int>(ladder.size()) < max_ladder; v *= factor) {
    if (v >= static_cast<double>(width)) {
      add(width);
      break;
    }
    add(even_at_least_2(v));
  }
  // Where the width cut the ladder short (a rule's lb at or above the width,
  // as at the smaller sizes of the lb curve), the free places go below it,
  // down to the reference: on 16 ranks a tune at n = 4096 (rule 604) checked
  // only 256 and 512 at n = 2048, and lb 128 ran 1.08x faster there
  // (docs/results.md, "xeon16, third visit").
  // Example: rule 604, width 512, 4 places -> 256, 512, then 128, 64.
  for (double v = static_cast<double>(r) / 4.0; static_cast<int>(ladder.size()) < max_ladder; v /= 2.0) {
    const std::int64_t lb = even_at_least_2(v);
    if (lb <= kScalapackDefaultLb) break;
    add(lb);
  }
  std::vector<std::int64_t> out = ladder;
  if (std::find(out.begin(), out.end(), kScalapackDefaultLb) == out.end()) out.push_back(kScalapackDefaultLb);
  std::sort(out.begin(), out.end());
  return out;
}

LbDecision decide_lb(const std::vector<std::int64_t>& lbs, std::int64_t reference_lb,
                     const std::vector<std::vector<double>>& times, double flops_per_rank) {
  if (times.empty()) throw std::invalid_argument("decide_lb: no rounds");
  const auto ref_it = std::find(lbs.begin(), lbs.end(), reference_lb);
  if (ref_it == lbs.end()) {
    throw std::invalid_argument(fmt::format("decide_lb: the reference lb = {} is not a candidate",
                                            static_cast<long long>(reference_lb)));
  }
  const std::size_t ref = static_cast<std::size_t>(ref_it - lbs.begin());
  for (std::size_t r = 0; r < times.size(); ++r) {
    if (times[r].size() != lbs.size()) {
      throw std::invalid_argument(fmt::format("decide_lb: round {} has {} times for {} candidates", r,
                                              times[r].size(), lbs.size()));
    }
    for (double t : times[r])
      if (!(std::isfinite(t) && t > 0))
        throw std::invalid_argument(fmt::format("decide_lb: round {} has a time {:g}; expected > 0", r, t));
  }
  LbDecision out;
  std::size_t best = 0;
  for (std::size_t i = 0; i < lbs.size(); ++i) {
    std::vector<double> ratios, secs;
    for (const auto& round : times) {
      ratios.push_back(round[ref] / round[i]);
      secs.push_back(round[i]);
    }
    const MedianInterval ratio = median_interval(ratios);
    profile::LbCheckCandidate c;
    c.lb = lbs[i];
    c.mflops_median = flops_per_rank / median_interval(secs).median / 1e6;
    c.ratio_median = ratio.median;
    c.ratio_ci_lo = ratio.lo;
    c.ratio_ci_hi = ratio.hi;
    out.coverage = ratio.coverage;
    out.candidates.push_back(c);
    const profile::LbCheckCandidate& b = out.candidates[best];
    if (c.ratio_median > b.ratio_median || (c.ratio_median == b.ratio_median && c.lb < b.lb)) best = i;
  }
  out.lb = out.candidates[best].lb;
  return out;
}

LbCheckOutcome check_lb_with_pdgemm(const LbCheckOptions& o, const std::vector<std::int64_t>& lbs,
                                    std::int64_t rule_lb, MPI_Comm comm_handle,
                                    const std::function<void(const std::string&)>& say) {
  const Comm comm = Comm::view(comm_handle);
  if (o.n < 1 || o.pr < 1 || o.pc < 1 || o.nb < 1 || o.rounds < 1 || o.warmup < 0 ||
      static_cast<long long>(o.pr) * o.pc != comm.size()) {
    throw std::invalid_argument(fmt::format(
        "lb check: n = {}, grid {}x{} on {} ranks, nb = {}, rounds = {}, warmup = {}: needs n, nb, rounds >= 1, "
        "warmup >= 0, pr * pc = ranks",
        static_cast<long long>(o.n), o.pr, o.pc, comm.size(), o.nb, o.rounds, o.warmup));
  }
  if (std::find(lbs.begin(), lbs.end(), kScalapackDefaultLb) == lbs.end()) {
    throw std::invalid_argument("lb check: the candidates lack the reference lb = 32");
  }
  auto tell = [&](const std::string& line) {
    if (comm.rank() == 0 && say) say(line);
  };
  LbCheckOutcome out;
  out.lb = rule_lb;

  const algos::Algorithm* pdgemm = algos::find_algorithm("pdgemm");
  if (pdgemm == nullptr) throw std::logic_error("lb check: pdgemm is not registered");
  const algos::Problem pb{o.n, o.n, o.n};
  algos::Options opt;
  opt.pr = o.pr;
  opt.pc = o.pc;
  opt.nb = o.nb;
  if (const algos::Applicability a = pdgemm->check(pb, opt, comm.size()); !a.ok()) {
    out.reason = "PDGEMM does not apply: " + a.reason;
    return out;
  }
  // Same test as `run`: the node's available memory shared by its ranks.
  const Comm node = comm.split_node();
  const double avail = comm.min(static_cast<double>(available_memory_bytes()) / node.size());
  const double need = 8.0 * pdgemm->estimate_doubles_per_rank(pb, opt, comm.size());
  if (avail > 0 && need > 0.9 * avail) {
    out.reason = fmt::format("PDGEMM at n = {} needs about {:.1f} GiB per rank, only {:.1f} GiB available",
                             static_cast<long long>(o.n), need / (1 << 30), avail / (1 << 30));
    return out;
  }

  std::vector<std::unique_ptr<algos::Plan>> plans;
  for (std::int64_t lb : lbs) {
    algos::Options with = opt;
    with.lb = static_cast<int>(lb);
    plans.push_back(pdgemm->plan(pb, with, comm));
  }
  // The layouts do not depend on lb: one set of matrices serves all plans.
  DistMatrix A(plans.front()->layout_a(), comm.rank()), B(plans.front()->layout_b(), comm.rank()),
      C(plans.front()->layout_c(), comm.rank());
  generate(A, 1);
  generate(B, 2);

  for (int w = 0; w < o.warmup; ++w) plans.front()->multiply(A, B, C);
  out.times.assign(static_cast<std::size_t>(o.rounds), std::vector<double>(lbs.size(), 0.0));
  const std::size_t ref = static_cast<std::size_t>(
      std::find(lbs.begin(), lbs.end(), kScalapackDefaultLb) - lbs.begin());
  for (int r = 0; r < o.rounds; ++r) {
    std::vector<double>& t = out.times[static_cast<std::size_t>(r)];
    for (std::size_t i : round_order(lbs.size(), o.seed, r))
      t[i] = time_max_over_ranks(comm, [&] { plans[i]->multiply(A, B, C); });
    std::string line = fmt::format("lb check round {}/{} (speed vs lb = 32):", r + 1, o.rounds);
    for (std::size_t i = 0; i < lbs.size(); ++i)
      line += fmt::format(" {}:{:.3f}", static_cast<long long>(lbs[i]), t[ref] / t[i]);
    tell(line);
  }
  algos::set_logical_block_size(0);

  // Did ScaLAPACK ask our pilaenv_? Otherwise every candidate ran with 32.
  bool override_called = true;
  for (const auto& plan : plans) override_called = override_called && plan->warning().empty();
  if (!comm.all(override_called)) {
    out.reason = "ScaLAPACK did not call mmbench's pilaenv_, so lb had no effect: the check measured nothing";
    return out;
  }

  const double flops_per_rank = 2.0 * static_cast<double>(o.n) * static_cast<double>(o.n) *
                                static_cast<double>(o.n) / comm.size();
  const LbDecision d = decide_lb(lbs, kScalapackDefaultLb, out.times, flops_per_rank);
  // Every rank holds the same (max-over-ranks) times and so the same
  // decision; rank 0's is broadcast all the same, so that no rank can
  // differ even if a reduction were not bitwise reproducible.
  long long chosen = d.lb;
  MMBENCH_MPI(MPI_Bcast(&chosen, 1, MPI_LONG_LONG, 0, comm.get()));
  out.done = true;
  out.lb = chosen;
  out.record.n = o.n;
  out.record.nb = o.nb;
  out.record.rounds = o.rounds;
  out.record.reference_lb = kScalapackDefaultLb;
  out.record.coverage = d.coverage;
  out.record.candidates = d.candidates;
  std::sort(out.record.candidates.begin(), out.record.candidates.end(),
            [](const profile::LbCheckCandidate& a, const profile::LbCheckCandidate& b) { return a.lb < b.lb; });
  return out;
}

std::int64_t rule_candidate(const profile::LbCheckRecord& record, std::int64_t rule_lb) {
  std::int64_t best = 0;
  for (const profile::LbCheckCandidate& c : record.candidates)
    if (c.lb <= rule_lb && c.lb > best) best = c.lb;
  return best;
}

std::vector<std::int64_t> lb_candidates(std::int64_t rule_lb, std::int64_t n, int pr, int pc, int nb) {
  const std::int64_t width = lb_cap(n, pr, pc, nb, 1);
  std::vector<std::int64_t> lbs = lb_ladder(rule_lb, std::max<std::int64_t>(1, width), 4);
  const std::int64_t cap8 = lb_cap(n, pr, pc, nb);
  if (std::find(lbs.begin(), lbs.end(), cap8) == lbs.end()) {
    lbs.push_back(cap8);
    std::sort(lbs.begin(), lbs.end());
  }
  return lbs;
}

std::vector<std::int64_t> lb_curve_sizes(std::int64_t n) {
  std::vector<std::int64_t> out;
  for (std::int64_t d : {4, 2})
    if (n / d >= kLbCurveMinN) out.push_back(n / d);
  out.push_back(n);
  return out;
}

profile::LbCurveRecord lb_curve_from_checks(const std::vector<LbCheckOutcome>& checks, int pr, int pc) {
  profile::LbCurveRecord out;
  std::vector<const LbCheckOutcome*> done;
  for (const LbCheckOutcome& c : checks)
    if (c.done) done.push_back(&c);
  std::sort(done.begin(), done.end(),
            [](const LbCheckOutcome* a, const LbCheckOutcome* b) { return a->record.n < b->record.n; });
  const std::int64_t owners = std::max({1, pr, pc});
  for (const LbCheckOutcome* c : done) {
    const std::int64_t share = std::max<std::int64_t>(1, c->record.n / owners);
    if (!out.points.empty() && share <= out.points.back().share) continue;  // the same share twice: the first
    if (static_cast<int>(out.points.size()) == LbCurve::kMaxPoints) break;
    out.points.push_back({c->record.n, share, c->lb, c->record.rounds});
  }
  return out;
}

int lb_panels_without_curve(std::int64_t lb, std::int64_t share) {
  return static_cast<int>(std::clamp<std::int64_t>(share / std::max<std::int64_t>(1, lb), 1, 64));
}

}  // namespace mmbench::tuner
