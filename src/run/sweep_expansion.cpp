#include "run/sweep_expansion.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/machine/sysinfo.hpp"
#include "core/usage_error.hpp"
#include "model/algorithm_models.hpp"

namespace mmbench::run {

using algos::Algorithm;
using algos::Options;
using algos::Problem;

bool RunSpec::wants_auto() const {
  return std::find(algorithms.begin(), algorithms.end(), nullptr) != algorithms.end();
}

ranking::Ranking rank_for(const Problem& pb, const RunSpec& spec, int ranks, const Selection& sel,
                          const std::vector<std::string>& only) {
  if (!sel.has_machine()) throw std::logic_error("rank_for: no machine to rank with");
  ranking::CandidateSpace space;
  space.local_levels = spec.auto_space.levels;
  space.given = spec.auto_space.given;
  // The profile's lb is a candidate as tuned: capped per PDGEMM.
  if (sel.facts) space.tuned = profile::tuned_lb(*sel.facts);
  space.max_doubles_per_rank = sel.max_doubles_per_rank;
  if (!sel.memory_limit_source.empty()) space.memory_limit_source = sel.memory_limit_source;
  // dgemm runs here, on this node.
  space.cores_per_node = cpu_cores();
  space.hybrid_max = ranking::hybrid_max_for(*sel.params, space.cores_per_node, spec.threads);
  space.only = only;
  try {
    return ranking::rank_candidates(pb, ranks, spec.auto_space.base, *sel.params, sel.kind, space);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("model: ") + e.what());
  }
}

namespace {

// Every configuration times every value (configurations outermost), or
// each with the neutral value when the algorithm does not take the option
// or it does not apply.
std::vector<Config> apply(const ranking::OptionRow& row, const std::vector<ranking::Setting>& values,
                          const std::vector<Config>& in) {
  std::vector<Config> out;
  for (const Config& c : in) {
    if (!(c.algo->uses().*row.used) || (row.applies && !row.applies(c.opt))) {
      out.push_back(c);
      row.neutral(out.back().opt);
      continue;
    }
    for (const ranking::Setting& s : values) {
      out.push_back(c);
      Config& v = out.back();
      v.asked[row.column] = s.asked;
      if (std::string why = s.set(v.opt, *v.algo, v.pb); !why.empty() && v.refuse.empty()) v.refuse = std::move(why);
    }
  }
  return out;
}

// --validate: every applicable candidate of the named algorithms, the
// model's first of each problem marked as its pick.
std::vector<Config> validation_candidates(const RunSpec& spec, int ranks, const Selection& sel) {
  std::vector<std::string> only;
  for (const Algorithm* al : spec.algorithms)
    if (al) only.emplace_back(al->name());
  std::vector<Config> out;
  for (std::size_t g = 0; g < spec.problems.size(); ++g) {
    const ranking::Ranking rk = rank_for(spec.problems[g], spec, ranks, sel, only);
    for (std::size_t i = 0; i < rk.ranked.size(); ++i) {
      Config c{rk.ranked[i].algo, spec.problems[g], rk.ranked[i].opt};
      c.group = static_cast<int>(g);
      c.model_pick = i == 0;
      if (const ranking::Candidate* second = i == 0 ? ranking::runner_up(rk) : nullptr)
        c.runner_up_ratio = second->time(rk.model) / rk.ranked[0].time(rk.model);
      out.push_back(c);
    }
  }
  return out;
}

// auto: the model's first candidate for each problem.
void add_auto_picks(const RunSpec& spec, int ranks, const Selection& sel, std::vector<Config>& out) {
  for (std::size_t g = 0; g < spec.problems.size(); ++g) {
    const Problem& pb = spec.problems[g];
    const ranking::Ranking rk = rank_for(pb, spec, ranks, sel, {});
    if (rk.ranked.empty()) throw UsageError("--algo auto: no applicable candidate for n = " + std::to_string(pb.n));
    Config c{rk.ranked[0].algo, pb, rk.ranked[0].opt};
    c.selected_by = "auto-" + model::to_string(sel.kind);
    if (const ranking::Candidate* second = ranking::runner_up(rk)) {
      c.runner_up = second->label();
      c.runner_up_ratio = second->time(rk.model) / rk.ranked[0].time(rk.model);
    }
    c.group = static_cast<int>(g);
    c.model_pick = true;
    out.push_back(c);
  }
}

}  // namespace

std::vector<Config> expand(const RunSpec& spec, int ranks, const Selection& sel) {
  if (spec.validate) return validation_candidates(spec, ranks, sel);
  // Each configuration knows its problem (group), and auto's is the model's
  // pick: with auto in the sweep, its regret comes from the same rounds.
  std::vector<Config> out;
  for (const Algorithm* al : spec.algorithms) {
    if (!al) {
      add_auto_picks(spec, ranks, sel, out);
      continue;
    }
    for (std::size_t g = 0; g < spec.problems.size(); ++g) {
      Options o;
      o.threads = spec.threads;
      std::vector<Config> cs{Config{al, spec.problems[g], o}};
      cs.front().group = static_cast<int>(g);
      for (std::size_t i = 0; i < ranking::option_table().size(); ++i)
        cs = apply(ranking::option_table()[i], spec.swept[i], cs);
      out.insert(out.end(), cs.begin(), cs.end());
    }
  }
  return out;
}

}  // namespace mmbench::run
