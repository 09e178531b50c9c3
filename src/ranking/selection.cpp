#include "ranking/selection.hpp"

#include <algorithm>
#include <stdexcept>

#include "space/process_grid.hpp"
#include "algos/registry.hpp"
#include "space/replicas.hpp"
#include "space/strassen_groups.hpp"
#include "core/lb_in_force.hpp"
#include "model/algorithm_models.hpp"

namespace mmbench::ranking {

using namespace mmbench::model;

using algos::Algorithm;
using algos::Options;
using algos::Problem;

std::string Candidate::label() const {
  std::string s(algo ? algo->name() : "?");
  const algos::Uses u = algo ? algo->uses() : algos::Uses{};
  if (u.recursions) s += " r=" + std::to_string(opt.recursions);
  if (u.grid && opt.pr > 0) s += " grid=" + std::to_string(opt.pr) + "x" + std::to_string(opt.pc);
  if (u.nb) s += " nb=" + std::to_string(opt.nb);
  // A tuned lb: "lb=64(auto)" where the grid is known (the lb in force),
  // "lb=auto(668)" under Strassen (the profile's; each leaf caps it).
  if (u.lb && opt.lb <= 0) s += " lb=" + std::to_string(kScalapackDefaultLb) + "(default)";
  else if (u.lb && opt.lb_tuned) s += opt.pr > 0 ? " lb=" + std::to_string(opt.lb) + "(auto)" : " lb=auto(" + std::to_string(opt.lb) + ")";
  else if (u.lb) s += " lb=" + std::to_string(opt.lb);
  if (u.local_levels && opt.local.levels > 0) s += " L=" + std::to_string(opt.local.levels);
  if (u.local_levels && opt.local.gemm == "packed") s += " gemm=packed";
  if (u.local_levels && opt.local.levels > 0 && opt.local.fusion != local::FastGemmConfig::Fusion::all)
    s += " fusion=" + std::string(local::to_string(opt.local.fusion));
  if (u.replicas && opt.replicas > 0) s += " c=" + std::to_string(opt.replicas);
  if (opt.q7_splits && !opt.q7_splits->empty()) {
    // The top split: the entry with the most levels to go.
    s += " split=model(" + algos::format_split(opt.q7_splits->rbegin()->second) + ")";
  }
  return s;
}

namespace {

// Every pr x pc = p with pr <= pc, squarest last. p = 12 -> 1x12 2x6 3x4.
std::vector<std::pair<int, int>> grids_of(int p) {
  std::vector<std::pair<int, int>> out;
  for (long long pr = 1; pr * pr <= p; ++pr)
    if (p % pr == 0) out.emplace_back(static_cast<int>(pr), static_cast<int>(p / pr));
  return out;
}

// True if some split of the table is not the paper's.
bool differs_from_paper(const algos::Q7SplitTable& t) {
  for (const auto& [key, sizes] : t)
    if (sizes != algos::q7_group_sizes(key.second)) return true;
  return false;
}

}  // namespace

void predict_configuration(const Algorithm& algo, const Problem& pb, const Options& opt, int p,
                           const MachineParams& mp, Prediction& paper, Prediction& refined) {
  const AlgorithmModel& m = algo.models();
  Options o = opt;
  o.recursions = resolve_recursions(m, opt, p);
  paper = m.paper(pb, o, p, mp);
  refined = m.refined(pb, o, p, mp);
}

Ranking rank_candidates(const Problem& pb, int p, const Options& base, const MachineParams& mp, ModelKind model,
                        const CandidateSpace& space) {
  if (p < 1) throw std::invalid_argument("rank_candidates: p = " + std::to_string(p) + ", needs p >= 1");
  if (pb.m < 1 || pb.n < 1 || pb.k < 1)
    throw std::invalid_argument("rank_candidates: m, n, k = " + std::to_string(pb.m) + ", " + std::to_string(pb.n) +
                                ", " + std::to_string(pb.k) + ", each needs >= 1");
  Ranking out;
  out.model = model;
  const int r_top = algos::max_recursions_q8(p) + 1;
  const std::vector<std::pair<int, int>> grids = grids_of(p);
  std::vector<std::pair<int, bool>> lbs;  // (lb, tuned)
  for (int lb : space.lbs) lbs.emplace_back(lb, false);
  if (space.tuned_lb > 0) lbs.emplace_back(space.tuned_lb, true);
  if (lbs.empty()) lbs.emplace_back(0, false);

  for (const Algorithm* algo : algos::all_algorithms()) {
    if (!space.only.empty() &&
        std::find(space.only.begin(), space.only.end(), std::string(algo->name())) == space.only.end())
      continue;
    const algos::Uses u = algo->uses();
    const AlgorithmModel& m = algo->models();
    std::vector<Options> variants;
    for (auto g : u.grid ? grids : std::vector<std::pair<int, int>>{{0, 0}})
      for (const auto& [lb, tuned] : u.lb ? lbs : std::vector<std::pair<int, bool>>{{0, false}})
        for (int r = u.recursions ? 1 : -1; r <= (u.recursions ? r_top : -1); ++r)
          for (int L : u.local_levels && !space.local_levels.empty() ? space.local_levels
                                                                     : std::vector<int>{base.local.levels})
            for (int c : u.replicas ? algos::replica_choices(p) : std::vector<int>{0}) {
            Options o = base;
            o.replicas = c;
            o.pr = g.first;
            o.pc = g.second;
            o.lb = lb;
            o.lb_tuned = tuned;
            // A PDGEMM on a known grid: the tuned lb as it runs here (the
            // label shows it); under Strassen each leaf caps its own.
            if (tuned && o.pr > 0) o.lb = lb_of(o, double(pb.k), o.pr, o.pc);
            o.recursions = r;
            o.local.levels = u.local_levels ? L : 0;
            o.q7_splits = nullptr;  // the paper's split; the model's is added below
            variants.push_back(o);
          }
    // One configuration: ranked, or excluded with the reason.
    auto consider = [&](const Options& o) -> bool {
      Candidate c;
      c.algo = algo;
      c.opt = o;
      const algos::Applicability ap = algo->check(pb, o, p);
      if (!ap.ok()) {
        out.excluded.push_back({c.label(), ap.reason});
        return false;
      }
      const long long threads = static_cast<long long>(p) * o.threads;
      if (m.one_node && space.cores_per_node > 0 && threads > space.cores_per_node) {
        out.excluded.push_back({c.label(), "runs on one node: p x threads = " + std::to_string(threads) +
                                               " threads, a node has " + std::to_string(space.cores_per_node) + " cores"});
        return false;
      }
      if (space.max_doubles_per_rank > 0) {
        const double need = algo->estimate_doubles_per_rank(pb, o, p);
        if (need > space.max_doubles_per_rank) {
          out.excluded.push_back({c.label(), "needs " + std::to_string(static_cast<long long>(need * 8 / (1 << 20))) +
                                                 " MiB per rank, more than available"});
          return false;
        }
      }
      try {
        predict_configuration(*algo, pb, o, p, mp, c.paper, c.refined);
        // L levels that add no level to L - 1 at this size (the blocks are
        // below the kernel's cut-off) are the same configuration twice.
        if (u.local_levels && o.local.levels > 0) {
          Options fewer = o;
          --fewer.local.levels;
          Prediction paper_fewer, refined_fewer;
          predict_configuration(*algo, pb, fewer, p, mp, paper_fewer, refined_fewer);
          if (refined_fewer.total() == c.refined.total()) {
            out.excluded.push_back({c.label(), "no more local levels than L=" + std::to_string(fewer.local.levels) +
                                                   " (the blocks are below the cut-off)"});
            return false;
          }
        }
      } catch (const std::invalid_argument& e) {
        out.excluded.push_back({c.label(), std::string("model: ") + e.what()});
        return false;
      }
      out.ranked.push_back(c);
      return true;
    };
    const bool model_split = m.schema == "q7" && p <= space.q7_model_split_max_p;
    for (const Options& o : variants) {
      if (!consider(o) || !model_split) continue;
      // The model's Q7 split joins right after the paper's, where it
      // differs (its table is chosen for this problem and these options).
      Options chosen = o;
      try {
        chosen.q7_splits = choose_q7_splits(m, pb, o, p, mp);
      } catch (const std::invalid_argument&) {
        continue;  // no split the model can price at this depth: the paper's stays alone
      }
      if (differs_from_paper(*chosen.q7_splits)) consider(chosen);
    }
  }
  std::stable_sort(out.ranked.begin(), out.ranked.end(),
                   [&](const Candidate& a, const Candidate& b) { return a.time(model) < b.time(model); });
  return out;
}

}  // namespace mmbench::ranking
