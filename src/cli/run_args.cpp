#include "cli/run_args.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "algos/registry.hpp"
#include "cli/common_options.hpp"
#include "core/usage_error.hpp"
#include "core/value_lists.hpp"

namespace mmbench::cli {

using algos::Algorithm;
using algos::Options;
using algos::Problem;

std::map<std::string, std::string> default_option_texts() {
  std::map<std::string, std::string> out;
  for (const ranking::OptionRow& r : ranking::option_table()) out[r.flag] = r.default_text;
  return out;
}

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

run::RepsRule parse_reps(const RunArgs& a) {
  run::RepsRule r;
  if (a.reps == "auto")
    r.automatic = true;
  else
    r.rounds = static_cast<int>(parse_int_list("--reps", a.reps, 1, 100000).at(0));
  if (!(a.precision > 0 && a.precision < 1))
    throw UsageError(
        fmt::format("--precision: {} is out of range; allowed above 0 and below 1 (0.02 = 2 %)", a.precision));
  if (!(a.budget > 0 && a.budget <= 1e7))
    throw UsageError(fmt::format("--budget: {} seconds is out of range; allowed above 0 up to 1e7", a.budget));
  return r;
}

// What --local-gemm means where it is not given (parse_run_spec's comment).
std::string local_gemm_text(const RunArgs& a, const run::Selection& sel, bool ranking) {
  const std::string& given = a.option("--local-gemm");
  if (!given.empty()) return given;
  if (!sel.facts || a.machine.profile.empty() || !sel.facts->packed.measured) return "blas";
  const auto asks_auto = [](const std::string& option, const std::string& text) {
    if (text.empty()) return false;
    const std::vector<std::string> words = parse_word_list(option, text);
    return std::find(words.begin(), words.end(), "auto") != words.end();
  };
  return asks_auto("--local-strassen", a.option("--local-strassen")) || (ranking && asks_auto("--algo", a.algos))
             ? "auto"
             : "blas";
}

// What the option table's parsers need (ranking/option_table.hpp): the
// ranks, the machine profile's facts and the --local-gemm default; ranking
// as for local_gemm_text.
ranking::OptionContext option_context(const RunArgs& a, int ranks, const run::Selection& sel, bool ranking) {
  ranking::OptionContext ctx;
  ctx.profile = a.machine.profile;
  ctx.params = sel.params;
  ctx.facts = sel.facts;
  ctx.ranks = ranks;
  // The ranks a --grid may cover: those of each --hybrid t (the row's own parse).
  for (const ranking::Setting& s : ranking::option_row("--hybrid").parse(a.option("--hybrid"), ctx)) {
    Options o;
    (void)s.set(o, *algos::all_algorithms().front(), Problem{});
    if (ranks % o.hybrid == 0) ctx.grid_ranks.push_back(ranks / o.hybrid);
  }
  ctx.max_doubles_per_rank = sel.max_doubles_per_rank;
  ctx.local_gemm_default = local_gemm_text(a, sel, ranking);
  return ctx;
}

// The options the model's candidates start from and the rows it does not
// search itself (run::AutoSpace).
run::AutoSpace parse_auto_space(const RunArgs& a, int ranks, const run::Selection& sel) {
  run::AutoSpace out;
  out.base.threads = a.threads;
  if (sel.facts && sel.facts->local_l1_n > 0) out.base.local.min_dim = sel.facts->local_l1_n;
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

}  // namespace

run::RunSpec parse_run_spec(const RunArgs& a, int ranks, const run::Selection& sel) {
  run::RunSpec spec;
  spec.algorithms = resolve_algorithms(a.algos);
  spec.validate = a.validate;
  spec.explain = a.explain;
  if (spec.ranks_candidates() && !sel.has_machine())
    throw UsageError(std::string(spec.wants_auto() ? "--algo auto"
                                 : a.validate      ? "--validate"
                                                   : "--explain") +
                     " needs a machine: --profile FILE, or --lambda SECONDS --tau MB/s --flops MFLOPS");
  spec.problems = parse_problems(a.n, a.m, a.k);
  spec.reps = parse_reps(a);
  spec.precision = a.precision;
  spec.budget_s = a.budget;
  if (a.warmup < 0 || a.warmup > 1000)
    throw UsageError("--warmup: " + std::to_string(a.warmup) + " is out of range; allowed 0 to 1000");
  spec.warmup = a.warmup;
  check_threads(a.threads);
  spec.threads = a.threads;
  spec.data_seed = a.seed;
  spec.verify = !a.no_verify;
  // Every swept option parsed and checked, whatever the sweep then uses.
  const ranking::OptionContext ctx = option_context(a, ranks, sel, false);
  for (const ranking::OptionRow& row : ranking::option_table())
    spec.swept.push_back(row.parse(a.option(row.flag), ctx));
  if (spec.ranks_candidates()) spec.auto_space = parse_auto_space(a, ranks, sel);
  return spec;
}

}  // namespace mmbench::cli
