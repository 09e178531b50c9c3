#include "cli/run_metadata.hpp"

#include <fmt/format.h>

#include "core/simulation.hpp"

namespace mmbench::cli {

nlohmann::ordered_json run_metadata(const RunArgs& a, const MachineFacts& machine, std::uint64_t order_seed,
                                    const std::string& started) {
  nlohmann::ordered_json m;
  m["command"] = a.command_line;
  // "0.1.0+1a2b3c4" (-dirty when the build had uncommitted changes).
  const std::string v = machine.mmbench;
  const auto plus = v.find('+');
  m["mmbench"] = {{"version", v.substr(0, plus)}, {"commit", plus == std::string::npos ? "" : v.substr(plus + 1)}};
  m["date"] = started.substr(0, 10);
  m["started"] = started;
  m["finished"] = nullptr;
  m["complete"] = false;
  m["interrupted_by"] = nullptr;
  m["machine"] = to_json(machine);
  m["seed"] = a.seed;
  m["order_seed"] = order_seed;
  m["reps"] = a.reps;
  m["warmup"] = a.warmup;
  m["precision"] = a.precision;
  m["budget_s"] = a.budget;
  if (sim::simulated()) {
    m["simulated"] = {{"platform", sim::platform()},
                      {"platform_sha256", sim::platform_sha256()},
                      {"compute", sim::compute_mode()},
                      {"pricing", sim::compute_pricing()}};
    if (sim::compute_pricing() == "fitted+noise") m["simulated"]["noise_seed"] = sim::noise_seed();
  }
  return m;
}

std::string markdown_heading(const std::string& command_line, const MachineFacts& machine) {
  return fmt::format("`{}`: {}, {} ({} cores), {} MPI ranks, BLAS {}, mmbench {}", command_line, machine.host,
                     machine.machine.cpu.model, machine.machine.cpu.cores, machine.ranks,
                     machine.machine.blas_core.empty() ? machine.machine.blas : machine.machine.blas_core,
                     machine.mmbench);
}

}  // namespace mmbench::cli
