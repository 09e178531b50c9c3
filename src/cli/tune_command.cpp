#include "cli/tune_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <optional>

#include "space/process_grid.hpp"
#include "cli/machine_report.hpp"
#include "cli/run_header.hpp"
#include "cli/local_results.hpp"
#include "core/usage_error.hpp"
#include "core/value_lists.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/machine/sysinfo.hpp"
#include "local/packed_gemm.hpp"
#include "core/lb_in_force.hpp"
#include "tuner/blas_kernel_probe.hpp"
#include "tuner/lb_check.hpp"
#include "tuner/network_calibration.hpp"
#include "profile/machine_profile.hpp"
#include "profile/profile_facts.hpp"
#include "tuner/tuner.hpp"

namespace mmbench::cli {

CLI::App* add_tune_command(CLI::App& app, TuneArgs& a) {
  CLI::App* t = app.add_subcommand(
      "tune", "Measure this machine: DGEMM profile -> lb by eq. 2.26, checked with PDGEMM; latency/bandwidth, "
              "memory bandwidth, threaded DGEMM (ranks x threads), the packed GEMM's block sizes; write the machine "
              "profile (run it with the ranks you normally use)");
  t->add_option("--n", a.n, "Typical problem size n (local DGEMM shape n/pr x n/pc x k; PDGEMM check at n)")->capture_default_str();
  t->add_option("--grid", a.grid, "Process grid of the typical problem: auto (most square) or PxQ")->capture_default_str();
  t->add_option("--kmin", a.kmin, "Smallest panel width k of the DGEMM profile")->capture_default_str();
  t->add_option("--kmax", a.kmax, "Largest k (0: n/pc, or n/pr if pr > pc)")->capture_default_str();
  t->add_option("--x", a.x, "Rule's lb = smallest k reaching x * max MFLOPS (0 < x <= 1)")->capture_default_str();
  t->add_flag("--exhaustive", a.exhaustive, "Profile every even k (the thesis' full sweep) instead of a geometric grid");
  t->add_option("--passes", a.passes, "DGEMM profile passes (each k once per pass, shuffled order; median per k)")->capture_default_str();
  t->add_flag("--no-lb-check", a.no_lb_check, "Skip the PDGEMM check of lb candidates: lb = the rule's (quick tests)");
  t->add_option("--lb-check-rounds", a.lb_check_rounds, "Interleaved rounds of the PDGEMM check")->capture_default_str();
  t->add_option("--reps", a.reps, "Repetitions of the add-bandwidth, local-Strassen and threaded-DGEMM steps")->capture_default_str();
  t->add_option("--warmup", a.warmup, "Warm-up calls before the profile and each later step")->capture_default_str();
  t->add_option("--profile", a.profile, "Machine profile to write (default configs/<host>.json)");
  t->add_option("--csv", a.csv, "Raw DGEMM profile CSV (default results/local/dgemm-profile-<host>-n<N>.csv); the PDGEMM "
                                "check goes beside it, *-lb-check.csv");
  t->add_flag("--quiet", a.quiet, "No progress on stderr");
  t->add_flag("--progress", a.progress, "Progress on stderr even when it is not a terminal");
  t->add_flag("--no-local", a.no_local, "Skip measuring the local Strassen-Winograd crossover");
  t->add_flag("--no-blas-probe", a.no_blas_probe,
              "Skip trying OpenBLAS's other cores (OPENBLAS_CORETYPE) in child processes");
  t->add_flag("--no-packed-tune", a.no_packed_tune,
              "Skip timing the packed GEMM's block sizes against DGEMM (the profile then names no packed blocking "
              "or leaf; run --local-gemm auto needs them)");
  t->add_flag("--no-kernel-model", a.no_kernel_model,
              "Skip timing DGEMM shapes and elementwise passes for the kernel model (charged simulations then "
              "price local work flat)");
  t->add_flag("--kernel-model-only", a.kernel_model_only,
              "Only measure the kernel model (seconds) and add it to the existing profile --profile (rewritten)");
  t->add_flag("--refresh", a.refresh,
              "Re-time the existing profile's DGEMM points and the peak (a fraction of a tune's time) and scale its compute prices by "
              "the change; network, lb and layout are kept (--profile is rewritten)");
  return t;
}

namespace {
// "x.csv" -> "x<suffix>.csv"; any other name: name + suffix + ".csv".
std::string beside_csv(const std::string& csv, const std::string& suffix) {
  const std::string ext = ".csv";
  if (csv.size() > ext.size() && csv.compare(csv.size() - ext.size(), ext.size(), ext) == 0)
    return csv.substr(0, csv.size() - ext.size()) + suffix + ".csv";
  return csv + suffix + ".csv";
}
}  // namespace

std::string lb_check_csv_path(const std::string& profile_csv) { return beside_csv(profile_csv, "-lb-check"); }
std::string kernel_model_csv_path(const std::string& profile_csv) { return beside_csv(profile_csv, "-kernel-model"); }

namespace {
// The BLAS kernel probe's lines: each core tried, and what to set.
void print_blas_kernels(const profile::BlasKernelRecord& r) {
  if (!r.probed) return;
  const profile::KernelChoice& c = r.choice;
  fmt::print("  OpenBLAS cores (DGEMM n = {}, one thread, each in a child process; running: {}{}):\n", r.n, c.running,
             c.pinned ? ", pinned by OPENBLAS_CORETYPE" : "");
  for (const profile::KernelProbe& k : r.probes) {
    const std::string name = k.asked.empty() ? "detected (" + k.ran + ")" : k.asked;
    if (k.verified)
      fmt::print("    {:<24} {:8.1f} GFLOP/s  verified\n", name, k.mflops / 1e3);
    else
      fmt::print("    {:<24} {:>8}          rejected: {}\n", name, "-", k.reason);
  }
  if (!c.advice.empty())
    fmt::print("  warning: {}\n", c.advice);
  else if (!c.fastest.empty())
    fmt::print("  the running core {} is the fastest verified one (within {:.0f} %)\n", c.running,
               100 * (tuner::kWorthSwitching - 1));
}
// The kernel model's fits, one line each.
// "1.024x [0.981, 1.062] round by round, 75 %"; older profiles without a
// per-round speedup: the ratio of medians.
std::string speedup_text(const profile::PackedSpeedup& sp, double medians_ratio) {
  if (!sp.measured()) return fmt::format("{:.3f}x", medians_ratio);
  return fmt::format("{:.3f}x [{:.3f}, {:.3f}] round by round, {}", sp.median, sp.lo, sp.hi,
                     coverage_label(sp.coverage));
}

void print_kernel_model(const KernelTimeModel& m) {
  const DgemmTimeFit& d = m.dgemm;
  fmt::print("  kernel model ({} DGEMM shapes up to {}, {} rounds on {} ranks, one thread each): DGEMM t = {:.3g} + "
             "{:.3g} mnk + {:.3g} mn + {:.3g} mk + {:.3g} nk s ({:.3g} GFLOP/s asymptotic), spread {:.3f} (repeat {:.3f})\n",
             d.shapes, m.max_dim, m.rounds, m.ranks, d.a_s, d.b_s_per_mnk, d.c_s_per_mn, d.d_s_per_mk, d.e_s_per_nk,
             2.0 / d.b_s_per_mnk / 1e9, d.log_sd, d.repeat_log_sd);
  const std::pair<const char*, const BytesTimeFit*> passes[] = {{"add", &m.add}, {"copy", &m.copy}, {"pack", &m.pack}};
  for (const auto& [name, f] : passes)
    fmt::print("    {:<4} t = {:.3g} s + bytes / {:.3g} GB/s, spread {:.3f} (repeat {:.3f})\n", name, f->a_s,
               1.0 / f->b_s_per_byte / 1e9, f->log_sd, f->repeat_log_sd);
}
// The tuner's options from the command line; the grid defaults to the most
// square one of the ranks.
tuner::TuneOptions tune_options(const TuneArgs& a, int ranks) {
  tuner::TuneOptions o;
  o.n = a.n;
  auto [pr, pc] = parse_grid("--grid", a.grid);
  if (pr == 0) std::tie(pr, pc) = space::most_square_grid(ranks);
  o.pr = pr;
  o.pc = pc;
  o.kmin = a.kmin;
  o.kmax = a.kmax;
  o.x = a.x;
  o.exhaustive = a.exhaustive;
  o.passes = a.passes;
  o.lb_check = !a.no_lb_check;
  o.lb_check_rounds = a.lb_check_rounds;
  o.reps = a.reps;
  o.warmup = a.warmup;
  o.scalapack_version = scalapack_version();
  o.local_crossover = !a.no_local;
  o.blas_probe = !a.no_blas_probe;
  o.packed_tune = !a.no_packed_tune;
  o.kernel_model = !a.no_kernel_model;
  o.profile_path = a.profile.empty() ? profile::default_profile_path(host_name()) : a.profile;
  o.profile_csv_path =
      a.csv.empty() ? local_results_path(fmt::format("dgemm-profile-{}-n{}.csv", host_name(), a.n)) : a.csv;
  if (o.lb_check) o.lb_check_csv_path = lb_check_csv_path(o.profile_csv_path);
  if (o.kernel_model) o.kernel_model_csv_path = kernel_model_csv_path(o.profile_csv_path);
  return o;
}

// --kernel-model-only and --refresh add to a profile tuned before: every
// rank reads it, so every rank refuses a missing or broken one alike. Only
// the kernel model's files are then written (--refresh: none).
std::optional<profile::MachineProfile> existing_profile(const TuneArgs& a, tuner::TuneOptions& o) {
  if (a.kernel_model_only && a.no_kernel_model)
    throw UsageError("tune: --kernel-model-only and --no-kernel-model exclude each other");
  if (a.kernel_model_only && a.refresh) throw UsageError("tune: --kernel-model-only and --refresh exclude each other");
  if (!a.kernel_model_only && !a.refresh) return std::nullopt;
  std::optional<profile::MachineProfile> existing;
  try {
    existing = profile::read_profile(o.profile_path);
  } catch (const profile::ProfileError& e) {
    throw UsageError(fmt::format("tune {} needs a profile tuned before (mmbench tune): {}",
                                 a.refresh ? "--refresh" : "--kernel-model-only", e.what()));
  }
  o.profile_csv_path.clear();
  o.lb_check_csv_path.clear();
  if (a.refresh) o.kernel_model_csv_path.clear();
  return existing;
}

// Every file tune writes must be writable before minutes of measuring;
// rank 0 checks, every rank throws alike.
void check_writable(const TuneArgs& a, const tuner::TuneOptions& o, const Comm& world) {
  std::string err;
  if (world.rank() == 0 && a.csv.empty()) {
    try {
      make_local_results_dir();
    } catch (const std::exception& e) {
      err = e.what();
    }
  }
  if (world.rank() == 0 && err.empty())
    for (const std::string& p : {o.profile_path, o.profile_csv_path, o.lb_check_csv_path, o.kernel_model_csv_path}) {
      if (p.empty()) continue;
      std::string dir = p.find('/') == std::string::npos ? "." : p.substr(0, p.rfind('/'));
      if (access(dir.c_str(), W_OK) != 0) {
        err = "cannot write " + p + " (folder " + dir + " is missing or read-only)";
        break;
      }
    }
  err = world.bcast_string(err, 0);
  if (!err.empty()) throw UsageError("tune: " + err);
}

// The lb lines of tune's summary: the rule's, the check's, and the curve.
void print_lb_summary(const profile::MachineProfile& prof, const tuner::TuneOptions& o) {
  fmt::print("  rule's lb = {} (eq. 2.26, x = {:g}, on the smoothed profile; largest median {:.0f} MFLOPS at k = {})\n",
             prof.rule_lb, o.x, prof.peak_dgemm_mflops, prof.lb_at_max);
  if (prof.lb_check.rounds <= 0) {
    fmt::print("  lb = {} (the rule's; no PDGEMM check)\n", prof.lb);
    return;
  }
  const std::int64_t rule = tuner::rule_candidate(prof.lb_check, prof.rule_lb);
  double best_speed = 0, rule_speed = 0;
  for (const profile::LbCheckCandidate& c : prof.lb_check.candidates) {
    if (c.lb == prof.lb) best_speed = c.ratio_median;
    if (c.lb == rule) rule_speed = c.ratio_median;
  }
  const std::string rule_text =
      rule == prof.rule_lb ? std::string("the rule's lb") : fmt::format("the rule's lb capped at {}", rule);
  fmt::print("  lb = {} (PDGEMM check at n = {}, {} rounds: {:.3f}x the speed of lb = {}; {} {:.3f}x) in {}\n", prof.lb,
             prof.lb_check.n, prof.lb_check.rounds, best_speed, kScalapackDefaultLb, rule_text, rule_speed,
             o.lb_check_csv_path);
  const profile::TunedLb tuned = profile::tuned_lb(profile::facts_of(prof));
  std::string curve;
  for (const profile::LbCurvePointRecord& pt : prof.lb_curve.points)
    curve += fmt::format("{}{}: {}", curve.empty() ? "" : ", ", pt.n, pt.lb);
  if (!curve.empty())
    fmt::print("  lb per size: best at n = {} (the checks), ceiling {}; every PDGEMM follows the curve (n = {})\n",
               curve, tuned.cap.curve.ceiling,
               profile::lb_by_size(tuned, prof.lb_check.n, o.pr, o.pc, prof.lb_check.nb));
}

// The network and memory lines of tune's summary.
void print_network_summary(const profile::MachineProfile& prof) {
  if (prof.network_measured)
    fmt::print(
        "  latency {:.3g} us, bandwidth {:.3g} GB/s ping-pong, {:.3g} GB/s per rank all-to-all (model uses {})\n",
        prof.latency_s * 1e6, prof.tau_pingpong * 8 / 1e9, prof.tau_alltoall * 8 / 1e9,
        profile::to_string(prof.tau_model));
  if (prof.network_measured && prof.network_levels.present) {
    const std::string both_ways = tuner::both_ways_warning(
        prof.tau_pingpong, prof.tau_alltoall, prof.network_levels.nodes, prof.network_levels.levels.ranks_per_node);
    if (!both_ways.empty()) fmt::print("  {}\n", both_ways);
  }
  if (prof.network_levels.present)
    fmt::print("  two-level network: {}{}\n", profile::describe(prof.network_levels.levels),
               prof.network_levels.levels.two_level() ? ""
               : prof.network_levels.levels.complete()
                   ? " (levels equal: the models price one level)"
                   : " (one level measured: the models price one level until both are known; "
                     "scripts/profile_network_from_platform.py adds a cluster's)");
  if (prof.shift_overlap.measured) fmt::print("  overlap: {}\n", profile::describe(prof.shift_overlap));
  if (!prof.network_measured) fmt::print("  network: not measured (one rank)\n");
  fmt::print(
      "  matrix addition: {:.3g} GB/s per rank; fresh memory written {:.3g} GB/s per rank (first touch); "
      "t_op = {:.3g} s/flop\n",
      prof.add_bytes_per_s / 1e9, prof.first_touch_bytes_per_s / 1e9, prof.t_op_s);
  if (prof.add_threads > 0 && prof.add_bytes_per_s > 0)
    fmt::print("  matrix addition with {} threads on one rank: {:.3g} GB/s ({:.2f}x one rank's; DGEMM's: {:.2f}x)\n",
               prof.add_threads, prof.add_threaded_bytes_per_s / 1e9,
               prof.add_threaded_bytes_per_s / prof.add_bytes_per_s,
               prof.dgemm_single_mflops > 0 ? prof.dgemm_threaded_mflops / prof.dgemm_single_mflops : 0.0);
}

// Rank 0: what a full tune found, one line per step.
void print_tune_summary(const TuneArgs& a, const tuner::TuneOptions& o, const profile::MachineProfile& prof,
                        double secs) {
  fmt::print("machine profile {} written ({:.1f} s)\n", o.profile_path, secs);
  fmt::print("  DGEMM profile ({} x {} x k, k = {}..{}, {} passes): {} points in {}\n", prof.problem.n / o.pr,
             prof.problem.n / o.pc, o.kmin, tuner::effective_kmax(o), o.passes, prof.dgemm_profile.size(),
             o.profile_csv_path);
  print_lb_summary(prof, o);
  if (prof.dgemm_threads > 0)
    fmt::print("  DGEMM n = {}: {:.0f} MFLOPS with {} threads, {:.0f} with one (efficiency {:.2f})\n",
               prof.dgemm_threaded_n, prof.dgemm_threaded_mflops, prof.dgemm_threads, prof.dgemm_single_mflops,
               prof.dgemm_threaded_mflops / (prof.dgemm_threads * prof.dgemm_single_mflops));
  if (prof.core_layout.measured) fmt::print("  cores: this machine wants {}\n", profile::describe(prof.core_layout));
  print_network_summary(prof);
  if (!a.no_local)
    fmt::print("  local Strassen-Winograd pays from n = {} (1 level), n = {} (2 levels); 0 = not within 256..3072\n",
               prof.strassen_l1_n, prof.strassen_l2_n);
  if (prof.cpu_peak) print_peak_summary(*prof.cpu_peak);
  if (prof.packed.measured) {
    const profile::PackedTuneRecord& pk = prof.packed;
    const std::string plain = speedup_text(pk.speedup, pk.packed_mflops / pk.blas_mflops);
    fmt::print(
        "  packed GEMM ({} kernel, n = {}, one thread): best blocking MCxKCxNC = {} at {:.0f} MFLOPS of {} "
        "tried; DGEMM {:.0f} MFLOPS ({} for the packed GEMM)\n",
        local::to_string(pk.isa), pk.n, local::to_string(pk.best), pk.packed_mflops, pk.candidates.size(),
        pk.blas_mflops, plain);
    if (pk.level.measured())
      fmt::print(
          "  one Strassen level at n = {}: fused into the packed GEMM {:.3f}x DGEMM, on DGEMM leaves {:.3f}x; "
          "the local levels' leaf is {} (fused level over the DGEMM-leaf level {})\n",
          pk.level.n, pk.level.packed_vs_dgemm, pk.level.blas_vs_dgemm, local::to_string(pk.leaf),
          speedup_text(pk.level.over_blas_level, 0));
    else
      fmt::print("  the local levels' leaf is {} (from the packed GEMM alone: no level timed)\n",
                 local::to_string(pk.leaf));
  }
  print_blas_kernels(prof.blas_kernels);
  if (prof.kernel_model.measured) print_kernel_model(prof.kernel_model);
}

}  // namespace

int tune_command(const TuneArgs& a, const Comm& world) {
  tuner::TuneOptions o = tune_options(a, world.size());
  const std::optional<profile::MachineProfile> existing = existing_profile(a, o);
  try {
    // The kernel model alone (or a refresh) needs no grid or k range: only its own values.
    if (existing)
      tuner::validate_timing(o);
    else
      tuner::validate(o, world.size());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());  // already says "tune: ..."
  }
  check_writable(a, o, world);
  if (world.rank() == 0) print_run_header(a.command_line, machine_facts(world.size()));

  // Progress like run's: on a terminal, or when asked; never on stdout.
  const bool show = world.rank() == 0 && !a.quiet && (isatty(STDERR_FILENO) || a.progress);
  const auto say = [show](const std::string& line) {
    if (show) fmt::print(stderr, "tune: {}\n", line);
  };
  const auto t0 = std::chrono::steady_clock::now();
  const auto seconds = [&t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (existing && a.refresh) {
    const profile::MachineProfile prof = tuner::refresh_profile(o, *existing, world.get(), say);
    if (world.rank() == 0)
      fmt::print("{} refreshed ({:.1f} s): {} DGEMM points re-timed, compute prices x {:.3f} (profile tuned {})\n",
                 o.profile_path, seconds(), prof.refreshed.points, prof.refreshed.factor, existing->date);
  } else if (existing) {
    const profile::MachineProfile prof = tuner::add_kernel_model(o, *existing, world.get(), say);
    if (world.rank() == 0) {
      fmt::print("kernel model added to {} ({:.1f} s); timings in {}\n", o.profile_path, seconds(),
                 o.kernel_model_csv_path);
      print_kernel_model(prof.kernel_model);
    }
  } else {
    const profile::MachineProfile prof = tuner::run_tuner(o, world.get(), say);
    if (world.rank() == 0) print_tune_summary(a, o, prof, seconds());
  }
  return 0;
}

}  // namespace mmbench::cli
