#include "cli/run_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
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
#include "cli/configuration.hpp"
#include "cli/machine_report.hpp"
#include "cli/local_results.hpp"
#include "cli/ranking_table.hpp"
#include "cli/round_statistics.hpp"
#include "cli/sweep_rounds.hpp"
#include "cli/progress.hpp"
#include "core/usage_error.hpp"
#include "core/value_lists.hpp"
#include "core/affinity.hpp"
#include "core/blas.hpp"
#include "core/csv_file.hpp"
#include "core/sysinfo.hpp"
#include "core/simulation.hpp"
#include "local/packed_gemm.hpp"
#include "ranking/option_table.hpp"
#include "cli/results_schema.hpp"
#include "cli/result_row.hpp"
#include "cli/run_memory.hpp"
#include "cli/profile_drift.hpp"
#include "cli/run_exports.hpp"
#include "cli/run_header.hpp"
#include "cli/sweep_expansion.hpp"
#include "cli/validation_report.hpp"
#include "model/algorithm_models.hpp"
#include "ranking/selection.hpp"
#include "tuner/blas_check.hpp"

namespace mmbench::cli {

using algos::Algorithm;
using algos::Options;
using algos::Problem;

std::map<std::string, std::string> default_option_texts() {
  std::map<std::string, std::string> out;
  for (const ranking::OptionRow& r : ranking::option_table()) out[r.flag] = r.default_text;
  return out;
}

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

void write_sidecar(const std::string& csv_path, const RunArgs& a, const Comm& world, std::uint64_t order_seed,
                   const std::string& started, const nlohmann::json& machine) {
  const std::string path = csv_path + ".json";
  nlohmann::json doc = nlohmann::json::object();
  // The sidecar is the only record of earlier runs' commands, builds and
  // seeds: one that cannot be read is kept under another name, never
  // replaced without a word.
  std::string unreadable;
  {
    std::ifstream in(path);
    if (in) {
      try {
        doc = nlohmann::json::parse(in);
        if (!doc.is_object()) unreadable = "not a JSON object";
      } catch (const std::exception& e) {
        unreadable = e.what();
      }
    }
  }
  if (!unreadable.empty()) {
    std::string stamp = started;
    std::replace(stamp.begin(), stamp.end(), ':', '-');
    const std::string kept = path + ".unreadable-" + stamp;
    std::error_code ec;
    std::filesystem::rename(path, kept, ec);
    if (ec) throw std::runtime_error(path + " is not readable (" + unreadable + ") and could not be kept as " + kept +
                                     ": " + ec.message() + "; nothing was written");
    fmt::print(stderr, "mmbench: {} was not readable ({}); kept as {}, a new one started\n", path, unreadable, kept);
    doc = nlohmann::json::object();
  }
  doc["csv"] = csv_path;
  doc["schema"] = "mmbench-results/1";
  nlohmann::json run = {
      {"started", started},
      {"command", a.command_line},
      {"mmbench", mmbench_version()},
      {"host", host_name()},
      {"cpu", cpu_model()},
      {"cores", cpu_cores()},
      {"ranks", world.size()},
      {"mpi", mpi_library_version()},
      {"blas", blas_config()},
      {"scalapack", scalapack_version()},
      {"blas_kernel_switched", switched_blas_kernel()},
      // The packed GEMM's kernel and why (MMBENCH_PACKED_ISA, docs/environment.md);
      // rows that ran it name it in their packed_isa column too.
      {"packed_isa", local::describe_packed_isa()},
      {"omp_openblas_threads_env", getenv("OPENBLAS_NUM_THREADS") ? getenv("OPENBLAS_NUM_THREADS") : ""},
      // Replays the same per-round order: run ... --order-seed <this>.
      {"order_seed", order_seed},
      {"reps", a.reps},
      {"precision", a.precision},
      {"budget_s", a.budget},
      {"interval", "median with a distribution-free order-statistics interval (binomial): the narrowest pair of "
                   "order statistics with at least 95 % coverage, or [min, max] below 6 rounds, whose coverage is "
                   "lower (3 rounds: 75 %); each row's coverage is its ci_coverage column; ratios formed per round"},
      {"machine", machine},  // cli/machine_report.hpp
  };
  // What the intervals of a fixed --reps cover (auto: each row's ci_coverage).
  if (const RepsRule r = parse_reps(a); !r.automatic) run["interval_coverage"] = interval_coverage(r.rounds);
  if (sim::simulated()) {
    run["simulated"] = {{"platform", sim::platform()},
                        {"platform_sha256", sim::platform_sha256()},
                        {"compute", sim::compute_mode()},
                        // real | flat | fitted | fitted+noise (core/simulation.hpp)
                        {"pricing", sim::compute_pricing()},
                        {"profile", sim::profile_path()},
                        {"simgrid", "SMPI (smpirun; simulated times, not measured ones)"}};
    if (sim::compute_pricing() == "fitted+noise") run["simulated"]["noise_seed"] = sim::noise_seed();
  }
  if (!doc.contains("runs") || !doc["runs"].is_array()) doc["runs"] = nlohmann::json::array();
  doc["runs"].push_back(run);
  write_file_atomically(path, doc.dump(2) + "\n");
}

// Adds `key` to this run's entry of the sidecar (the one write_sidecar
// started with `started`), rewritten atomically; a sidecar that cannot be
// read or lacks the entry is left as it is, with a word on stderr: the
// results themselves are already written.
void add_to_sidecar(const std::string& csv_path, const std::string& started, const std::string& key,
                    const nlohmann::json& value) {
  const std::string path = csv_path + ".json";
  try {
    std::ifstream in(path);
    nlohmann::json doc = nlohmann::json::parse(in);
    for (nlohmann::json& run : doc.at("runs"))
      if (run.value("started", "") == started) {
        run[key] = value;
        write_file_atomically(path, doc.dump(2) + "\n");
        return;
      }
    fmt::print(stderr, "mmbench: {} has no run started at {}: {} not recorded\n", path, started, key);
  } catch (const std::exception& e) {
    fmt::print(stderr, "mmbench: {}: {} not recorded ({})\n", path, key, e.what());
  }
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

}  // namespace

int run_command(const RunArgs& a, const Comm& world) {
  record_node_cpus(world);  // so multi-threaded ranks can widen their affinity
  // The machine, if any: every rank reads the same file, so every rank
  // throws the same UsageError.
  std::optional<Machine> machine;
  if (a.machine.given()) machine = load_machine(a.machine);
  Selection sel;
  sel.machine = machine ? &*machine : nullptr;
  sel.kind = parse_model_option(a.model);
  // The memory limits (run_memory.hpp): --algo auto, --validate and
  // --replicas auto keep within the smaller of --memory-per-rank (or the
  // profile's) and this node's share.
  const RunMemory memory = run_memory(a.machine, sel.machine, world);
  sel.max_doubles_per_rank = memory.ranking_bytes() / 8.0;
  sel.memory_limit_source = memory.ranking_source();
  std::vector<Config> configs = expand(a, world.size(), sel);
  check_node_memory(memory, configs, world.size());
  const std::uint64_t order_seed = choose_order_seed(a, world);

  // Rank 0 owns the files; it checks them before anything runs and tells
  // the others, so a bad path fails at once on every rank.
  std::string csv_path = a.csv.empty() ? local_results_path("run-" + host_name() + ".csv") : a.csv;
  std::unique_ptr<CsvFile> csv, validate_csv;
  // --validate, or a sweep with --algo auto among named algorithms: the
  // pick's regret against the best measured (validation_report.hpp).
  const bool regret_report =
      a.validate || (std::any_of(configs.begin(), configs.end(), [](const Config& c) { return c.model_pick; }) &&
                     std::any_of(configs.begin(), configs.end(), [](const Config& c) { return !c.model_pick; }));
  std::unique_ptr<RunExports> exports;  // --json, --markdown
  const MachineFacts facts =
      machine_facts(world.size(), machine ? machine->facts.peak : std::nullopt, "profile " + a.machine.profile);
  const std::string started = utc_timestamp();  // the sidecar and the JSON name the run alike
  std::string err;
  if (world.rank() == 0) {
    try {
      if (a.csv.empty()) make_local_results_dir();
      csv = std::make_unique<CsvFile>(csv_path, results_columns());
      if (regret_report) {
        // Every file the run will write is checked now, not after the sweep.
        const std::string stem = validation_stem(csv_path);
        validate_csv = std::make_unique<CsvFile>(stem + "-validate.csv", validation_columns());
        std::ofstream txt(stem + "-validate.txt", std::ios::app);
        if (!txt) throw std::runtime_error("cannot append to " + stem + "-validate.txt");
      }
      write_sidecar(csv_path, a, world, order_seed, started, machine_report_json(facts.machine));
    } catch (const std::exception& e) {
      err = std::string("--csv: ") + e.what();
    }
    if (err.empty() && (!a.json.empty() || !a.markdown.empty())) try {
        exports = std::make_unique<RunExports>(a.json, a.markdown, run_metadata(a, facts, order_seed, started), facts);
      } catch (const std::exception& e) {
        err = e.what();  // names the option and the path
      }
  }
  err = world.bcast_string(err, 0);
  if (!err.empty()) throw UsageError(err);
  // Which OpenBLAS kernels every DGEMM of this run uses, where it matters:
  // the profile's measured verdict on them if it has one, else the pin.
  if (world.rank() == 0) {
    print_run_header(a.command_line, facts);
    const std::string slow = machine && machine->facts.peak
                                 ? tuner::recorded_blas_warning(*machine->facts.peak, blas_core_name(blas_config()))
                                 : "";
    if (!slow.empty()) fmt::print(stderr, "{}\n", slow);
    else if (const std::string core = blas_core_note(); !core.empty()) fmt::print(stderr, "{}\n", core);
    if (const std::string sw = switched_blas_kernel(); !sw.empty())
      fmt::print(stderr, "note: OpenBLAS runs core {}, the fastest verified one of the profile's probe "
                         "(--keep-blas-kernel keeps the detected core)\n", sw);
    if (machine)
      if (const std::string mismatch = profile_core_note(a.machine.profile, machine->facts.blas, blas_config());
          !mismatch.empty())
        fmt::print(stderr, "{}\n", mismatch);
  }

  if (a.explain && world.rank() == 0) {
    fmt::print("machine {}\n", describe(*machine));
    const AutoSpace as = auto_space(a, sel, world.size());
    std::vector<Problem> shown;
    for (const Config& c : configs) {
      bool seen = false;
      for (const Problem& q : shown) seen = seen || (q.m == c.pb.m && q.n == c.pb.n && q.k == c.pb.k);
      if (seen) continue;
      shown.push_back(c.pb);
      print_ranking(rank_for(c.pb, as, world.size(), sel, {}), c.pb, world.size(), 0, true);
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
  std::vector<ResultRow> rows(configs.size());
  std::vector<Measured> measurements(configs.size());
  std::vector<CandidateResult> results(configs.size());  // typed, for the validation report
  std::vector<PeerCheck> peer_checks;  // the profile against this run's peer (profile_drift.hpp)
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
      if (ap.ok()) ap.reason = memory_refusal(memory, c, world.size());
      if (!ap.ok()) {
        rows[i].status = ResultRow::Status::not_applicable;
        rows[i].reason = ap.reason;
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
      if (exports) exports->finish(res.signal);
      return 128 + res.signal;
    }
    const std::vector<Measured>& ms = res.measured;
    const bool peer_ok = peer && ms[*peer].failure.empty();
    for (std::size_t j = 0; j < runnable.size(); ++j) {
      const std::size_t i = index[j];
      measurements[i] = ms[j];
      if (!ms[j].failure.empty()) {
        rows[i].status = ResultRow::Status::failed;
        rows[i].reason = ms[j].failure;
        if (!ms[j].times.empty()) rows[i].reps = static_cast<int>(ms[j].times.size());
        ++failures;
        continue;
      }
      results[i].measured = &measurements[i];
      add_measurement(rows[i], configs[i], ms[j]);
      if (machine && machine->facts.peak) add_peak_fraction(rows[i], *machine->facts.peak);
      if (peer_ok && configs[i].cores(world.size()) == runnable[*peer]->cores(world.size()))
        add_peer_ratio(rows[i], ms[*peer], ms[j]);
      if (sel.machine) {
        results[i].predicted = predict_as_ran(configs[i], ms[j], *sel.machine);
        rows[i].predicted = results[i].predicted;
      }
      results[i].verified = rows[i].status == ResultRow::Status::ok;
      if (rows[i].status == ResultRow::Status::failed) ++failures;
      if (!warned && world.rank() == 0 && !ms[j].warning.empty()) {
        progress.clear();
        fmt::print(stderr, "{}\n", ms[j].warning);
        warned = true;
      }
    }
    if (peer_ok && sel.machine) {
      const ResultRow& r = rows[index[*peer]];
      if (r.timing && r.predicted)
        peer_checks.push_back({r.pb.m, r.pb.n, r.pb.k, r.timing->interval.median, r.timing->interval.lo, r.timing->interval.hi,
                               r.predicted->refined});
    }
    if (world.rank() == 0) {
      progress.clear();
      for (std::size_t i : problems[g]) {
        print_row(rows[i]);
        csv->append(rows[i].cells());
        if (exports) exports->add(rows[i]);
        ++rows_written;
      }
      if (exports) exports->write();
    }
  }
  progress.finish();
  if (world.rank() == 0) fmt::print("results appended to {} (metadata: {}.json)\n", csv_path, csv_path);
  // What the profile found about the cores (tune's threaded DGEMM), against
  // the layout this run used.
  if (world.rank() == 0 && machine && machine->facts.core_layout.measured)
    fmt::print("cores: the profile says this machine wants {}; this run: {} rank{} x {} thread{}\n",
               profile::describe(machine->facts.core_layout), world.size(), world.size() == 1 ? "" : "s", a.threads,
               a.threads == 1 ? "" : "s");
  if (machine && !a.machine.profile.empty() && !sim::simulated() && world.rank() == 0)
    report_profile_drift(peer_checks, *machine, a.machine.profile, csv_path, started);
  if (exports) exports->finish(0);
  if (regret_report && world.rank() == 0)
    write_validation(*validate_csv, validation_stem(csv_path), configs, results, sel.kind, world.size());
  return failures ? 1 : 0;
}

}  // namespace mmbench::cli
