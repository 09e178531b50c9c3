#include "cli/sweep_expansion.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "algos/registry.hpp"
#include "cli/common_options.hpp"
#include "core/usage_error.hpp"
#include "core/value_lists.hpp"
#include "core/machine/sysinfo.hpp"
#include "model/algorithm_models.hpp"

namespace mmbench::cli {

using run::Config;

using algos::Algorithm;
using algos::Options;
using algos::Problem;

namespace {

// nullptr stands for "auto".
std::vector<const Algorithm*> resolve_algorithms(const std::string& text) {
  std::vector<const Algorithm*> out;
  for (const std::string& name : parse_word_list("--algo", text)) {
    if (name == "all") {
      for (auto* a : algos::all_algorithms()) out.push_back(a);
      continue;
    }
    if (name == "auto") {
      out.push_back(nullptr);
      continue;
    }
    out.push_back(&algorithm_named(name));
  }
  return out;
}

}  // namespace

RepsRule parse_reps(const RunArgs& a) {
  RepsRule r;
  if (a.reps == "auto") r.automatic = true;
  else r.rounds = static_cast<int>(parse_int_list("--reps", a.reps, 1, 100000).at(0));
  if (!(a.precision > 0 && a.precision < 1))
    throw UsageError(fmt::format("--precision: {} is out of range; allowed above 0 and below 1 (0.02 = 2 %)", a.precision));
  if (!(a.budget > 0 && a.budget <= 1e7))
    throw UsageError(fmt::format("--budget: {} seconds is out of range; allowed above 0 up to 1e7", a.budget));
  return r;
}


std::string local_gemm_text(const RunArgs& a, const Selection& sel, bool ranking) {
  const std::string& given = a.option("--local-gemm");
  if (!given.empty()) return given;
  if (!sel.machine || a.machine.profile.empty() || !sel.machine->facts.packed.measured) return "blas";
  const auto asks_auto = [](const std::string& option, const std::string& text) {
    if (text.empty()) return false;
    const std::vector<std::string> words = parse_word_list(option, text);
    return std::find(words.begin(), words.end(), "auto") != words.end();
  };
  return asks_auto("--local-strassen", a.option("--local-strassen")) || (ranking && asks_auto("--algo", a.algos))
             ? "auto"
             : "blas";
}

ranking::OptionContext option_context(const RunArgs& a, int ranks, const Selection& sel, bool ranking) {
  ranking::OptionContext ctx = cli::option_context(sel.machine, a.machine.profile);
  ctx.ranks = ranks;
  ctx.max_doubles_per_rank = sel.max_doubles_per_rank;
  ctx.local_gemm_default = local_gemm_text(a, sel, ranking);
  return ctx;
}

AutoSpace auto_space(const RunArgs& a, const Selection& sel, int ranks) {
  AutoSpace out;
  out.base.threads = a.threads;
  if (sel.machine && sel.machine->facts.local_l1_n > 0) out.base.local.min_dim = sel.machine->facts.local_l1_n;
  const ranking::OptionContext ctx = option_context(a, ranks, sel, true);
  for (const ranking::OptionRow& row : ranking::option_table())
    out.given.push_back(row.search ? std::vector<ranking::Setting>{} : row.parse(a.option(row.flag), ctx));
  out.levels = {0, 1, 2, 3};
  if (const std::string& L = a.option("--local-strassen"); !L.empty()) {
    out.levels.clear();
    for (const ranking::Setting& s : ranking::option_row("--local-strassen").parse(L, ctx)) {
      Options o;
      (void)s.set(o, *algos::all_algorithms().front(), Problem{});
      out.levels.push_back(o.local.levels);
    }
  }
  return out;
}

ranking::Ranking rank_for(const Problem& pb, const AutoSpace& as, int ranks, const Selection& sel,
                          const std::vector<std::string>& only) {
  ranking::CandidateSpace space;
  space.local_levels = as.levels;
  space.given = as.given;
  // The profile's lb is a candidate as tuned: capped per PDGEMM.
  if (sel.machine) space.tuned = profile::tuned_lb(sel.machine->facts);
  space.max_doubles_per_rank = sel.max_doubles_per_rank;
  if (!sel.memory_limit_source.empty()) space.memory_limit_source = sel.memory_limit_source;
  // dgemm runs here, on this node.
  space.cores_per_node = cpu_cores();
  space.only = only;
  try {
    return ranking::rank_candidates(pb, ranks, as.base, sel.machine->params, sel.kind, space);
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

}  // namespace

std::vector<Config> expand(const RunArgs& a, int ranks, const Selection& sel) {
  auto algos_ = resolve_algorithms(a.algos);
  const bool wants_auto = std::find(algos_.begin(), algos_.end(), nullptr) != algos_.end();
  if ((wants_auto || a.validate || a.explain) && !sel.machine)
    throw UsageError(std::string(wants_auto ? "--algo auto" : a.validate ? "--validate" : "--explain") +
                     " needs a machine: --profile FILE, or --lambda SECONDS --tau MB/s --flops MFLOPS");
  const std::vector<Problem> problems = parse_problems(a.n, a.m, a.k);
  (void)parse_reps(a);
  if (a.warmup < 0 || a.warmup > 1000) throw UsageError("--warmup: " + std::to_string(a.warmup) + " is out of range; allowed 0 to 1000");
  check_threads(a.threads);
  // Every swept option parsed and checked once, before anything runs.
  const ranking::OptionContext ctx = option_context(a, ranks, sel, false);
  std::vector<std::vector<ranking::Setting>> values;
  for (const ranking::OptionRow& row : ranking::option_table()) values.push_back(row.parse(a.option(row.flag), ctx));

  std::vector<Config> out;
  const bool ranks_candidates = wants_auto || a.validate || a.explain;
  const AutoSpace as = ranks_candidates ? auto_space(a, sel, ranks) : AutoSpace{};

  // --validate: every applicable candidate of the named algorithms.
  if (a.validate) {
    std::vector<std::string> only;
    for (const Algorithm* al : algos_)
      if (al) only.emplace_back(al->name());
    for (std::size_t g = 0; g < problems.size(); ++g) {
      const ranking::Ranking rk = rank_for(problems[g], as, ranks, sel, only);
      for (std::size_t i = 0; i < rk.ranked.size(); ++i) {
        Config c{rk.ranked[i].algo, problems[g], rk.ranked[i].opt};
        c.group = static_cast<int>(g);
        c.model_pick = i == 0;
        out.push_back(c);
      }
    }
    return out;
  }

  // Each configuration knows its problem (group), and auto's is the model's
  // pick: with auto in the sweep, its regret comes from the same rounds.
  for (const Algorithm* al : algos_) {
    if (!al) {  // auto: the model's first candidate for each problem
      for (std::size_t g = 0; g < problems.size(); ++g) {
        const Problem& pb = problems[g];
        const ranking::Ranking rk = rank_for(pb, as, ranks, sel, {});
        if (rk.ranked.empty()) throw UsageError("--algo auto: no applicable candidate for n = " + std::to_string(pb.n));
        Config c{rk.ranked[0].algo, pb, rk.ranked[0].opt};
        c.selected_by = "auto-" + model::to_string(sel.kind);
        if (rk.ranked.size() > 1) c.runner_up = rk.ranked[1].label();
        c.group = static_cast<int>(g);
        c.model_pick = true;
        out.push_back(c);
      }
      continue;
    }
    for (std::size_t g = 0; g < problems.size(); ++g) {
      Options o;
      o.threads = a.threads;
      std::vector<Config> cs{Config{al, problems[g], o}};
      cs.front().group = static_cast<int>(g);
      for (std::size_t i = 0; i < ranking::option_table().size(); ++i) cs = apply(ranking::option_table()[i], values[i], cs);
      out.insert(out.end(), cs.begin(), cs.end());
    }
  }
  return out;
}

}  // namespace mmbench::cli
