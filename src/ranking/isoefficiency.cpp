#include "ranking/isoefficiency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "algos/registry.hpp"

namespace mmbench::ranking {

namespace {

constexpr std::int64_t kFirstN = 16;

// One evaluation of the search: the algorithm's best member at square n.
struct Evaluation {
  bool any = false;         // some member applies (and fits the memory limit)
  bool memory = false;      // some member was excluded by the memory limit
  std::string reason;       // why none applies (the first exclusion's reason)
  Candidate best;
  double eff = 0;
};

struct Search {
  const algos::Algorithm& algo;
  int p;
  const algos::Options& base;
  const MachineParams& mp;
  ModelKind model;
  CandidateSpace space;

  Evaluation at(std::int64_t n) const {
    const algos::Problem pb{n, n, n};
    const Ranking rk = rank_candidates(pb, p, base, mp, model, space);
    Evaluation e;
    for (const Excluded& x : rk.excluded) e.memory = e.memory || x.memory;
    if (rk.ranked.empty()) {
      e.reason = rk.excluded.empty() ? "no candidate" : rk.excluded.front().reason;
      return e;
    }
    e.any = true;
    e.best = rk.ranked.front();
    e.eff = efficiency(e.best.time(model), n, p, e.best.opt.threads, mp, model);
    return e;
  }
};

}  // namespace

double efficiency(double t, std::int64_t n, int p, int threads, const MachineParams& mp, ModelKind model) {
  const model::AlgorithmModel* one = algos::find_model("dgemm");
  if (!one) throw std::logic_error("isoefficiency: no dgemm model in the registry");
  algos::Options single;  // one thread, no local levels, BLAS's DGEMM
  const algos::Problem pb{n, n, n};
  const double t1 =
      (model == ModelKind::paper ? one->paper(pb, single, 1, mp) : model::refined_prediction(*one, pb, single, 1, mp))
          .total();
  return t > 0 ? t1 / (double(p) * std::max(1, threads)) / t : 0.0;
}

IsoPoint isoefficiency(const algos::Algorithm& algo, int p, double target, std::int64_t n_max,
                       const algos::Options& base, const MachineParams& mp, ModelKind model,
                       const CandidateSpace& space) {
  if (!(target > 0 && target < 1))
    throw std::invalid_argument(fmt::format("isoefficiency: E = {} is outside (0, 1)", target));
  if (n_max < kFirstN) throw std::invalid_argument(fmt::format("isoefficiency: n_max = {} is below {}", n_max, kFirstN));
  Search s{algo, p, base, mp, model, space};
  s.space.only = {std::string(algo.name())};
  IsoPoint out;
  out.algo = &algo;
  out.p = p;
  const auto done = [&](std::int64_t n, const Evaluation& e) {
    out.n = n;
    out.efficiency = e.eff;
    out.best = e.best;
  };
  // Doubling: below = the last n priced under E (0 = none yet).
  std::int64_t below = 0, hi = 0;
  Evaluation below_eval;
  for (std::int64_t n = kFirstN;; n = std::min(2 * n, n_max)) {
    const Evaluation e = s.at(n);
    if (e.any && e.eff >= target) {
      hi = n;
      break;
    }
    if (!e.any) {
      if (below == 0) {  // nothing applies at the smallest n: the algorithm does not run here
        out.why_not = e.reason;
        return out;
      }
      // The largest n where a member still applies or fits, by bisection
      // (memory grows with n); then E may lie before it.
      std::int64_t ok = below, bad = n;
      Evaluation ok_eval = below_eval;
      while (bad - ok > 1) {
        const std::int64_t mid = ok + (bad - ok) / 2;
        const Evaluation m = s.at(mid);
        if (m.any) ok = mid, ok_eval = m;
        else bad = mid;
      }
      if (ok_eval.eff >= target) {
        hi = ok;
        break;
      }
      done(ok, ok_eval);
      out.why_not = e.memory ? fmt::format("no member fits the memory limit above n = {} (efficiency {:.3f} there)",
                                           ok, ok_eval.eff)
                             : fmt::format("no member applies above n = {} (efficiency {:.3f} there): {}", ok,
                                           ok_eval.eff, e.reason);
      return out;
    }
    below = n;
    below_eval = e;
    if (n == n_max) {
      done(n, e);
      out.why_not = fmt::format("not reached up to n = {} (efficiency {:.3f} there)", n, e.eff);
      return out;
    }
  }
  // Bisection: efficiency below E at `below` (or below = 0), at or above E at hi.
  Evaluation hi_eval = s.at(hi);
  std::int64_t lo = below;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    const Evaluation m = s.at(mid);
    if (m.any && m.eff >= target) hi = mid, hi_eval = m;
    else lo = mid;
  }
  out.reached = true;
  done(hi, hi_eval);
  return out;
}

}  // namespace mmbench::ranking
