#include "cli/sweep_expansion.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "algos/registry.hpp"
#include "algos/two_point_five_d.hpp"
#include "cli/common_options.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_lists.hpp"
#include "core/sysinfo.hpp"
#include "model/algorithm_models.hpp"

namespace mmbench::cli {

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


namespace {

model::CandidateSpace space_for(const Selection& sel, const std::vector<std::string>& only,
                               const std::vector<int>& local_levels) {
  model::CandidateSpace space;
  space.local_levels = local_levels;
  if (sel.machine && sel.machine->lb > 0 &&
      std::find(space.lbs.begin(), space.lbs.end(), sel.machine->lb) == space.lbs.end())
    space.lbs.push_back(sel.machine->lb);
  space.max_doubles_per_rank = sel.max_doubles_per_rank;
  // dgemm runs here, on this node.
  space.cores_per_node = cpu_cores();
  space.only = only;
  return space;
}

}  // namespace

model::Ranking rank_for(const Problem& pb, const Options& base, int ranks, const Selection& sel,
                        const std::vector<std::string>& only, const std::vector<int>& local_levels) {
  try {
    return model::rank_candidates(pb, ranks, base, sel.machine->params, sel.kind,
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

AutoSpace auto_space(const RunArgs& a, const Selection& sel, int nb, const std::vector<LocalChoice>& given) {
  AutoSpace out;
  out.base.threads = a.threads;
  out.base.nb = nb;
  out.base.local_variant = a.local_variant;
  if (sel.machine && sel.machine->local_l1_n > 0) out.base.local_min_dim = sel.machine->local_l1_n;
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

// One swept option: the values given on the command line, each a change to
// a configuration, which algorithms take it (a flag of algos::Uses, which
// each algorithm declares), and the neutral value the others get. Adding an
// option: its RunArgs field and parser above, a Uses flag, one axis in
// expand().
struct OptionAxis {
  bool algos::Uses::*used;
  std::vector<std::function<void(Config&)>> values;
  std::function<void(Config&)> unused;

  // Every configuration times every value (configurations outermost), or
  // each with the neutral value when the algorithm does not take it.
  std::vector<Config> apply(const std::vector<Config>& in, const algos::Uses& u) const {
    std::vector<Config> out;
    for (const Config& c : in) {
      if (!(u.*used)) {
        out.push_back(c);
        unused(out.back());
        continue;
      }
      for (const auto& set : values) {
        out.push_back(c);
        set(out.back());
      }
    }
    return out;
  }
};

}  // namespace

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
  const std::vector<int> lbs = parse_lb_option(a.lb, sel.machine, a.machine.profile);
  std::vector<std::pair<int, int>> grids;
  for (const std::string& w : parse_word_list("--grid", a.grid)) {
    grids.push_back(parse_grid("--grid", w));
    auto [pr, pc] = grids.back();
    if (pr > 0 && pr * pc != ranks)
      throw UsageError("--grid: grid " + w + " needs " + std::to_string(pr * pc) + " ranks, have " +
                       std::to_string(ranks) + " (pr x pc must equal the number of MPI ranks)");
  }
  std::vector<int> rs;
  for (const std::string& w : parse_word_list("--recursions", a.recursions))
    rs.push_back(w == "max" ? -1 : static_cast<int>(parse_int_list("--recursions", w, 0, 30).at(0)));

  const std::vector<LocalChoice> given = given_local_choices(a, sel);
  const std::vector<LocalChoice> locals = given.empty() ? std::vector<LocalChoice>{{0, 0, "0"}} : given;
  if (a.local_variant != "winograd" && a.local_variant != "strassen")
    throw UsageError("--local-variant: '" + a.local_variant + "' is not a variant; allowed winograd or strassen");
  std::vector<bool> model_splits;  // false = paper, true = model
  for (const std::string& w : parse_word_list("--q7-split", a.q7_split)) {
    if (w != "paper" && w != "model")
      throw UsageError("--q7-split: '" + w + "' is not a split rule; allowed paper, model or paper,model");
    if (w == "model" && !sel.machine)
      throw UsageError("--q7-split model needs a machine: --profile FILE, or --lambda SECONDS --tau MB/s --flops MFLOPS");
    model_splits.push_back(w == "model");
  }

  std::vector<int> replicas;  // 0 = auto
  for (const std::string& w : parse_word_list("--replicas", a.replicas))
    replicas.push_back(w == "auto" ? 0 : static_cast<int>(parse_int_list("--replicas", w, 1, 1 << 24).at(0)));

  // The swept options as axes, outermost first (the order rows come out
  // in). An algorithm sweeps the options its uses() declares and gets the
  // neutral value of the others. --q7-split comes last: the model's split
  // is chosen for the configuration's other options (no algorithm takes
  // both it and --replicas, so their order does not matter).
  std::vector<OptionAxis> axes;
  axes.push_back({&algos::Uses::grid, {}, [](Config& c) { c.opt.pr = c.opt.pc = 0; }});
  for (auto g : grids) axes.back().values.push_back([g](Config& c) { c.opt.pr = g.first, c.opt.pc = g.second; });
  axes.push_back({&algos::Uses::nb, {}, [](Config& c) { c.opt.nb = 64; }});
  for (auto nb : nbs) axes.back().values.push_back([nb](Config& c) { c.opt.nb = static_cast<int>(nb); });
  axes.push_back({&algos::Uses::lb, {}, [](Config& c) { c.opt.lb = 0; }});
  for (int lb : lbs) axes.back().values.push_back([lb](Config& c) { c.opt.lb = lb; });
  axes.push_back({&algos::Uses::recursions, {}, [](Config& c) { c.opt.recursions = -1; }});
  for (int r : rs) axes.back().values.push_back([r](Config& c) { c.opt.recursions = r; });
  auto set_local = [](const LocalChoice& lc) {
    return [lc](Config& c) {
      c.opt.local_levels = lc.levels;
      c.opt.local_min_dim = lc.min_dim;
      c.local_label = lc.label;
    };
  };
  axes.push_back({&algos::Uses::local_levels, {}, set_local(LocalChoice{0, 0, "0"})});
  for (const LocalChoice& lc : locals) axes.back().values.push_back(set_local(lc));
  // --replicas auto: the largest c whose copies fit (0 if none: the plan's
  // default, which the memory check then refuses).
  axes.push_back({&algos::Uses::replicas, {}, [](Config& c) { c.opt.replicas = 0; }});
  for (int rc : replicas)
    axes.back().values.push_back([rc, ranks, &sel](Config& c) {
      c.opt.replicas = rc > 0 ? rc : algos::largest_replicas_that_fit(c.pb, ranks, sel.max_doubles_per_rank);
    });
  axes.push_back({&algos::Uses::q7_split, {}, [](Config&) {}});
  for (bool model_split : model_splits)
    axes.back().values.push_back([model_split, ranks, &sel](Config& c) {
      if (model_split) choose_split(c, ranks, *sel.machine);
    });

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
      const model::Ranking rk = rank_for(problems[g], base, ranks, sel, only, candidate_levels);
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
        const model::Ranking rk = rank_for(pb, base, ranks, sel, {}, candidate_levels);
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
      o.local_variant = a.local_variant;
      o.threads = a.threads;
      std::vector<Config> cs{Config{al, pb, o}};
      for (const OptionAxis& axis : axes) cs = axis.apply(cs, al->uses());
      out.insert(out.end(), cs.begin(), cs.end());
    }
  }
  return out;
}


}  // namespace mmbench::cli
