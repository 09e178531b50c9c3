#include "cli/sweep_expansion.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "algos/registry.hpp"
#include "space/replicas.hpp"
#include "cli/common_options.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_lists.hpp"
#include "core/sysinfo.hpp"
#include "local/fast_gemm.hpp"
#include "model/algorithm_models.hpp"

namespace mmbench::cli {

using algos::Algorithm;
using algos::Options;
using algos::Problem;

namespace {

// --local-fusion words: the local kernel's fusion schedules.
std::vector<local::FastGemmConfig::Fusion> parse_fusions(const std::string& text) {
  std::vector<local::FastGemmConfig::Fusion> out;
  for (const std::string& w : parse_word_list("--local-fusion", text)) try {
      out.push_back(local::parse_fusion(w));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--local-fusion: ") + e.what());
    }
  return out;
}


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


namespace {

ranking::CandidateSpace space_for(const Selection& sel, const std::vector<std::string>& only,
                               const std::vector<int>& local_levels) {
  ranking::CandidateSpace space;
  space.local_levels = local_levels;
  // The profile's lb is a candidate as tuned: capped per PDGEMM.
  if (sel.machine && sel.machine->lb > 0) space.tuned_lb = sel.machine->lb;
  space.max_doubles_per_rank = sel.max_doubles_per_rank;
  // dgemm runs here, on this node.
  space.cores_per_node = cpu_cores();
  space.only = only;
  return space;
}

}  // namespace

ranking::Ranking rank_for(const Problem& pb, const Options& base, int ranks, const Selection& sel,
                        const std::vector<std::string>& only, const std::vector<int>& local_levels) {
  try {
    return ranking::rank_candidates(pb, ranks, base, sel.machine->params, sel.kind,
                                  space_for(sel, only, local_levels));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("model: ") + e.what());
  }
}

namespace {

// --q7-split model: the refined model's split for this configuration. A
// depth the model cannot split (or that does not apply) is refused with
// the reason instead of running the paper's split under the model's name.
void choose_split(Config& c, int ranks, const Machine& machine) {
  if (!c.algo->check(c.pb, c.opt, ranks).ok()) return;  // the row will say why
  try {
    c.opt.q7_splits = model::choose_q7_splits(c.algo->models(), c.pb, c.opt, ranks, machine.params);
  } catch (const std::invalid_argument& e) {
    c.refuse = std::string("--q7-split model: ") + e.what();
  }
}

// `--local-strassen auto` lets the kernel recurse while a block is at least
// the measured crossover, up to this many levels (4096 -> 2048 -> 1024 ...:
// with a crossover of 1536, 8192^3 gets 3 levels, 12288^3 4).
constexpr int kAutoLocalLevels = 4;

std::vector<LocalChoice> local_choices(const std::string& text, const RunArgs& a, const Selection& sel) {
  std::vector<LocalChoice> out;
  for (const std::string& w : parse_word_list("--local-strassen", text)) {
    if (w != "auto") {
      out.push_back({static_cast<int>(parse_int_list("--local-strassen", w, 0, 6).at(0)), 0, w});
      continue;
    }
    if (a.machine.profile.empty() || !sel.machine)
      throw UsageError("--local-strassen auto needs --profile FILE (a machine profile from `mmbench tune`)");
    if (sel.machine->local_tried_n <= 0)
      throw UsageError("--local-strassen auto: the profile " + a.machine.profile +
                       " has no local Strassen crossover (tuned with --no-local?); run `mmbench tune` or give L");
    // No win up to the largest size tried: nothing shows a level pays.
    if (sel.machine->local_l1_n <= 0) out.push_back({0, 0, "auto"});
    else out.push_back({kAutoLocalLevels, sel.machine->local_l1_n, "auto"});
  }
  return out;
}


}  // namespace

std::string local_gemm_text(const RunArgs& a, const Selection& sel, bool ranking) {
  if (!a.local_gemm.empty()) return a.local_gemm;
  if (!sel.machine || a.machine.profile.empty() || !sel.machine->packed.measured) return "blas";
  const auto asks_auto = [](const std::string& option, const std::string& text) {
    if (text.empty()) return false;
    const std::vector<std::string> words = parse_word_list(option, text);
    return std::find(words.begin(), words.end(), "auto") != words.end();
  };
  return asks_auto("--local-strassen", a.local_levels) || (ranking && asks_auto("--algo", a.algos)) ? "auto" : "blas";
}

AutoSpace auto_space(const RunArgs& a, const Selection& sel, int nb, const std::vector<LocalChoice>& given) {
  AutoSpace out;
  out.base.threads = a.threads;
  out.base.nb = nb;
  out.base.local.variant = a.local_variant;
  out.base.local.fusion = parse_fusions(a.local_fusion).front();  // one value: expand() checks
  // One value: expand() checks.
  const LocalGemmChoice gemm =
      resolve_local_gemm(parse_local_gemm_option(local_gemm_text(a, sel, true)).front(), sel.machine, a.machine.profile);
  out.base.local.gemm = gemm.gemm;
  out.base.local.packed_blocking = gemm.blocking;
  if (sel.machine && sel.machine->local_l1_n > 0) out.base.local.min_dim = sel.machine->local_l1_n;
  out.levels = {0, 1, 2, 3};
  if (!given.empty()) {
    out.levels.clear();
    for (const LocalChoice& lc : given) out.levels.push_back(lc.levels);
  }
  return out;
}

std::vector<LocalChoice> given_local_choices(const RunArgs& a, const Selection& sel) {
  return a.local_levels.empty() ? std::vector<LocalChoice>{} : local_choices(a.local_levels, a, sel);
}

namespace {

std::vector<Setter> grid_values(const std::string& text, const SweepContext& x) {
  std::vector<Setter> out;
  for (const std::string& w : parse_word_list("--grid", text)) {
    const auto [pr, pc] = parse_grid("--grid", w);
    if (pr > 0 && pr * pc != x.ranks)
      throw UsageError("--grid: grid " + w + " needs " + std::to_string(pr * pc) + " ranks, have " +
                       std::to_string(x.ranks) + " (pr x pc must equal the number of MPI ranks)");
    out.push_back([pr, pc](Config& c) { c.opt.pr = pr, c.opt.pc = pc; });
  }
  return out;
}

std::vector<Setter> nb_values(const std::string& text, const SweepContext&) {
  std::vector<Setter> out;
  for (std::int64_t nb : parse_int_list("--nb", text, 1, 1 << 20))
    out.push_back([nb](Config& c) { c.opt.nb = static_cast<int>(nb); });
  return out;
}

std::vector<Setter> lb_values(const std::string& text, const SweepContext& x) {
  std::vector<Setter> out;
  for (const LbValue v : parse_lb_option(text, x.sel.machine, x.a.machine.profile))
    out.push_back([v](Config& c) { c.opt.lb = v.lb, c.opt.lb_tuned = v.tuned; });
  return out;
}

std::vector<Setter> recursion_values(const std::string& text, const SweepContext&) {
  std::vector<Setter> out;
  for (const std::string& w : parse_word_list("--recursions", text)) {
    const int r = w == "max" ? -1 : static_cast<int>(parse_int_list("--recursions", w, 0, 30).at(0));
    out.push_back([r](Config& c) { c.opt.recursions = r; });
  }
  return out;
}

Setter set_local(const LocalChoice& lc) {
  return [lc](Config& c) {
    c.opt.local.levels = lc.levels;
    c.opt.local.min_dim = lc.min_dim;
    c.local_label = lc.label;
  };
}

std::vector<Setter> local_values(const std::string& text, const SweepContext& x) {
  std::vector<Setter> out;
  for (const LocalChoice& lc : text.empty() ? std::vector<LocalChoice>{{0, 0, "0"}} : local_choices(text, x.a, x.sel))
    out.push_back(set_local(lc));
  return out;
}

std::vector<Setter> local_fusion_values(const std::string& text, const SweepContext&) {
  std::vector<Setter> out;
  for (const auto f : parse_fusions(text)) out.push_back([f](Config& c) { c.opt.local.fusion = f; });
  return out;
}

// text is RunArgs::local_gemm, "" when not given (local_gemm_text decides).
std::vector<Setter> local_gemm_values(const std::string&, const SweepContext& x) {
  std::vector<Setter> out;
  for (const std::string& w : parse_local_gemm_option(local_gemm_text(x.a, x.sel, false))) {
    const LocalGemmChoice g = resolve_local_gemm(w, x.sel.machine, x.a.machine.profile);
    out.push_back([g](Config& c) {
      c.opt.local.gemm = g.gemm;
      c.opt.local.packed_blocking = g.blocking;
    });
  }
  return out;
}

// --replicas auto: the largest c whose copies fit (0 if none: the plan's
// default, which the memory check then refuses).
std::vector<Setter> replica_values(const std::string& text, const SweepContext& x) {
  std::vector<Setter> out;
  for (const std::string& w : parse_word_list("--replicas", text)) {
    const int rc = w == "auto" ? 0 : static_cast<int>(parse_int_list("--replicas", w, 1, 1 << 24).at(0));
    out.push_back([rc, ranks = x.ranks, &sel = x.sel](Config& c) {
      c.opt.replicas = rc > 0 ? rc : algos::largest_replicas_that_fit(c.pb, ranks, sel.max_doubles_per_rank);
    });
  }
  return out;
}

// --q7-split model: the refined model's split, chosen for the
// configuration's other options -- so this option comes last.
std::vector<Setter> q7_split_values(const std::string& text, const SweepContext& x) {
  std::vector<Setter> out;
  for (const std::string& w : parse_word_list("--q7-split", text)) {
    if (w != "paper" && w != "model")
      throw UsageError("--q7-split: '" + w + "' is not a split rule; allowed paper, model or paper,model");
    if (w == "model" && !x.sel.machine)
      throw UsageError("--q7-split model needs a machine: --profile FILE, or --lambda SECONDS --tau MB/s --flops MFLOPS");
    if (w == "paper") out.push_back([](Config&) {});
    else out.push_back([ranks = x.ranks, &sel = x.sel](Config& c) { choose_split(c, ranks, *sel.machine); });
  }
  return out;
}

// Every configuration times every value (configurations outermost), or
// each with the neutral value when the algorithm does not take the option.
std::vector<Config> apply(const SweptOption& o, const std::vector<Setter>& values, const std::vector<Config>& in,
                          const algos::Uses& u) {
  std::vector<Config> out;
  for (const Config& c : in) {
    if (!(u.*o.used) || (o.applies && !o.applies(c))) {
      out.push_back(c);
      o.neutral(out.back());
      continue;
    }
    for (const Setter& set : values) {
      out.push_back(c);
      set(out.back());
    }
  }
  return out;
}

}  // namespace

const std::vector<SweptOption>& swept_options() {
  // Outermost first: the order rows come out in. No algorithm takes both
  // --replicas and --q7-split, so their order matters only for the split
  // (last, see above).
  static const std::vector<SweptOption> table = {
      {"--grid", "Process grid(s) for pdgemm: auto (most square) or PxQ", &RunArgs::grid, &algos::Uses::grid,
       grid_values, [](Config& c) { c.opt.pr = c.opt.pc = 0; }, true},
      {"--nb", "Block-cyclic block size(s) for pdgemm", &RunArgs::nb, &algos::Uses::nb, nb_values,
       [](Config& c) { c.opt.nb = 64; }, true},
      {"--lb",
       "PBLAS logical block size(s): 'default' (library's 32), 'auto' (the --profile's lb, capped at each "
       "PDGEMM's problem and grid to keep several panels per process) or numbers (run as given)",
       &RunArgs::lb, &algos::Uses::lb, lb_values, [](Config& c) { c.opt.lb = 0, c.opt.lb_tuned = false; }, true},
      {"--recursions", "Parallel Strassen levels r: 'max' or numbers", &RunArgs::recursions,
       &algos::Uses::recursions, recursion_values, [](Config& c) { c.opt.recursions = -1; }, true},
      {"--local-strassen",
       "Local Strassen levels L inside each rank (dgemm, ring, tpmm, Strassen leaves): numbers, e.g. 0,1,2,3, "
       "or 'auto' (levels while the block is at least the profile's measured crossover; needs --profile). "
       "Default 0; --algo auto tries 0,1,2,3",
       &RunArgs::local_levels, &algos::Uses::local_levels, local_values, set_local(LocalChoice{0, 0, "0"}), false},
      // Inside --local-strassen: each L on BLAS and on the packed GEMM side by side.
      {"--local-gemm",
       "GEMM at the bottom of the local levels (the algorithms of --local-strassen): blas (OpenBLAS DGEMM), "
       "packed (mmbench's packed GEMM, the deepest level fused into its packing; with --local-strassen 0 the "
       "packed GEMM alone; the profile's tuned block sizes where it has them), auto (the profile's faster leaf) "
       "or a list: blas,packed. Default blas; with --local-strassen auto (and for --algo auto's pick) and a "
       "profile that measured the packed GEMM, auto",
       &RunArgs::local_gemm, &algos::Uses::local_levels, local_gemm_values,
       [](Config& c) {
         c.opt.local.gemm = "blas";
         c.opt.local.packed_blocking = {};
       },
       false},
      {"--local-fusion",
       "Which local Strassen-Winograd levels fuse their operand sums into one pass each for A and B: all, "
       "deepest, none, or a list (the kernel's schedules, docs/method.md)",
       &RunArgs::local_fusion, &algos::Uses::local_levels, local_fusion_values,
       [](Config& c) { c.opt.local.fusion = local::FastGemmConfig::Fusion::all; }, true,
       [](const Config& c) { return c.opt.local.levels > 0; }},
      {"--replicas",
       "2.5d: layers c (p = q^2 x c), numbers or 'auto' (the largest c whose copies of A and B fit in memory)",
       &RunArgs::replicas, &algos::Uses::replicas, replica_values, [](Config& c) { c.opt.replicas = 0; }, true},
      {"--q7-split",
       "Q7 group split: 'paper' (eq. 2.18: ~2p/7, 2p/7, 2p/7, p/7), 'model' (the refined model's fastest "
       "split per level; needs a machine) or both: paper,model",
       &RunArgs::q7_split, &algos::Uses::q7_split, q7_split_values, [](Config&) {}, true},
  };
  return table;
}

std::vector<Config> expand(const RunArgs& a, int ranks, const Selection& sel) {
  auto algos_ = resolve_algorithms(a.algos);
  const bool wants_auto = std::find(algos_.begin(), algos_.end(), nullptr) != algos_.end();
  if ((wants_auto || a.validate || a.explain) && !sel.machine)
    throw UsageError(std::string(wants_auto ? "--algo auto" : a.validate ? "--validate" : "--explain") +
                     " needs a machine: --profile FILE, or --lambda SECONDS --tau MB/s --flops MFLOPS");
  const std::vector<Problem> problems = parse_problems(a.n, a.m, a.k);
  auto nbs = parse_int_list("--nb", a.nb, 1, 1 << 20);
  (void)parse_reps(a);
  if (a.warmup < 0 || a.warmup > 1000) throw UsageError("--warmup: " + std::to_string(a.warmup) + " is out of range; allowed 0 to 1000");
  check_threads(a.threads);
  if (a.local_variant != "winograd" && a.local_variant != "strassen")
    throw UsageError("--local-variant: '" + a.local_variant + "' is not a variant; allowed winograd or strassen");
  // Every swept option parsed and checked once, before anything runs.
  const SweepContext ctx{a, ranks, sel};
  std::vector<std::vector<Setter>> values;
  for (const SweptOption& o : swept_options()) values.push_back(o.values(a.*o.field, ctx));
  const std::vector<LocalChoice> given = given_local_choices(a, sel);
  // The model ranks candidates on one local GEMM (auto_space's base).
  if (wants_auto || a.validate || a.explain) {
    parse_one_local_gemm(local_gemm_text(a, sel, true),
                         "--algo auto, --validate and --explain rank the candidates on one (blas, packed or auto)");
    if (parse_fusions(a.local_fusion).size() != 1)
      throw UsageError("--local-fusion: '" + a.local_fusion +
                       "' gives several values; --algo auto, --validate and --explain rank the candidates on one");
  }

  std::vector<Config> out;
  const AutoSpace as = auto_space(a, sel, static_cast<int>(nbs.at(0)), given);
  const Options& base = as.base;
  const std::vector<int>& candidate_levels = as.levels;

  // --validate: every applicable candidate of the named algorithms.
  if (a.validate) {
    std::vector<std::string> only;
    for (const Algorithm* al : algos_)
      if (al) only.emplace_back(al->name());
    for (std::size_t g = 0; g < problems.size(); ++g) {
      const ranking::Ranking rk = rank_for(problems[g], base, ranks, sel, only, candidate_levels);
      for (std::size_t i = 0; i < rk.ranked.size(); ++i) {
        Config c{rk.ranked[i].algo, problems[g], rk.ranked[i].opt};
        c.group = static_cast<int>(g);
        c.model_pick = i == 0;
        out.push_back(c);
      }
    }
    return out;
  }

  for (const Algorithm* al : algos_) {
    if (!al) {  // auto: the model's first candidate for each problem
      for (const Problem& pb : problems) {
        const ranking::Ranking rk = rank_for(pb, base, ranks, sel, {}, candidate_levels);
        if (rk.ranked.empty()) throw UsageError("--algo auto: no applicable candidate for n = " + std::to_string(pb.n));
        Config c{rk.ranked[0].algo, pb, rk.ranked[0].opt};
        c.selected_by = "auto-" + model::to_string(sel.kind);
        if (rk.ranked.size() > 1) c.runner_up = rk.ranked[1].label();
        out.push_back(c);
      }
      continue;
    }
    for (const Problem& pb : problems) {
      Options o;
      o.local.variant = a.local_variant;
      o.threads = a.threads;
      std::vector<Config> cs{Config{al, pb, o}};
      for (std::size_t i = 0; i < swept_options().size(); ++i) cs = apply(swept_options()[i], values[i], cs, al->uses());
      out.insert(out.end(), cs.begin(), cs.end());
    }
  }
  return out;
}


}  // namespace mmbench::cli
