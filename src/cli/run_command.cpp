#include "cli/run_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <limits>
#include <sstream>

#include "algos/registry.hpp"
#include "algos/two_point_five_d.hpp"
#include "cli/configuration.hpp"
#include "cli/ranking_table.hpp"
#include "cli/round_statistics.hpp"
#include "cli/sweep_rounds.hpp"
#include "cli/progress.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_lists.hpp"
#include "core/affinity.hpp"
#include "core/blas.hpp"
#include "core/csv_file.hpp"
#include "core/generate.hpp"
#include "core/sysinfo.hpp"
#include "core/paired_stats.hpp"
#include "core/simulation.hpp"
#include "core/timing.hpp"
#include "core/verify.hpp"
#include "cli/results_schema.hpp"
#include "model/algorithm_models.hpp"
#include "model/selection.hpp"

namespace mmbench::cli {

using algos::Algorithm;
using algos::Options;
using algos::Problem;

CLI::App* add_run_command(CLI::App& app, RunArgs& a) {
  CLI::App* run = app.add_subcommand("run", "Measure algorithms over a sweep of sizes and options; verify; write CSV");
  run->add_option("--algo", a.algos,
                  "Algorithms, comma-separated, 'all' (see `mmbench list`), or 'auto' (the model's pick; needs a machine)")
      ->required();
  run->add_option("--n", a.n, "Matrix size n (C is m x n); list or range: 1024,2048 or 1024:4096:1024 or 512:4096:*2")->required();
  run->add_option("--m", a.m, "Rows of A and C (default: = n)");
  run->add_option("--k", a.k, "Inner dimension (default: = n)");
  run->add_option("--reps", a.reps,
                  "Timed rounds: every configuration of a problem size runs once per round, in a shuffled order "
                  "(>= 1), or 'auto': rounds until every ratio's 95 % interval is within --precision or --budget "
                  "is spent")
      ->capture_default_str();
  run->add_option("--precision", a.precision,
                  "--reps auto: target half-width of every ratio's 95 % interval, relative (0.02 = 2 %)")
      ->capture_default_str();
  run->add_option("--budget", a.budget, "--reps auto: seconds of measurement for the whole sweep")
      ->capture_default_str();
  run->add_option("--order-seed", a.order_seed,
                  "Seed of the per-round shuffle (default: drawn at start; the sidecar records it)");
  run->add_option("--warmup", a.warmup, "Untimed warm-up runs (>= 0)")->capture_default_str();
  run->add_option("--csv", a.csv, "Append rows to this CSV (default results/run-<host>.csv); metadata in <csv>.json");
  run->add_option("--nb", a.nb, "Block-cyclic block size(s) for pdgemm")->capture_default_str();
  run->add_option("--lb", a.lb, "PBLAS logical block size(s): 'default' (library's 32), 'auto' (from --profile) or numbers")
      ->capture_default_str();
  run->add_option("--grid", a.grid, "Process grid(s) for pdgemm: auto (most square) or PxQ")->capture_default_str();
  run->add_option("--recursions", a.recursions, "Parallel Strassen levels r: 'max' or numbers")->capture_default_str();
  run->add_option("--threads", a.threads, "BLAS threads per rank")->capture_default_str();
  run->add_option("--local-strassen", a.local_levels,
                  "Local Strassen levels L inside each rank (dgemm, ring, tpmm, Strassen leaves): numbers, e.g. 0,1,2,3, "
                  "or 'auto' (levels while the block is at least the profile's measured crossover; needs --profile). "
                  "Default 0; --algo auto tries 0,1,2,3");
  run->add_option("--local-variant", a.local_variant, "Local fast kernel: winograd (15 additions) or strassen (18)")
      ->capture_default_str();
  run->add_option("--q7-split", a.q7_split,
                  "Q7 group split: 'paper' (eq. 2.18: ~2p/7, 2p/7, 2p/7, p/7), 'model' (the refined model's fastest "
                  "split per level; needs a machine) or both: paper,model")
      ->capture_default_str();
  run->add_option("--replicas", a.replicas,
                  "2.5d: layers c (p = q^2 x c), numbers or 'auto' (the largest c whose copies of A and B fit in memory)")
      ->capture_default_str();
  run->add_option("--seed", a.seed, "Seed of the generated matrices")->capture_default_str();
  run->add_flag("--no-verify", a.no_verify, "Skip the residual check");
  add_machine_options(run, a.machine);
  run->add_option("--model", a.model, "Model that ranks candidates for --algo auto / --validate: refined or paper")
      ->capture_default_str();
  run->add_flag("--explain", a.explain, "Print the ranked candidates (and why others are excluded) before running");
  run->add_flag("--validate", a.validate,
                "Run every applicable candidate of --algo; report measured best, auto's pick, regret, model errors");
  run->add_flag("--quiet", a.quiet, "No progress on stderr");
  run->add_flag("--progress", a.progress, "Progress on stderr even when it is not a terminal");
  return run;
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
    const Algorithm* a = algos::find_algorithm(name);
    if (!a)
      throw UsageError("--algo: unknown algorithm '" + name + "'; did you mean '" + algos::closest_algorithm(name) +
                       "'? (`mmbench list` shows all)");
    out.push_back(a);
  }
  return out;
}

constexpr std::int64_t kMaxDim = 10'000'000;

// --reps: a number of rounds, or auto (rounds until --precision or --budget).
struct RepsRule {
  bool automatic = false;
  int rounds = 3;
};

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

// What the selection needs besides the arguments.
struct Selection {
  const Machine* machine = nullptr;  // null: no machine given
  model::ModelKind kind = model::ModelKind::refined;
  double max_doubles_per_rank = 0;   // memory per rank (same on every rank)
};

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

model::Ranking rank_for(const Problem& pb, const Options& base, int ranks, const Selection& sel,
                        const std::vector<std::string>& only, const std::vector<int>& local_levels) {
  try {
    return model::rank_candidates(pb, ranks, base, sel.machine->params, sel.kind,
                                  space_for(sel, only, local_levels));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("model: ") + e.what());
  }
}

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

// One value of --local-strassen.
struct LocalChoice {
  int levels = 0;
  std::int64_t min_dim = 0;  // 0: the kernel's default (256)
  std::string label;         // as asked: "2", "auto"
};

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

// What --algo auto, --validate and --explain rank: the base options and the
// local levels to try (0..3 unless --local-strassen is given), with the
// profile's crossover as the kernel's cut-off where it was measured.
struct AutoSpace {
  Options base;
  std::vector<int> levels;
};

// given: the parsed --local-strassen values, empty when it was not given.
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

// --local-strassen as parsed; empty when it was not given.
std::vector<LocalChoice> given_local_choices(const RunArgs& a, const Selection& sel) {
  return a.local_levels.empty() ? std::vector<LocalChoice>{} : local_choices(a.local_levels, a, sel);
}

std::vector<Config> expand(const RunArgs& a, int ranks, const Selection& sel) {
  auto algos_ = resolve_algorithms(a.algos);
  const bool wants_auto = std::find(algos_.begin(), algos_.end(), nullptr) != algos_.end();
  if ((wants_auto || a.validate || a.explain) && !sel.machine)
    throw UsageError(std::string(wants_auto ? "--algo auto" : a.validate ? "--validate" : "--explain") +
                     " needs a machine: --profile FILE, or --lambda SECONDS --tau MB/s --flops MFLOPS");
  auto ns = parse_int_list("--n", a.n, 1, kMaxDim);
  auto ms = a.m.empty() ? std::vector<std::int64_t>{} : parse_int_list("--m", a.m, 1, kMaxDim);
  auto ks = a.k.empty() ? std::vector<std::int64_t>{} : parse_int_list("--k", a.k, 1, kMaxDim);
  auto nbs = parse_int_list("--nb", a.nb, 1, 1 << 20);
  (void)parse_reps(a);
  if (a.warmup < 0 || a.warmup > 1000) throw UsageError("--warmup: " + std::to_string(a.warmup) + " is out of range; allowed 0 to 1000");
  if (a.threads < 1 || a.threads > 1024) throw UsageError("--threads: " + std::to_string(a.threads) + " is out of range; allowed 1 to 1024");

  std::vector<int> lbs;
  for (const std::string& w : parse_word_list("--lb", a.lb)) {
    if (w == "default") lbs.push_back(0);
    else if (w == "auto") {
      if (a.machine.profile.empty()) throw UsageError("--lb auto needs --profile FILE (a machine profile from `mmbench tune`)");
      if (!sel.machine || sel.machine->lb <= 0) throw UsageError("--lb auto: the profile has no tuned lb");
      lbs.push_back(sel.machine->lb);
    } else {
      lbs.push_back(static_cast<int>(parse_int_list("--lb", w, 1, 1 << 20).at(0)));
    }
  }
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

  std::vector<Config> out;
  std::vector<Problem> problems;
  for (std::int64_t n : ns)
    for (std::int64_t m : ms.empty() ? std::vector<std::int64_t>{n} : ms)
      for (std::int64_t k : ks.empty() ? std::vector<std::int64_t>{n} : ks) problems.push_back(Problem{m, n, k});
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
    const algos::Uses u = al->uses();
    const bool q7 = u.q7_split;  // the split is the model's (Algorithm::models())
    for (std::int64_t n : ns)
      for (std::int64_t m : ms.empty() ? std::vector<std::int64_t>{n} : ms)
        for (std::int64_t k : ks.empty() ? std::vector<std::int64_t>{n} : ks)
          for (auto g : u.grid ? grids : std::vector<std::pair<int, int>>{{0, 0}})
            for (int nb : u.nb ? std::vector<int>(nbs.begin(), nbs.end()) : std::vector<int>{64})
              for (int lb : u.lb ? lbs : std::vector<int>{0})
                for (int r : u.recursions ? rs : std::vector<int>{-1})
                  for (const LocalChoice& lc : u.local_levels ? locals : std::vector<LocalChoice>{{0, 0, "0"}})
                    for (bool model_split : q7 ? model_splits : std::vector<bool>{false})
                      for (int reps_c : u.replicas ? replicas : std::vector<int>{0}) {
                      Options o;
                      // auto: the largest c whose copies fit (0 if none: the
                      // plan's default, which the memory check then refuses).
                      o.replicas = reps_c > 0 ? reps_c : u.replicas ? algos::largest_replicas_that_fit(Problem{m, n, k}, ranks,
                                                                                             sel.max_doubles_per_rank) : 0;
                      o.local_levels = lc.levels;
                      o.local_min_dim = lc.min_dim;
                      o.local_variant = a.local_variant;
                      o.threads = a.threads;
                      o.nb = nb;
                      o.lb = lb;
                      o.pr = g.first;
                      o.pc = g.second;
                      o.recursions = r;
                      Config c{al, Problem{m, n, k}, o};
                      c.local_label = lc.label;
                      if (model_split) choose_split(c, ranks, *sel.machine);
                      out.push_back(c);
                    }
  }
  return out;
}

std::string fmt_sig(double v) { return fmt::format("{:.6g}", v); }

// Refuse, before anything is allocated, a sweep whose largest problem
// cannot fit: the estimate is the algorithm's own lower bound on doubles
// per rank, against the memory available on this node shared by the ranks
// placed on it.
// Simulated ranks (SMPI) all share this machine's memory; with charged
// computation their large buffers are shared pages and nothing is checked.
void check_memory(const std::vector<Config>& configs, const Comm& world) {
  if (sim::charged()) return;
  Comm node = world.split_node();
  const int sharing = sim::simulated() ? world.size() : node.size();
  double avail = world.min(static_cast<double>(available_memory_bytes()) / sharing);
  if (avail <= 0) return;  // unknown: do not guess
  for (const Config& c : configs) {
    double need = 8.0 * c.algo->estimate_doubles_per_rank(c.pb, c.opt, world.size());
    if (need > 0.9 * avail)
      throw UsageError(fmt::format(
          "{} m={} n={} k={} needs about {:.1f} GiB per rank, but only {:.1f} GiB per rank are available "
          "({} ranks on this node); use smaller sizes or more nodes",
          c.algo->name(), c.pb.m, c.pb.n, c.pb.k, need / (1 << 30), avail / (1 << 30), sharing));
  }
}

// --order-seed, or one drawn on rank 0 and shared (so different runs do
// not all share one order, and each can be replayed from its sidecar).
std::uint64_t choose_order_seed(const RunArgs& a, const Comm& world) {
  if (!a.order_seed.empty()) {
    const auto v = parse_int_list("--order-seed", a.order_seed, 0, std::numeric_limits<std::int64_t>::max());
    return static_cast<std::uint64_t>(v.at(0));
  }
  long long seed = 0;
  if (world.rank() == 0) seed = static_cast<long long>(std::random_device{}() & 0x7fffffff);
  return static_cast<std::uint64_t>(world.max(seed));
}

void write_sidecar(const std::string& csv_path, const RunArgs& a, const Comm& world, std::uint64_t order_seed) {
  const std::string path = csv_path + ".json";
  nlohmann::json doc;
  {
    std::ifstream in(path);
    if (in) {
      try { doc = nlohmann::json::parse(in); } catch (...) { doc = nlohmann::json::object(); }
    }
  }
  if (!doc.is_object()) doc = nlohmann::json::object();
  doc["csv"] = csv_path;
  doc["schema"] = "mmbench-results/1";
  nlohmann::json run = {
      {"started", utc_timestamp()},
      {"command", a.command_line},
      {"mmbench", mmbench_version()},
      {"host", host_name()},
      {"cpu", cpu_model()},
      {"cores", cpu_cores()},
      {"ranks", world.size()},
      {"mpi", mpi_library_version()},
      {"blas", blas_config()},
      {"scalapack", scalapack_version()},
      {"omp_openblas_threads_env", getenv("OPENBLAS_NUM_THREADS") ? getenv("OPENBLAS_NUM_THREADS") : ""},
      // Replays the same per-round order: run ... --order-seed <this>.
      {"order_seed", order_seed},
      {"reps", a.reps},
      {"precision", a.precision},
      {"budget_s", a.budget},
      {"interval", "median with a distribution-free order-statistics 95 % interval (binomial); "
                   "ratios formed per round"},
  };
  if (sim::simulated())
    run["simulated"] = {{"platform", sim::platform()},
                        {"platform_sha256", sim::platform_sha256()},
                        {"compute", sim::compute_mode()},
                        {"profile", sim::profile_path()},
                        {"simgrid", "SMPI (smpirun; simulated times, not measured ones)"}};
  if (!doc.contains("runs") || !doc["runs"].is_array()) doc["runs"] = nlohmann::json::array();
  doc["runs"].push_back(run);
  write_file_atomically(path, doc.dump(2) + "\n");
}

// Both predictions for the configuration as it ran: recursions, grid and lb
// as the plan reported them (describe()), so "max" and "auto" are priced at
// what the algorithm really chose.
void add_predictions(const Config& c, const Machine& machine, int ranks, std::map<std::string, std::string>& row) {
  Options o = c.opt;
  auto get = [&](const char* k) {
    auto it = row.find(k);
    return it == row.end() ? std::string() : it->second;
  };
  try {
    if (!get("recursions").empty()) o.recursions = std::stoi(get("recursions"));
    if (auto g = get("grid"); !g.empty()) std::tie(o.pr, o.pc) = parse_grid("grid", g);
    // lb 0 (library default) stays 0: the paper prices it with its own rate.
    if (!get("lb").empty() && o.lb > 0) o.lb = std::stoi(get("lb"));
  } catch (const std::exception&) {
    // a column the plan wrote in another form: price the options as given
  }
  model::Prediction paper, refined;
  try {
    model::predict_configuration(*c.algo, c.pb, o, ranks, machine.params, paper, refined);
  } catch (const std::invalid_argument&) {
    return;  // a model that does not cover this configuration: leave empty
  }
  row["pred_paper"] = fmt_sig(paper.total());
  row["pred_refined"] = fmt_sig(refined.total());
  if (auto it = row.find("t_median"); it != row.end() && !it->second.empty()) {
    const double t = std::stod(it->second);
    if (t > 0) {
      row["err_paper"] = fmt::format("{:.4f}", (paper.total() - t) / t);
      row["err_refined"] = fmt::format("{:.4f}", (refined.total() - t) / t);
    }
  }
}

// The columns every row has, measured or not.
std::map<std::string, std::string> identity_row(const Config& c, const RunArgs& a, int p, std::uint64_t order_seed) {
  std::map<std::string, std::string> row;
  row["timestamp"] = utc_timestamp();
  row["host"] = host_name();
  row["simulated"] = sim::platform();  // empty for real runs
  row["p"] = std::to_string(p);
  row["threads"] = std::to_string(c.opt.threads);
  row["algo"] = std::string(c.algo->name());
  row["m"] = std::to_string(c.pb.m);
  row["n"] = std::to_string(c.pb.n);
  row["k"] = std::to_string(c.pb.k);
  row["warmup"] = std::to_string(a.warmup);
  row["reps_asked"] = a.reps;
  row["order_seed"] = std::to_string(order_seed);
  row["local_levels"] = c.local_label.empty() ? std::to_string(c.opt.local_levels) : c.local_label;
  row["selected_by"] = c.selected_by;
  if (!c.runner_up.empty()) row["runner_up"] = c.runner_up;
  return row;
}

// Times, rates, noise and verification of a measured configuration.
void add_measurement(std::map<std::string, std::string>& row, const Config& c, const Measured& m) {
  for (auto& [k, v] : m.described) row[k] = v;
  const MedianInterval t = median_interval(m.times);
  const Stats st = summarize(m.times);
  row["reps"] = std::to_string(m.times.size());
  row["t_min"] = fmt_sig(st.min);
  row["t_median"] = fmt_sig(st.median);
  row["t_max"] = fmt_sig(st.max);
  row["t_median_lo"] = fmt_sig(t.lo);
  row["t_median_hi"] = fmt_sig(t.hi);
  row["ci_coverage"] = fmt::format("{:.3f}", t.coverage);
  const double cv = coefficient_of_variation(m.times);
  row["cv"] = fmt::format("{:.4f}", cv);
  row["noisy"] = cv > kNoisyCoefficientOfVariation ? "yes" : "no";
  row["peak_mem_mb"] = fmt::format("{:.1f}", m.peak_mem_mb);
  // Per processor = per core used: ranks x BLAS threads of the row (dgemm
  // reports its one rank with all the job's cores as threads), so rows with
  // different thread counts compare fairly.
  row["mflops_per_proc"] =
      fmt::format("{:.1f}", mflops_per_proc(c.pb, st.median, std::stoi(row["p"]), std::stoi(row["threads"])));
  row["gflops_total"] = fmt::format("{:.3f}", c.pb.flops() / st.median / 1e9);
  bool failed = false;
  if (m.residual < 0) {
    row["verified"] = "skipped";
    if (sim::charged()) row["reason"] = "simulated with charged computation: no result to verify";
  } else {
    row["residual"] = fmt::format("{:.3g}", m.residual);
    row["residual_limit"] = fmt::format("{:.3g}", m.residual_limit);
    failed = !(m.residual <= m.residual_limit);
    row["verified"] = failed ? "no" : "yes";
  }
  row["status"] = failed ? "failed" : "ok";
  if (failed) row["reason"] = "residual above limit";
}

// Speed relative to the peer, round by round (peer time / this time).
void add_peer_ratio(std::map<std::string, std::string>& row, const Measured& peer, const Measured& m) {
  const MedianInterval r = paired_speed_ratio(peer.times, m.times);
  row["peer_ratio"] = fmt::format("{:.4f}", r.median);
  row["peer_ratio_lo"] = fmt::format("{:.4f}", r.lo);
  row["peer_ratio_hi"] = fmt::format("{:.4f}", r.hi);
}

void print_header() {
  fmt::print("{:<20} {:>3} {:>3} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5} {:>2} {:>4} {:>10} {:>10} {:>9} {:>14} {:>9}  {}\n", "algo",
             "p", "thr", "m", "n", "k", "grid", "nb", "lb", "r", "L", "t_med[s]", "MFLOPS/p", "GFLOP/s", "vs peer",
             "residual", "status");
}

// "0.98 ±0.02": the median ratio to the peer and its interval's half-width
// (the larger side; the CSV has both bounds).
std::string ratio_cell(const std::map<std::string, std::string>& r) {
  auto it = r.find("peer_ratio");
  if (it == r.end() || it->second.empty()) return "";
  const double med = std::stod(it->second), lo = std::stod(r.at("peer_ratio_lo")), hi = std::stod(r.at("peer_ratio_hi"));
  return fmt::format("{:.3f} ±{:.3f}", med, std::max(med - lo, hi - med));
}

void print_row(const std::map<std::string, std::string>& r) {
  auto g = [&](const char* k) {
    auto it = r.find(k);
    return it == r.end() ? std::string() : it->second;
  };
  std::string status = g("status");
  if (status != "ok") status += " (" + g("reason") + ")";
  if (g("noisy") == "yes") status += fmt::format(" noisy (cv {:.0f} %)", 100 * std::stod(g("cv")));
  fmt::print("{:<20} {:>3} {:>3} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5} {:>2} {:>4} {:>10} {:>10} {:>9} {:>14} {:>9}  {}\n",
             g("algo"), g("p"), g("threads"), g("m"), g("n"), g("k"), g("grid"), g("nb"), g("lb"), g("recursions"),
             g("local_levels"), g("t_median"), g("mflops_per_proc"), g("gflops_total"), ratio_cell(r), g("residual"),
             status);
  std::fflush(stdout);
}

// The p-th quantile (0..1) of v by linear interpolation; v not empty.
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * (v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - lo) * (v[hi] - v[lo]);
}

// --validate: per problem, the measured best against the model's pick.
// Candidates count when they compute on the same cores as the pick (ranks x
// threads; the dgemm peer's one rank with all cores counts as all cores),
// whatever rank count their row shows. regret = t(pick) / t(best) formed
// round by round from the interleaved measurement (median and 95 % interval;
// 1 = the model chose right), and the spread of both models' |relative
// error|. Rank 0 only.
// <csv stem>: the path without ".csv".
std::string validation_stem(const std::string& csv_path) {
  return csv_path.size() > 4 && csv_path.ends_with(".csv") ? csv_path.substr(0, csv_path.size() - 4) : csv_path;
}

void write_validation(CsvFile& out, const std::string& stem, const std::vector<Config>& configs,
                      const std::vector<std::map<std::string, std::string>>& rows,
                      const std::vector<const Measured*>& measured, model::ModelKind kind, int ranks) {
  std::string text = fmt::format("validation of the {} model on p = {} ({} configurations)\n", model::to_string(kind),
                                 ranks, configs.size());
  std::vector<double> regrets, all_paper, all_refined;
  int groups = 0;
  for (const Config& c : configs) groups = std::max(groups, c.group + 1);
  for (int g = 0; g < groups; ++g) {
    std::vector<double> ep, er;
    int pick = -1, best = -1, candidates = 0, measured_count = 0;
    double t_best = 0;
    for (std::size_t i = 0; i < configs.size(); ++i)
      if (configs[i].group == g && configs[i].model_pick) pick = static_cast<int>(i);
    const int cores = pick >= 0 ? configs[static_cast<std::size_t>(pick)].cores(ranks) : 0;
    Problem pb{};
    for (std::size_t i = 0; i < configs.size(); ++i) {
      if (configs[i].group != g || configs[i].cores(ranks) != cores) continue;
      ++candidates;
      pb = configs[i].pb;
      const auto& row = rows[i];
      auto get = [&](const char* k) {
        auto it = row.find(k);
        return it == row.end() ? std::string() : it->second;
      };
      if (get("status") != "ok" || !measured[i]) continue;
      ++measured_count;
      const double t = std::stod(get("t_median"));
      if (best < 0 || t < t_best) {
        t_best = t;
        best = static_cast<int>(i);
      }
      if (!get("err_paper").empty()) ep.push_back(std::abs(std::stod(get("err_paper"))));
      if (!get("err_refined").empty()) er.push_back(std::abs(std::stod(get("err_refined"))));
    }
    all_paper.insert(all_paper.end(), ep.begin(), ep.end());
    all_refined.insert(all_refined.end(), er.begin(), er.end());
    auto label = [&](int i) {
      if (i < 0) return std::string();
      const Config& c = configs[static_cast<std::size_t>(i)];
      return model::Candidate{c.algo, c.opt, {}, {}}.label();
    };
    std::map<std::string, std::string> r = {
        {"p", std::to_string(ranks)}, {"cores", std::to_string(cores)}, {"m", std::to_string(pb.m)},
        {"n", std::to_string(pb.n)}, {"k", std::to_string(pb.k)}, {"candidates", std::to_string(candidates)},
        {"measured", std::to_string(measured_count)}, {"best", label(best)}, {"pick", label(pick)},
        {"model", model::to_string(kind)}};
    if (best >= 0) r["t_best"] = fmt_sig(t_best);
    std::string regret = "-";
    const Measured* mp = pick >= 0 ? measured[static_cast<std::size_t>(pick)] : nullptr;
    if (mp && best >= 0 && rows[static_cast<std::size_t>(pick)].at("status") == "ok") {
      const Measured& mb = *measured[static_cast<std::size_t>(best)];
      // t_pick / t_best per round: the speed of best relative to the pick.
      const MedianInterval reg = paired_speed_ratio(mp->times, mb.times);
      r["t_pick"] = rows[static_cast<std::size_t>(pick)].at("t_median");
      r["rounds"] = std::to_string(reg.n);
      r["regret"] = fmt::format("{:.3f}", reg.median);
      r["regret_ci_lo"] = fmt::format("{:.3f}", reg.lo);
      r["regret_ci_hi"] = fmt::format("{:.3f}", reg.hi);
      regret = fmt::format("{} [{}, {}]", r["regret"], r["regret_ci_lo"], r["regret_ci_hi"]);
      regrets.push_back(reg.median);
    }
    auto q = [](const std::vector<double>& v, double x) { return v.empty() ? std::string() : fmt::format("{:.3f}", quantile(v, x)); };
    r["median_abs_err_paper"] = q(ep, 0.5);
    r["p90_abs_err_paper"] = q(ep, 0.9);
    r["median_abs_err_refined"] = q(er, 0.5);
    r["p90_abs_err_refined"] = q(er, 0.9);
    out.append(r);
    text += fmt::format(
        "m={} n={} k={} on {} cores: best {} ({} s), pick {} ({} s), regret {}; |err| median/p90 paper {}/{}, refined {}/{}\n",
        pb.m, pb.n, pb.k, cores, best < 0 ? "-" : r["best"], r["t_best"], r["pick"], r["t_pick"].empty() ? "-" : r["t_pick"],
        regret, r["median_abs_err_paper"], r["p90_abs_err_paper"], r["median_abs_err_refined"], r["p90_abs_err_refined"]);
  }
  if (!regrets.empty())
    text += fmt::format("overall: regret median {:.3f}, max {:.3f} over {} problems; |err| median paper {}, refined {}\n",
                        quantile(regrets, 0.5), *std::max_element(regrets.begin(), regrets.end()), regrets.size(),
                        all_paper.empty() ? "-" : fmt::format("{:.3f}", quantile(all_paper, 0.5)),
                        all_refined.empty() ? "-" : fmt::format("{:.3f}", quantile(all_refined, 0.5)));
  // Appended like the CSV, so runs at several p collect in one summary.
  std::ofstream txt(stem + "-validate.txt", std::ios::app);
  txt << text;
  if (!txt) fmt::print(stderr, "mmbench: warning: cannot append to {}-validate.txt\n", stem);
  fmt::print("{}validation written to {}-validate.csv and {}-validate.txt\n", text, stem, stem);
}

}  // namespace

int run_command(const RunArgs& a, const Comm& world) {
  record_node_cpus(world);  // so multi-threaded ranks can widen their affinity
  // The machine, if any: every rank reads the same file, so every rank
  // throws the same UsageError.
  std::optional<Machine> machine;
  if (a.machine.given()) machine = load_machine(a.machine);
  Selection sel;
  sel.machine = machine ? &*machine : nullptr;
  try {
    sel.kind = model::parse_model_kind(a.model);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--model: ") + e.what());
  }
  {
    Comm node = world.split_node();
    const int sharing = sim::simulated() ? world.size() : node.size();
    const double avail = world.min(static_cast<double>(available_memory_bytes()) / sharing);
    if (avail > 0 && !sim::charged()) sel.max_doubles_per_rank = 0.9 * avail / 8.0;
  }
  std::vector<Config> configs = expand(a, world.size(), sel);
  check_memory(configs, world);
  const std::uint64_t order_seed = choose_order_seed(a, world);

  // Rank 0 owns the files; it checks them before anything runs and tells
  // the others, so a bad path fails at once on every rank.
  std::string csv_path = a.csv.empty() ? "results/run-" + host_name() + ".csv" : a.csv;
  std::unique_ptr<CsvFile> csv, validate_csv;
  std::string err;
  if (world.rank() == 0) {
    try {
      csv = std::make_unique<CsvFile>(csv_path, results_columns());
      if (a.validate) {
        // Every file the run will write is checked now, not after the sweep.
        const std::string stem = validation_stem(csv_path);
        validate_csv = std::make_unique<CsvFile>(stem + "-validate.csv", validation_columns());
        std::ofstream txt(stem + "-validate.txt", std::ios::app);
        if (!txt) throw std::runtime_error("cannot append to " + stem + "-validate.txt");
      }
      write_sidecar(csv_path, a, world, order_seed);
    } catch (const std::exception& e) {
      err = e.what();
    }
  }
  err = world.bcast_string(err, 0);
  if (!err.empty()) throw UsageError("--csv: " + err);

  if (a.explain && world.rank() == 0) {
    fmt::print("machine {}\n", describe(*machine));
    const std::vector<LocalChoice> given = given_local_choices(a, sel);
    std::vector<Problem> shown;
    for (const Config& c : configs) {
      bool seen = false;
      for (const Problem& q : shown) seen = seen || (q.m == c.pb.m && q.n == c.pb.n && q.k == c.pb.k);
      if (seen) continue;
      shown.push_back(c.pb);
      const AutoSpace as = auto_space(a, sel, c.opt.nb, given);
      print_ranking(rank_for(c.pb, as.base, world.size(), sel, {}, as.levels), c.pb, world.size(), 0, true);
    }
  }
  // Problems in the order they first appear; each is measured in rounds.
  std::vector<std::vector<std::size_t>> problems;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    auto it = std::find_if(problems.begin(), problems.end(),
                           [&](const auto& g) { return configs[g.front()].same_problem(configs[i]); });
    if (it == problems.end()) problems.push_back({i});
    else it->push_back(i);
  }
  const RepsRule reps = parse_reps(a);
  std::size_t planned_runs = 0;
  for (const Config& c : configs) (void)c, planned_runs += static_cast<std::size_t>(reps.automatic ? kAutoFirstPreciseRounds : reps.rounds);
  Progress progress(world.rank() == 0 && !a.quiet, a.progress, planned_runs);
  if (world.rank() == 0) print_header();
  std::vector<std::map<std::string, std::string>> rows(configs.size());
  std::vector<Measured> measurements(configs.size());
  std::vector<const Measured*> measured(configs.size(), nullptr);
  bool warned = false;
  int failures = 0;
  std::size_t rows_written = 0;
  const double t_sweep = MPI_Wtime();
  for (std::size_t g = 0; g < problems.size(); ++g) {
    std::vector<const Config*> runnable;
    std::vector<std::size_t> index;  // runnable -> configs
    std::optional<std::size_t> peer;
    for (std::size_t i : problems[g]) {
      const Config& c = configs[i];
      rows[i] = identity_row(c, a, world.size(), order_seed);
      algos::Applicability ap = c.refuse.empty() ? c.algo->check(c.pb, c.opt, world.size()) : algos::Applicability{c.refuse};
      if (ap.ok() && sim::simulated() && c.opt.threads > 1)
        ap.reason = "a simulated rank (SMPI) runs one thread: use more ranks, not --threads";
      if (!ap.ok()) {
        rows[i]["status"] = "not-applicable";
        rows[i]["reason"] = ap.reason;
        continue;
      }
      if (c.is_peer() && !peer) peer = runnable.size();
      runnable.push_back(&c);
      index.push_back(i);
    }
    RoundSettings rs;
    rs.rounds = reps.automatic ? 0 : reps.rounds;
    rs.warmup = a.warmup;
    rs.precision = a.precision;
    // --budget is for the whole sweep: each problem gets an even share of
    // what is left, so time a small problem does not use passes on.
    rs.budget_s = (a.budget - (MPI_Wtime() - t_sweep)) / static_cast<double>(problems.size() - g);
    rs.order_seed = order_seed + g;
    rs.data_seed = a.seed;
    rs.verify = !a.no_verify;
    rs.memory_doubles_per_rank = 0.7 * sel.max_doubles_per_rank;
    const RoundsResult res = measure_in_rounds(runnable, peer, rs, world, [&](int round, int planned, const Config& c) {
      progress.start(fmt::format("round {}/{}{}: {} m={} n={} k={}", round + 1, planned, reps.automatic ? "+" : "",
                                 c.algo->name(), c.pb.m, c.pb.n, c.pb.k));
    });
    if (res.signal) {
      // This problem size's rounds are incomplete: none of its rows is
      // written (the rows of earlier sizes are, whole).
      progress.finish();
      if (world.rank() == 0)
        fmt::print(stderr, "mmbench: interrupted by {} during m={} n={} k={}: {} rows written to {}; that size's "
                           "incomplete rounds are not written\n",
                   res.signal == SIGINT ? "SIGINT" : res.signal == SIGTERM ? "SIGTERM" : fmt::format("signal {}", res.signal),
                   configs[problems[g].front()].pb.m, configs[problems[g].front()].pb.n,
                   configs[problems[g].front()].pb.k, rows_written, csv_path);
      return 128 + res.signal;
    }
    const std::vector<Measured>& ms = res.measured;
    const bool peer_ok = peer && ms[*peer].failure.empty();
    for (std::size_t j = 0; j < runnable.size(); ++j) {
      const std::size_t i = index[j];
      measurements[i] = ms[j];
      if (!ms[j].failure.empty()) {
        rows[i]["status"] = "failed";
        rows[i]["reason"] = ms[j].failure;
        if (!ms[j].times.empty()) rows[i]["reps"] = std::to_string(ms[j].times.size());
        ++failures;
        continue;
      }
      measured[i] = &measurements[i];
      add_measurement(rows[i], configs[i], ms[j]);
      if (peer_ok && configs[i].cores(world.size()) == runnable[*peer]->cores(world.size()))
        add_peer_ratio(rows[i], ms[*peer], ms[j]);
      if (sel.machine) add_predictions(configs[i], *sel.machine, world.size(), rows[i]);
      if (rows[i]["status"] == "failed") ++failures;
      if (!warned && world.rank() == 0 && !ms[j].warning.empty()) {
        progress.clear();
        fmt::print(stderr, "{}\n", ms[j].warning);
        warned = true;
      }
    }
    if (world.rank() == 0) {
      progress.clear();
      for (std::size_t i : problems[g]) {
        print_row(rows[i]);
        csv->append(rows[i]);
        ++rows_written;
      }
    }
  }
  progress.finish();
  if (world.rank() == 0) fmt::print("results appended to {} (metadata: {}.json)\n", csv_path, csv_path);
  if (a.validate && world.rank() == 0)
    write_validation(*validate_csv, validation_stem(csv_path), configs, rows, measured, sel.kind, world.size());
  return failures ? 1 : 0;
}

}  // namespace mmbench::cli
