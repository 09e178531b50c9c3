#include "cli/run_sidecar.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli/blas_kernel_switch.hpp"
#include "core/machine/blas.hpp"
#include "core/csv_file.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/simulation.hpp"
#include "core/machine/sysinfo.hpp"
#include "local/packed_gemm.hpp"

namespace mmbench::cli {

void write_sidecar(const std::string& csv_path, const RunArgs& a, const run::RepsRule& reps, const Comm& world,
                   std::uint64_t order_seed, const std::string& started, const nlohmann::json& machine) {
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
    if (ec)
      throw std::runtime_error(path + " is not readable (" + unreadable + ") and could not be kept as " + kept + ": " +
                               ec.message() + "; nothing was written");
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
      {"interval",
       "median with a distribution-free order-statistics interval (binomial): the narrowest pair of "
       "order statistics with at least 95 % coverage, or [min, max] below 6 rounds, whose coverage is "
       "lower (3 rounds: 75 %); each row's coverage is its ci_coverage column; ratios formed per round"},
      {"machine", machine},  // cli/machine_report.hpp
  };
  // What the intervals of a fixed --reps cover (auto: each row's ci_coverage).
  if (!reps.automatic) run["interval_coverage"] = interval_coverage(reps.rounds);
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

}  // namespace mmbench::cli
