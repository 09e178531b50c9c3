#include "ranking/selection.hpp"

#include <algorithm>
#include <stdexcept>

#include "space/hybrid.hpp"
#include "space/process_grid.hpp"
#include "algos/registry.hpp"
#include "space/replicas.hpp"
#include "space/strassen_groups.hpp"
#include "core/byte_size.hpp"
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
  std::vector<const OptionRow*> rows;
  for (const OptionRow& r : option_table())
    if (u.*r.used) rows.push_back(&r);
  std::sort(rows.begin(), rows.end(),
            [](const OptionRow* a, const OptionRow* b) { return a->label_position < b->label_position; });
  for (const OptionRow* r : rows) s += r->label(opt);
  return s;
}

namespace {

// True if some split of the table is not the paper's.
bool differs_from_paper(const algos::Q7SplitTable& t) {
  for (const auto& [key, sizes] : t)
    if (sizes != algos::q7_group_sizes(key.second)) return true;
  return false;
}

}  // namespace

const Candidate* runner_up(const Ranking& rk) {
  if (rk.ranked.empty()) return nullptr;
  // The label names every option a candidate's algorithm reads; with the
  // tuned lb's mark dropped, equal labels run the same.
  const auto as_run = [](const Candidate& c) {
    Candidate plain = c;
    plain.opt.lb_tuned = false;
    return plain.label();
  };
  const std::string pick = as_run(rk.ranked.front());
  for (std::size_t i = 1; i < rk.ranked.size(); ++i)
    if (as_run(rk.ranked[i]) != pick) return &rk.ranked[i];
  return nullptr;
}

bool fits_memory(const algos::MemoryEstimate& need, double limit_bytes, int ranks) {
  return need.bytes() <= (need.holders == 1 ? limit_bytes * ranks : limit_bytes);
}

std::string over_memory_reason(const algos::MemoryEstimate& need, double limit_bytes, const std::string& source,
                               int ranks) {
  if (need.holders == 1 && ranks > 1)
    return "needs " + algos::describe(need) + " on rank 0 (the others hold nothing), more than the " +
           format_bytes(limit_bytes * ranks) + " of " + std::to_string(ranks) + " ranks at " +
           format_bytes(limit_bytes) + " each (" + source + ")";
  return "needs " + algos::describe(need) + " per rank, more than the " + format_bytes(limit_bytes) + " of " + source;
}

int hybrid_max_for(const MachineParams& mp, int cores_per_node, int threads) {
  if (!(mp.thread_efficiency > 0) || mp.thread_efficiency_threads < 2 || cores_per_node < 1) return 1;
  return std::max(1, std::min(mp.thread_efficiency_threads, cores_per_node / std::max(1, threads)));
}

void predict_configuration(const Algorithm& algo, const Problem& pb, const Options& opt, int p,
                           const MachineParams& mp, Prediction& paper, Prediction& refined) {
  const AlgorithmModel& m = algo.models();
  Options o = opt;
  // A hybrid recurses on its computing ranks (space/hybrid.hpp).
  o.recursions = resolve_recursions(m, opt, space::hybrid_inner(opt, p).ranks);
  paper = model::paper_prediction(m, pb, o, p, mp);
  refined = model::refined_prediction(m, pb, o, p, mp);
}

Ranking rank_candidates(const Problem& pb, int p, const Options& base, const MachineParams& mp, ModelKind model,
                        const CandidateSpace& space) {
  if (p < 1) throw std::invalid_argument("rank_candidates: p = " + std::to_string(p) + ", needs p >= 1");
  if (pb.m < 1 || pb.n < 1 || pb.k < 1)
    throw std::invalid_argument("rank_candidates: m, n, k = " + std::to_string(pb.m) + ", " + std::to_string(pb.n) +
                                ", " + std::to_string(pb.k) + ", each needs >= 1");
  Ranking out;
  out.model = model;

  for (const Algorithm* algo : algos::all_algorithms()) {
    if (!space.only.empty() &&
        std::find(space.only.begin(), space.only.end(), std::string(algo->name())) == space.only.end())
      continue;
    const algos::Uses u = algo->uses();
    const AlgorithmModel& m = algo->models();
    // Every row the algorithm reads multiplies the configurations by the
    // values auto tries (option_table.hpp), outermost first.
    SearchContext x{*algo, pb, p, space.lbs, space.tuned, space.local_levels, space.given, space.hybrid_max};
    static const std::vector<Setting> none;
    std::vector<Options> variants{base};
    const std::vector<OptionRow>& rows = option_table();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const OptionRow& row = rows[i];
      if (!(u.*row.used)) continue;
      x.row_given = i < space.given.size() ? &space.given[i] : &none;
      std::vector<Options> next;
      for (const Options& o : variants) {
        if (row.search) {
          for (const Options& v : row.search(o, x)) next.push_back(v);
        } else if (!x.row_given->empty() && (!row.applies || row.applies(o))) {
          for (const Options& v : with_given(o, *x.row_given, *algo, pb)) next.push_back(v);
        } else {
          next.push_back(o);
        }
      }
      variants = std::move(next);
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
      // One rank's threads must fit a node: the dgemm peer's p x threads,
      // a hybrid's computing rank's t x threads.
      const long long rank_threads = static_cast<long long>(m.one_node ? p : o.hybrid) * o.threads;
      if ((m.one_node || o.hybrid > 1) && space.cores_per_node > 0 && rank_threads > space.cores_per_node) {
        const std::string what =
            m.one_node ? "runs on one node: p x threads = " : "a computing rank runs hybrid x threads = ";
        out.excluded.push_back({c.label(), what + std::to_string(rank_threads) + " threads, a node has " +
                                               std::to_string(space.cores_per_node) + " cores"});
        return false;
      }
      c.memory = algo->memory(pb, o, p);
      if (space.max_doubles_per_rank > 0 && !fits_memory(c.memory, 8 * space.max_doubles_per_rank, p)) {
        out.excluded.push_back(
            {c.label(), over_memory_reason(c.memory, 8 * space.max_doubles_per_rank, space.memory_limit_source, p),
             true});
        return false;
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
