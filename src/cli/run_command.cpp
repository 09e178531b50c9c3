#include "cli/run_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <limits>

#include "algos/registry.hpp"
#include "cli/blas_kernel_switch.hpp"
#include "cli/common_options.hpp"
#include "run/configuration.hpp"
#include "cli/machine_report.hpp"
#include "cli/local_results.hpp"
#include "results/ranking_table.hpp"
#include "run/round_statistics.hpp"
#include "run/sweep_expansion.hpp"
#include "run/sweep_rounds.hpp"
#include "cli/progress.hpp"
#include "core/usage_error.hpp"
#include "core/mpi/interrupt.hpp"
#include "core/value_lists.hpp"
#include "core/machine/affinity.hpp"
#include "core/machine/blas.hpp"
#include "core/csv_file.hpp"
#include "core/machine/sysinfo.hpp"
#include "core/simulation.hpp"
#include "local/packed_gemm.hpp"
#include "ranking/option_table.hpp"
#include "results/results_schema.hpp"
#include "results/layout_summary.hpp"
#include "results/result_row.hpp"
#include "cli/run_memory.hpp"
#include "cli/profile_drift.hpp"
#include "cli/run_metadata.hpp"
#include "results/run_exports.hpp"
#include "cli/run_header.hpp"
#include "cli/run_sidecar.hpp"
#include "results/validation_report.hpp"
#include "model/algorithm_models.hpp"
#include "ranking/selection.hpp"
#include "tuner/blas_check.hpp"

namespace mmbench::cli {

using results::add_measurement;
using results::add_peak_fraction;
using results::add_peer_ratio;
using results::CandidateResult;
using results::identity_row;
using results::predict_as_ran;
using results::print_header;
using results::print_ranking;
using results::print_row;
using results::ResultRow;
using results::results_columns;
using results::validation_columns;
using results::validation_stem;
using results::write_validation;
using run::Config;
using run::kAutoFirstPreciseRounds;
using run::measure_in_rounds;
using run::Measured;
using run::RoundSettings;
using run::RoundsResult;
using run::RunSpec;
using run::Selection;

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
                  "(>= 1), or 'auto': rounds until every ratio's interval reaches 95 % coverage and is within "
                  "--precision, or --budget is spent. An interval's coverage depends on the rounds: 3 give "
                  "[min, max] with 75 %, 6 or more >= 95 % (CSV column ci_coverage)")
      ->capture_default_str();
  run->add_option("--precision", a.precision,
                  "--reps auto: target half-width of every ratio's interval, relative (0.02 = 2 %); the interval "
                  "is the order-statistics one, whose coverage depends on the rounds (>= 95 % from 6 on)")
      ->capture_default_str();
  run->add_option("--budget", a.budget, "--reps auto: seconds of measurement for the whole sweep")
      ->capture_default_str();
  run->add_option("--order-seed", a.order_seed,
                  "Seed of the per-round shuffle (default: drawn at start; the sidecar records it)");
  run->add_option("--warmup", a.warmup, "Untimed warm-up runs (>= 0)")->capture_default_str();
  run->add_option("--csv", a.csv, "Append rows to this CSV (default results/local/run-<host>.csv, ignored by git); metadata in <csv>.json");
  run->add_option("--json", a.json, "Also write the rows, typed, with the run's metadata to this JSON file "
                                    "(schema mmbench-results/2, docs/json-schema.md)");
  run->add_option("--markdown", a.markdown, "Also write the table as Markdown to this file");
  run->add_option("--threads", a.threads, "BLAS threads per rank")->capture_default_str();
  // The swept options (--grid, --nb, --lb, ...): one table,
  // ranking/option_table.hpp.
  for (const ranking::OptionRow& o : ranking::option_table()) {
    CLI::Option* opt = run->add_option(o.flag, a.options.at(o.flag), o.help);
    if (o.show_default) opt->capture_default_str();
  }
  run->add_option("--seed", a.seed, "Seed of the generated matrices")->capture_default_str();
  run->add_flag("--no-verify", a.no_verify, "Skip the residual check");
  run->add_flag("--keep-blas-kernel", a.keep_blas_kernel,
                "Keep the OpenBLAS core OpenBLAS detects even where --profile names a faster verified one");
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

// The profile against this run's DGEMM peer (profile_drift.hpp): one line
// where it is stale, the comparison in the sidecar. Rank 0, real runs only
// (a simulated peer is priced from the profile itself).
void report_profile_drift(const std::vector<PeerCheck>& checks, const Machine& machine, const std::string& profile,
                          const std::string& csv_path, const std::string& started) {
  const ProfileDrift drift = assess_drift(checks, machine.facts.dgemm_noise);
  if (!drift.checked) return;
  if (const std::string line = describe_drift(drift, profile); !line.empty()) fmt::print(stderr, "{}\n", line);
  add_to_sidecar(csv_path, started, "profile_check", drift_json(drift, profile));
}

// Rank 0's outputs of a run, opened (every path checked) before anything
// runs and the verdict shared, so a bad path fails at once on every rank.
struct RunOutputs {
  std::string csv_path;
  std::unique_ptr<CsvFile> csv, validate_csv;  // validate_csv: --validate or auto among named algorithms
  std::unique_ptr<results::RunExports> exports;  // --json, --markdown
};

RunOutputs open_outputs(const RunArgs& a, const RunSpec& spec, const Comm& world, bool regret_report,
                        std::uint64_t order_seed, const std::string& started, const MachineFacts& facts) {
  RunOutputs out;
  out.csv_path = a.csv.empty() ? local_results_path("run-" + host_name() + ".csv") : a.csv;
  std::string err;
  if (world.rank() == 0) {
    try {
      if (a.csv.empty()) make_local_results_dir();
      out.csv = std::make_unique<CsvFile>(out.csv_path, results_columns());
      if (regret_report) {
        // Every file the run will write is checked now, not after the sweep.
        const std::string stem = validation_stem(out.csv_path);
        out.validate_csv = std::make_unique<CsvFile>(stem + "-validate.csv", validation_columns());
        std::ofstream txt(stem + "-validate.txt", std::ios::app);
        if (!txt) throw std::runtime_error("cannot append to " + stem + "-validate.txt");
      }
      write_sidecar(out.csv_path, a, spec.reps, world, order_seed, started, machine_report_json(facts.machine));
    } catch (const std::exception& e) {
      err = std::string("--csv: ") + e.what();
    }
    if (err.empty() && (!a.json.empty() || !a.markdown.empty())) try {
        out.exports = std::make_unique<results::RunExports>(
            a.json, a.markdown, run_metadata(a, facts, order_seed, started), markdown_heading(a.command_line, facts));
      } catch (const std::exception& e) {
        err = e.what();  // names the option and the path
      }
  }
  err = world.bcast_string(err, 0);
  if (!err.empty()) throw UsageError(err);
  return out;
}

// Rank 0: the run's header, and which OpenBLAS kernels every DGEMM of this
// run uses, where it matters: the profile's measured verdict on them if it
// has one, else the pin.
void print_start(const RunArgs& a, const MachineFacts& facts, const Machine* machine) {
  print_run_header(a.command_line, facts);
  const std::string slow = machine && machine->facts.peak
                               ? tuner::recorded_blas_warning(*machine->facts.peak, blas_core_name(blas_config()))
                               : "";
  if (!slow.empty())
    fmt::print(stderr, "{}\n", slow);
  else if (const std::string core = blas_core_note(); !core.empty())
    fmt::print(stderr, "{}\n", core);
  if (const std::string sw = switched_blas_kernel(); !sw.empty())
    fmt::print(stderr,
               "note: OpenBLAS runs core {}, the fastest verified one of the profile's probe "
               "(--keep-blas-kernel keeps the detected core)\n",
               sw);
  if (machine)
    if (const std::string mismatch = profile_core_note(a.machine.profile, machine->facts.blas, blas_config());
        !mismatch.empty())
      fmt::print(stderr, "{}\n", mismatch);
}

// --explain (rank 0): the ranking of each problem, once, before anything runs.
void explain(const RunSpec& spec, const Machine& machine, const Selection& sel, const std::vector<Config>& configs,
             int ranks) {
  fmt::print("machine {}\n", describe(machine));
  std::vector<Problem> shown;
  for (const Config& c : configs) {
    bool seen = false;
    for (const Problem& q : shown) seen = seen || (q.m == c.pb.m && q.n == c.pb.n && q.k == c.pb.k);
    if (seen) continue;
    shown.push_back(c.pb);
    print_ranking(run::rank_for(c.pb, spec, ranks, sel, {}), c.pb, ranks, 0, true);
  }
}

// The configurations' indices grouped by problem, problems in the order
// they first appear; each group is measured in rounds.
std::vector<std::vector<std::size_t>> group_by_problem(const std::vector<Config>& configs) {
  std::vector<std::vector<std::size_t>> problems;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    auto it = std::find_if(problems.begin(), problems.end(),
                           [&](const auto& g) { return configs[g.front()].same_problem(configs[i]); });
    if (it == problems.end()) problems.push_back({i});
    else it->push_back(i);
  }
  return problems;
}

// What one run needs throughout its sweep, fixed before the first round.
struct RunContext {
  const RunArgs& a;
  const RunSpec& spec;
  const Comm& world;
  const std::vector<Config>& configs;
  const Machine* machine;  // null: none given
  const Selection& sel;
  const RunMemory& memory;
  std::uint64_t order_seed = 0;
};

// What the sweep has found and written so far.
struct SweepState {
  std::vector<ResultRow> rows;
  std::vector<Measured> measurements;
  std::vector<CandidateResult> results;  // typed, for the validation report
  std::vector<PeerCheck> peer_checks;    // the profile against this run's peer (profile_drift.hpp)
  bool warned = false;
  int failures = 0;
  std::size_t rows_written = 0;
};

// One problem's configurations that run here, and the DGEMM peer among
// them; the others' rows say why not (not_applicable).
struct Runnable {
  std::vector<const Config*> configs;
  std::vector<std::size_t> index;  // runnable -> the sweep's configs
  std::optional<std::size_t> peer;
};

Runnable sort_out(const RunContext& ctx, const std::vector<std::size_t>& problem, SweepState& st) {
  Runnable out;
  const int ranks = ctx.world.size();
  for (std::size_t i : problem) {
    const Config& c = ctx.configs[i];
    st.rows[i] = identity_row(c, ctx.spec.warmup, ctx.a.reps, ranks, ctx.order_seed);
    algos::Applicability ap = c.refuse.empty() ? c.algo->check(c.pb, c.opt, ranks) : algos::Applicability{c.refuse};
    if (ap.ok() && sim::simulated() && c.opt.threads > 1)
      ap.reason = "a simulated rank (SMPI) runs one thread: use more ranks, not --threads";
    if (ap.ok()) ap.reason = memory_refusal(ctx.memory, c, ranks);
    if (!ap.ok()) {
      st.rows[i].status = ResultRow::Status::not_applicable;
      st.rows[i].reason = ap.reason;
      continue;
    }
    if (c.is_peer() && !out.peer) out.peer = out.configs.size();
    out.configs.push_back(&c);
    out.index.push_back(i);
  }
  return out;
}

// Fills one problem's rows from its rounds: times, rates, the peer ratio,
// the models' predictions, verification; the first warning on stderr.
void settle(const RunContext& ctx, const Runnable& run, const std::vector<Measured>& ms, Progress& progress,
            SweepState& st) {
  const Machine* machine = ctx.machine;
  const int ranks = ctx.world.size();
  const bool peer_ok = run.peer && ms[*run.peer].failure.empty();
  for (std::size_t j = 0; j < run.configs.size(); ++j) {
    const std::size_t i = run.index[j];
    ResultRow& row = st.rows[i];
    st.measurements[i] = ms[j];
    if (!ms[j].failure.empty()) {
      row.status = ResultRow::Status::failed;
      row.reason = ms[j].failure;
      if (!ms[j].times.empty()) row.reps = static_cast<int>(ms[j].times.size());
      ++st.failures;
      continue;
    }
    st.results[i].measured = &st.measurements[i];
    add_measurement(row, ctx.configs[i], ms[j]);
    if (machine && machine->facts.peak) add_peak_fraction(row, *machine->facts.peak);
    if (peer_ok && ctx.configs[i].cores(ranks) == run.configs[*run.peer]->cores(ranks))
      add_peer_ratio(row, ms[*run.peer], ms[j]);
    if (machine) {
      st.results[i].predicted = predict_as_ran(ctx.configs[i], ms[j], machine->params);
      row.predicted = st.results[i].predicted;
    }
    st.results[i].verified = row.status == ResultRow::Status::ok;
    if (row.status == ResultRow::Status::failed) ++st.failures;
    if (!st.warned && ctx.world.rank() == 0 && !ms[j].warning.empty()) {
      progress.clear();
      fmt::print(stderr, "{}\n", ms[j].warning);
      st.warned = true;
    }
  }
  if (peer_ok && machine) {
    const ResultRow& r = st.rows[run.index[*run.peer]];
    if (r.timing && r.predicted)
      st.peer_checks.push_back({r.pb.m, r.pb.n, r.pb.k, r.timing->interval.median, r.timing->interval.lo,
                                r.timing->interval.hi, r.predicted->refined});
  }
}

// Problem g of `count`, `elapsed` seconds into the sweep: its rounds
// (0 under --reps auto), and --budget's share: the budget is for the whole
// sweep, so each problem gets an even share of what is left, and time a
// small problem does not use passes on.
RoundSettings round_settings(const RunContext& ctx, std::size_t g, std::size_t count, double elapsed) {
  const RunSpec& spec = ctx.spec;
  RoundSettings rs;
  rs.rounds = spec.reps.automatic ? 0 : spec.reps.rounds;
  rs.warmup = spec.warmup;
  rs.precision = spec.precision;
  rs.budget_s = (spec.budget_s - elapsed) / static_cast<double>(count - g);
  rs.order_seed = ctx.order_seed + g;
  rs.data_seed = spec.data_seed;
  rs.verify = spec.verify;
  rs.memory_doubles_per_rank = 0.7 * ctx.sel.max_doubles_per_rank;
  return rs;
}

// Rank 0, after a problem size: its rows to the table, the CSV and the
// exports (rewritten whole, so a crash later loses none of them).
void write_rows(const std::vector<std::size_t>& rows, Progress& progress, RunOutputs& out, SweepState& st) {
  progress.clear();
  for (std::size_t i : rows) {
    print_row(st.rows[i]);
    out.csv->append(st.rows[i].cells());
    if (out.exports) out.exports->add(st.rows[i]);
    ++st.rows_written;
  }
  if (out.exports) out.exports->write();
}

// The one line of an interrupted sweep (rank 0): the rows of earlier sizes
// are written, whole; the interrupted size's incomplete rounds are not.
void print_interrupted(int signal, const Problem& pb, std::size_t rows_written, const std::string& csv_path) {
  fmt::print(stderr,
             "mmbench: interrupted by {} during m={} n={} k={}: {} rows written to {}; that size's "
             "incomplete rounds are not written\n",
             signal_name(signal), pb.m, pb.n, pb.k, rows_written, csv_path);
}

// Rank 0, after the sweep: the cores the profile found best (tune's
// threaded DGEMM) against this run's layout, and whether the profile still
// matches this machine (its DGEMM peer).
void print_end(const RunContext& ctx, const RunOutputs& out, const SweepState& st, const std::string& started) {
  const Machine* machine = ctx.machine;
  const int ranks = ctx.world.size();
  fmt::print("results appended to {} (metadata: {}.json)\n", out.csv_path, out.csv_path);
  for (const std::string& line : layout_summary(st.rows, st.measurements, ctx.configs)) fmt::print("{}\n", line);
  if (machine && machine->facts.core_layout.measured) {
    // Where threads won tune's comparison and this sweep had no hybrid:
    // the layouts in between, which --hybrid times in the same rounds.
    std::string between;
    const bool hybrids =
        std::any_of(ctx.configs.begin(), ctx.configs.end(), [](const Config& c) { return c.opt.hybrid > 1; });
    if (machine->facts.core_layout.better == profile::CoreLayout::threads && !hybrids)
      for (int t = 2; t <= ranks / 2; ++t)
        if (ranks % t == 0) between += (between.empty() ? "" : ",") + std::to_string(t);
    fmt::print("cores: the profile says this machine wants {}; this run: {} rank{} x {} thread{}{}\n",
               profile::describe(machine->facts.core_layout), ranks, ranks == 1 ? "" : "s", ctx.spec.threads,
               ctx.spec.threads == 1 ? "" : "s",
               between.empty() ? "" : " (--hybrid " + between + " times the layouts in between, in the same rounds)");
  }
  if (machine && !ctx.a.machine.profile.empty() && !sim::simulated())
    report_profile_drift(st.peer_checks, *machine, ctx.a.machine.profile, out.csv_path, started);
}

}  // namespace

int run_command(const RunArgs& a, const Comm& world) {
  record_node_cpus(world);  // so multi-threaded ranks can widen their affinity
  // The machine, if any: every rank reads the same file, so every rank
  // throws the same UsageError.
  std::optional<Machine> machine;
  if (a.machine.given()) machine = load_machine(a.machine, world.size() > 1);
  Selection sel;
  if (machine) {
    sel.params = &machine->params;
    sel.facts = &machine->facts;
  }
  sel.kind = parse_model_option(a.model);
  // The memory limits (run_memory.hpp): --algo auto, --validate and
  // --replicas auto keep within the smaller of --memory-per-rank (or the
  // profile's) and this node's share.
  const RunMemory memory = run_memory(a.machine, machine ? &*machine : nullptr, world);
  sel.max_doubles_per_rank = memory.ranking_bytes() / 8.0;
  sel.memory_limit_source = memory.ranking_source();
  const RunSpec spec = parse_run_spec(a, world.size(), sel);
  const std::vector<Config> configs = run::expand(spec, world.size(), sel);
  check_node_memory(memory, configs, world.size());
  const RunContext ctx{
      a, spec, world, configs, machine ? &*machine : nullptr, sel, memory, choose_order_seed(a, world)};

  // --validate, or a sweep with --algo auto among named algorithms: the
  // pick's regret against the best measured (validation_report.hpp).
  const bool regret_report =
      spec.validate || (std::any_of(configs.begin(), configs.end(), [](const Config& c) { return c.model_pick; }) &&
                        std::any_of(configs.begin(), configs.end(), [](const Config& c) { return !c.model_pick; }));
  const MachineFacts facts =
      machine_facts(world.size(), machine ? machine->facts.peak : std::nullopt, "profile " + a.machine.profile);
  const std::string started = utc_timestamp();  // the sidecar and the JSON name the run alike
  RunOutputs out = open_outputs(a, spec, world, regret_report, ctx.order_seed, started, facts);
  if (world.rank() == 0) print_start(a, facts, ctx.machine);
  if (spec.explain && world.rank() == 0) explain(spec, *machine, sel, configs, world.size());

  const std::vector<std::vector<std::size_t>> problems = group_by_problem(configs);
  const run::RepsRule& reps = spec.reps;
  const std::size_t planned_runs =
      configs.size() * static_cast<std::size_t>(reps.automatic ? kAutoFirstPreciseRounds : reps.rounds);
  Progress progress(world.rank() == 0 && !a.quiet, a.progress, planned_runs);
  if (world.rank() == 0) print_header();
  SweepState st;
  st.rows.resize(configs.size());
  st.measurements.resize(configs.size());
  st.results.resize(configs.size());
  const double t_sweep = MPI_Wtime();
  for (std::size_t g = 0; g < problems.size(); ++g) {
    const Runnable run = sort_out(ctx, problems[g], st);
    const RoundSettings rs = round_settings(ctx, g, problems.size(), MPI_Wtime() - t_sweep);
    const RoundsResult res =
        measure_in_rounds(run.configs, run.peer, rs, world, [&](int round, int planned, const Config& c) {
          progress.start(fmt::format("round {}/{}{}: {} m={} n={} k={}", round + 1, planned, reps.automatic ? "+" : "",
                                     c.algo->name(), c.pb.m, c.pb.n, c.pb.k));
        });
    if (res.signal) {
      progress.finish();
      if (world.rank() == 0)
        print_interrupted(res.signal, configs[problems[g].front()].pb, st.rows_written, out.csv_path);
      if (out.exports) out.exports->finish(res.signal);
      return 128 + res.signal;
    }
    settle(ctx, run, res.measured, progress, st);
    if (world.rank() == 0) write_rows(problems[g], progress, out, st);
  }
  progress.finish();
  if (world.rank() == 0) print_end(ctx, out, st, started);
  if (out.exports) out.exports->finish(0);
  if (regret_report && world.rank() == 0)
    write_validation(*out.validate_csv, validation_stem(out.csv_path), configs, st.results, sel.kind, world.size());
  return st.failures ? 1 : 0;
}

}  // namespace mmbench::cli
