#include "cli/tune_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>

#include "algos/process_grid.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_lists.hpp"
#include "core/sysinfo.hpp"
#include "tuner/machine_profile.hpp"
#include "tuner/tuner.hpp"

namespace mmbench::cli {

CLI::App* add_tune_command(CLI::App& app, TuneArgs& a) {
  CLI::App* t = app.add_subcommand(
      "tune", "Measure this machine: DGEMM profile -> PBLAS lb (eq. 2.26), latency/bandwidth, memory bandwidth; "
              "write the machine profile (run it with the ranks you normally use)");
  t->add_option("--n", a.n, "Typical problem size n (local DGEMM shape n/pr x n/pc x k)")->capture_default_str();
  t->add_option("--grid", a.grid, "Process grid of the typical problem: auto (most square) or PxQ")->capture_default_str();
  t->add_option("--kmin", a.kmin, "Smallest panel width k of the DGEMM profile")->capture_default_str();
  t->add_option("--kmax", a.kmax, "Largest k (0: n/pc, or n/pr if pr > pc)")->capture_default_str();
  t->add_option("--x", a.x, "lb = smallest k reaching x * max MFLOPS (0 < x <= 1)")->capture_default_str();
  t->add_flag("--exhaustive", a.exhaustive, "Measure every even k (the thesis' full sweep) instead of the smart search");
  t->add_option("--reps", a.reps, "Timed repetitions per profile point")->capture_default_str();
  t->add_option("--warmup", a.warmup, "Warm-up calls per profile point")->capture_default_str();
  t->add_option("--profile", a.profile, "Machine profile to write (default configs/<host>.json)");
  t->add_option("--csv", a.csv, "Raw DGEMM profile CSV (default results/dgemm-profile-<host>-n<N>.csv)");
  t->add_flag("--quiet", a.quiet, "No progress on stderr");
  t->add_flag("--progress", a.progress, "Progress on stderr even when it is not a terminal");
  t->add_flag("--no-local", a.no_local, "Skip measuring the local Strassen-Winograd crossover");
  return t;
}

int tune_command(const TuneArgs& a, const Comm& world) {
  tuner::TuneOptions o;
  o.n = a.n;
  auto [pr, pc] = parse_grid("--grid", a.grid);
  if (pr == 0) std::tie(pr, pc) = algos::most_square_grid(world.size());
  o.pr = pr;
  o.pc = pc;
  o.kmin = a.kmin;
  o.kmax = a.kmax;
  o.x = a.x;
  o.exhaustive = a.exhaustive;
  o.reps = a.reps;
  o.warmup = a.warmup;
  o.scalapack_version = scalapack_version();
  o.local_crossover = !a.no_local;
  o.profile_path = a.profile.empty() ? tuner::default_profile_path(host_name()) : a.profile;
  o.profile_csv_path =
      a.csv.empty() ? fmt::format("results/dgemm-profile-{}-n{}.csv", host_name(), a.n) : a.csv;
  try {
    tuner::validate(o, world.size());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());  // validate() already says "tune: ..."
  }
  // Both output files must be writable before minutes of measuring.
  std::string err;
  if (world.rank() == 0)
    for (const std::string& p : {o.profile_path, o.profile_csv_path}) {
      std::string dir = p.find('/') == std::string::npos ? "." : p.substr(0, p.rfind('/'));
      if (access(dir.c_str(), W_OK) != 0) {
        err = "cannot write " + p + " (folder " + dir + " is missing or read-only)";
        break;
      }
    }
  err = world.bcast_string(err, 0);
  if (!err.empty()) throw UsageError("tune: " + err);

  // Progress like run's: on a terminal, or when asked; never on stdout.
  const bool show = world.rank() == 0 && !a.quiet && (isatty(STDERR_FILENO) || a.progress);
  auto t0 = std::chrono::steady_clock::now();
  tuner::MachineProfile prof = tuner::run_tuner(o, world.get(), [&](const std::string& line) {
    if (show) fmt::print(stderr, "tune: {}\n", line);
  });
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (world.rank() == 0) {
    fmt::print("machine profile {} written ({:.1f} s, {} search)\n", o.profile_path, secs,
               a.exhaustive ? "exhaustive" : "smart");
    fmt::print("  DGEMM profile ({} x {} x k, k = {}..{}): {} points in {}\n", prof.problem.n / pr, prof.problem.n / pc,
               o.kmin, tuner::effective_kmax(o), prof.dgemm_profile.size(), o.profile_csv_path);
    fmt::print("  lb = {} (first k with >= {:.0f}% of the max {:.0f} MFLOPS, which is at k = {})\n", prof.lb, o.x * 100,
               prof.peak_dgemm_mflops, prof.lb_at_max);
    if (prof.network_measured)
      fmt::print("  latency {:.3g} us, bandwidth {:.3g} GB/s ping-pong, {:.3g} GB/s per rank all-to-all (model uses {})\n",
                 prof.latency_s * 1e6, prof.tau_pingpong * 8 / 1e9, prof.tau_alltoall * 8 / 1e9,
                 tuner::to_string(prof.tau_model));
    else
      fmt::print("  network: not measured (one rank)\n");
    fmt::print("  matrix addition: {:.3g} GB/s per rank; t_op = {:.3g} s/flop\n", prof.add_bytes_per_s / 1e9, prof.t_op_s);
    if (!a.no_local)
      fmt::print("  local Strassen-Winograd pays from n = {} (1 level), n = {} (2 levels); 0 = not within 256..3072\n",
                 prof.strassen_l1_n, prof.strassen_l2_n);
  }
  return 0;
}

}  // namespace mmbench::cli
