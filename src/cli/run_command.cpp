#include "cli/run_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "algos/registry.hpp"
#include "cli/progress.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_lists.hpp"
#include "core/blas.hpp"
#include "core/csv_file.hpp"
#include "core/generate.hpp"
#include "core/sysinfo.hpp"
#include "core/timing.hpp"
#include "core/verify.hpp"
#include "cli/results_schema.hpp"

namespace mmbench::cli {

using algos::Algorithm;
using algos::Options;
using algos::Problem;

CLI::App* add_run_command(CLI::App& app, RunArgs& a) {
  CLI::App* run = app.add_subcommand("run", "Measure algorithms over a sweep of sizes and options; verify; write CSV");
  run->add_option("--algo", a.algos, "Algorithms, comma-separated, or 'all' (see `mmbench list`)")->required();
  run->add_option("--n", a.n, "Matrix size n (C is m x n); list or range: 1024,2048 or 1024:4096:1024 or 512:4096:*2")->required();
  run->add_option("--m", a.m, "Rows of A and C (default: = n)");
  run->add_option("--k", a.k, "Inner dimension (default: = n)");
  run->add_option("--reps", a.reps, "Timed repetitions per configuration (>= 1)")->capture_default_str();
  run->add_option("--warmup", a.warmup, "Untimed warm-up runs (>= 0)")->capture_default_str();
  run->add_option("--csv", a.csv, "Append rows to this CSV (default results/run-<host>.csv); metadata in <csv>.json");
  run->add_option("--nb", a.nb, "Block-cyclic block size(s) for pdgemm")->capture_default_str();
  run->add_option("--lb", a.lb, "PBLAS logical block size(s): 'default' (library's 32), 'auto' (from --profile) or numbers")
      ->capture_default_str();
  run->add_option("--grid", a.grid, "Process grid(s) for pdgemm: auto (most square) or PxQ")->capture_default_str();
  run->add_option("--recursions", a.recursions, "Parallel Strassen levels r: 'max' or numbers")->capture_default_str();
  run->add_option("--threads", a.threads, "BLAS threads per rank")->capture_default_str();
  run->add_option("--local-strassen", a.local_levels,
                  "Local Strassen levels L inside each rank (dgemm, ring, ...): numbers, e.g. 0,1,2,3")
      ->capture_default_str();
  run->add_option("--local-variant", a.local_variant, "Local fast kernel: winograd (15 additions) or strassen (18)")
      ->capture_default_str();
  run->add_option("--seed", a.seed, "Seed of the generated matrices")->capture_default_str();
  run->add_flag("--no-verify", a.no_verify, "Skip the residual check");
  run->add_option("--profile", a.profile, "Machine profile (configs/<host>.json from `mmbench tune`)");
  run->add_flag("--quiet", a.quiet, "No progress on stderr");
  run->add_flag("--progress", a.progress, "Progress on stderr even when it is not a terminal");
  return run;
}

namespace {

struct Config {
  const Algorithm* algo;
  Problem pb;
  Options opt;
};

std::vector<const Algorithm*> resolve_algorithms(const std::string& text) {
  std::vector<const Algorithm*> out;
  for (const std::string& name : parse_word_list("--algo", text)) {
    if (name == "all") {
      for (auto* a : algos::all_algorithms()) out.push_back(a);
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

std::vector<Config> expand(const RunArgs& a, int ranks) {
  auto algos_ = resolve_algorithms(a.algos);
  auto ns = parse_int_list("--n", a.n, 1, kMaxDim);
  auto ms = a.m.empty() ? std::vector<std::int64_t>{} : parse_int_list("--m", a.m, 1, kMaxDim);
  auto ks = a.k.empty() ? std::vector<std::int64_t>{} : parse_int_list("--k", a.k, 1, kMaxDim);
  auto nbs = parse_int_list("--nb", a.nb, 1, 1 << 20);
  if (a.reps < 1 || a.reps > 100000) throw UsageError("--reps: " + std::to_string(a.reps) + " is out of range; allowed 1 to 100000");
  if (a.warmup < 0 || a.warmup > 1000) throw UsageError("--warmup: " + std::to_string(a.warmup) + " is out of range; allowed 0 to 1000");
  if (a.threads < 1 || a.threads > 1024) throw UsageError("--threads: " + std::to_string(a.threads) + " is out of range; allowed 1 to 1024");

  std::vector<int> lbs;
  for (const std::string& w : parse_word_list("--lb", a.lb)) {
    if (w == "default") lbs.push_back(0);
    else if (w == "auto") {
      if (a.profile.empty()) throw UsageError("--lb auto needs --profile FILE (a machine profile from `mmbench tune`)");
      throw UsageError("--lb auto: machine profiles are not supported by this build yet");
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

  auto local_levels = parse_int_list("--local-strassen", a.local_levels, 0, 6);
  if (a.local_variant != "winograd" && a.local_variant != "strassen")
    throw UsageError("--local-variant: '" + a.local_variant + "' is not a variant; allowed winograd or strassen");

  std::vector<Config> out;
  for (const Algorithm* al : algos_) {
    const algos::Uses u = al->uses();
    for (std::int64_t n : ns)
      for (std::int64_t m : ms.empty() ? std::vector<std::int64_t>{n} : ms)
        for (std::int64_t k : ks.empty() ? std::vector<std::int64_t>{n} : ks)
          for (auto g : u.grid ? grids : std::vector<std::pair<int, int>>{{0, 0}})
            for (int nb : u.nb ? std::vector<int>(nbs.begin(), nbs.end()) : std::vector<int>{64})
              for (int lb : u.lb ? lbs : std::vector<int>{0})
                for (int r : u.recursions ? rs : std::vector<int>{-1})
                  for (auto L : u.local_levels ? local_levels : std::vector<std::int64_t>{0}) {
                  Options o;
                  o.local_levels = static_cast<int>(L);
                  o.local_variant = a.local_variant;
                  o.threads = a.threads;
                  o.nb = nb;
                  o.lb = lb;
                  o.pr = g.first;
                  o.pc = g.second;
                  o.recursions = r;
                  out.push_back(Config{al, Problem{m, n, k}, o});
                }
  }
  return out;
}

std::string fmt_sig(double v) { return fmt::format("{:.6g}", v); }

// Refuse, before anything is allocated, a sweep whose largest problem
// cannot fit: the estimate is the algorithm's own lower bound on doubles
// per rank, against the memory available on this node shared by the ranks
// placed on it.
void check_memory(const std::vector<Config>& configs, const Comm& world) {
  Comm node = world.split_node();
  double avail = world.min(static_cast<double>(available_memory_bytes()) / node.size());
  if (avail <= 0) return;  // unknown: do not guess
  for (const Config& c : configs) {
    double need = 8.0 * c.algo->estimate_doubles_per_rank(c.pb, c.opt, world.size());
    if (need > 0.9 * avail)
      throw UsageError(fmt::format(
          "{} m={} n={} k={} needs about {:.1f} GiB per rank, but only {:.1f} GiB per rank are available "
          "({} ranks on this node); use smaller sizes or more nodes",
          c.algo->name(), c.pb.m, c.pb.n, c.pb.k, need / (1 << 30), avail / (1 << 30), node.size()));
  }
}

void write_sidecar(const std::string& csv_path, const RunArgs& a, const Comm& world) {
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
  };
  if (!doc.contains("runs") || !doc["runs"].is_array()) doc["runs"] = nlohmann::json::array();
  doc["runs"].push_back(run);
  write_file_atomically(path, doc.dump(2) + "\n");
}

struct Outcome {
  std::map<std::string, std::string> row;
  bool failed = false;
};

Outcome run_one(const Config& c, const RunArgs& a, const Comm& world, bool& warned) {
  const int p = world.size();
  Outcome out;
  auto& row = out.row;
  row["timestamp"] = utc_timestamp();
  row["host"] = host_name();
  row["p"] = std::to_string(p);
  row["threads"] = std::to_string(c.opt.threads);
  row["algo"] = std::string(c.algo->name());
  row["m"] = std::to_string(c.pb.m);
  row["n"] = std::to_string(c.pb.n);
  row["k"] = std::to_string(c.pb.k);
  row["warmup"] = std::to_string(a.warmup);
  row["reps"] = std::to_string(a.reps);
  row["local_levels"] = std::to_string(c.opt.local_levels);
  row["selected_by"] = "user";

  algos::Applicability ap = c.algo->check(c.pb, c.opt, p);
  if (!ap.ok()) {
    row["status"] = "not-applicable";
    row["reason"] = ap.reason;
    return out;
  }
  set_blas_threads(c.opt.threads);
  auto plan = c.algo->plan(c.pb, c.opt, world);
  DistMatrix A(plan->layout_a(), world.rank()), B(plan->layout_b(), world.rank()), C(plan->layout_c(), world.rank());
  generate(A, a.seed);
  generate(B, a.seed + 1);
  for (int w = 0; w < a.warmup; ++w) plan->multiply(A, B, C);
  std::vector<double> times;
  for (int r = 0; r < a.reps; ++r) times.push_back(time_max_over_ranks(world, [&] { plan->multiply(A, B, C); }));
  Stats st = summarize(times);
  // After the runs: workspaces that grow on first use are at their peak.
  double mine = static_cast<double>(A.local.size() + B.local.size() + C.local.size() + plan->workspace_doubles());
  row["peak_mem_mb"] = fmt::format("{:.1f}", world.max(mine) * 8.0 / (1 << 20));
  if (!warned && world.rank() == 0 && !plan->warning().empty()) {
    fmt::print(stderr, "{}\n", plan->warning());
    warned = true;
  }
  for (auto& [k, v] : plan->describe()) row[k] = v;
  // Per processor = per core used: ranks x BLAS threads of the row (dgemm
  // reports its one rank with all the job's cores as threads), so rows with
  // different thread counts compare fairly.
  const int cores_row = std::stoi(row["p"]) * std::stoi(row["threads"]);
  row["t_min"] = fmt_sig(st.min);
  row["t_median"] = fmt_sig(st.median);
  row["t_max"] = fmt_sig(st.max);
  row["mflops_per_proc"] = fmt::format("{:.1f}", c.pb.flops() / st.median / cores_row / 1e6);
  row["gflops_total"] = fmt::format("{:.3f}", c.pb.flops() / st.median / 1e9);

  if (a.no_verify) {
    row["verified"] = "skipped";
  } else {
    double res = normwise_residual(A, B, C, world, a.seed + 2);
    double limit = kClassicalResidualLimit * plan->error_growth();
    row["residual"] = fmt::format("{:.3g}", res);
    row["residual_limit"] = fmt::format("{:.3g}", limit);
    bool ok = res <= limit;
    row["verified"] = ok ? "yes" : "no";
    if (!ok) out.failed = true;
  }
  row["status"] = out.failed ? "failed" : "ok";
  if (out.failed) row["reason"] = "residual above limit";
  return out;
}

void print_header() {
  fmt::print("{:<20} {:>3} {:>3} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5} {:>2} {:>2} {:>10} {:>10} {:>9} {:>9}  {}\n", "algo",
             "p", "thr", "m", "n", "k", "grid", "nb", "lb", "r", "L", "t_med[s]", "MFLOPS/p", "GFLOP/s", "residual",
             "status");
}

void print_row(const std::map<std::string, std::string>& r) {
  auto g = [&](const char* k) {
    auto it = r.find(k);
    return it == r.end() ? std::string() : it->second;
  };
  std::string status = g("status");
  if (status != "ok") status += " (" + g("reason") + ")";
  fmt::print("{:<20} {:>3} {:>3} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5} {:>2} {:>2} {:>10} {:>10} {:>9} {:>9}  {}\n",
             g("algo"), g("p"), g("threads"), g("m"), g("n"), g("k"), g("grid"), g("nb"), g("lb"), g("recursions"),
             g("local_levels"), g("t_median"), g("mflops_per_proc"), g("gflops_total"), g("residual"), status);
  std::fflush(stdout);
}

}  // namespace

int run_command(const RunArgs& a, const Comm& world) {
  std::vector<Config> configs = expand(a, world.size());
  check_memory(configs, world);

  // Rank 0 owns the files; it checks them before anything runs and tells
  // the others, so a bad path fails at once on every rank.
  std::string csv_path = a.csv.empty() ? "results/run-" + host_name() + ".csv" : a.csv;
  std::unique_ptr<CsvFile> csv;
  std::string err;
  if (world.rank() == 0) {
    try {
      csv = std::make_unique<CsvFile>(csv_path, results_columns());
      write_sidecar(csv_path, a, world);
    } catch (const std::exception& e) {
      err = e.what();
    }
  }
  err = world.bcast_string(err, 0);
  if (!err.empty()) throw UsageError("--csv: " + err);

  Progress progress(world.rank() == 0 && !a.quiet, a.progress, configs.size());
  if (world.rank() == 0) print_header();
  bool warned = false;
  int failures = 0;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const Config& c = configs[i];
    progress.start(fmt::format("{} m={} n={} k={}", c.algo->name(), c.pb.m, c.pb.n, c.pb.k));
    Outcome o = run_one(c, a, world, warned);
    if (o.failed) ++failures;
    if (world.rank() == 0) {
      progress.clear();
      print_row(o.row);
      csv->append(o.row);
    }
  }
  progress.finish();
  if (world.rank() == 0) fmt::print("results appended to {} (metadata: {}.json)\n", csv_path, csv_path);
  return failures ? 1 : 0;
}

}  // namespace mmbench::cli
