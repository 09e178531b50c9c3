#include "cli/run_header.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "core/machine/blas.hpp"
#include "core/simulation.hpp"
#include "core/machine/sysinfo.hpp"

namespace mmbench::cli {

MachineFacts machine_facts(int ranks, std::optional<profile::PeakRecord> peak, std::string peak_source) {
  MachineFacts m;
  m.host = host_name();
  m.ranks = ranks;
  m.mmbench = mmbench_version();
  m.machine = gather_machine_report(std::move(peak), std::move(peak_source));
  return m;
}

void print_run_header(const std::string& command_line, const MachineFacts& m) {
  const MachineReport& r = m.machine;
  fmt::print("# mmbench {}  command: {}\n", m.mmbench, command_line);
  fmt::print("# host {}: {} ({} cores), {} MPI rank{}\n", m.host, r.cpu.model, r.cpu.cores, m.ranks,
             m.ranks == 1 ? "" : "s");
  fmt::print("# BLAS: {} (kernel {})\n", r.blas, r.blas_core.empty() ? "unknown" : r.blas_core);
  fmt::print("# MPI: {}; ScaLAPACK {}; allocator: {}\n", r.mpi, r.scalapack, r.allocator);
  // A simulated run says so before any time it reports, and how local work
  // cost time (core/simulation.hpp).
  if (sim::simulated()) {
    const std::string pricing = sim::compute_pricing();
    fmt::print("# SIMULATED on {} (SimGrid SMPI): every time is simulated; compute {}{}{}\n", sim::platform(),
               sim::compute_mode(), pricing == "real" ? "" : ", priced " + pricing,
               pricing == "fitted+noise" ? fmt::format(" (seed {})", sim::noise_seed()) : std::string());
  }
  std::fflush(stdout);
}

nlohmann::json to_json(const MachineFacts& m) {
  const MachineReport& r = m.machine;
  const std::string coretype = pin_value(r, "OPENBLAS_CORETYPE");
  nlohmann::json pin = coretype.empty() ? nlohmann::json(nullptr) : nlohmann::json(coretype);
  return {{"host", m.host},
          {"cpu", r.cpu.model},
          {"cores", r.cpu.cores},
          {"ranks", m.ranks},
          {"blas", {{"config", r.blas}, {"core", r.blas_core}, {"openblas_coretype", pin}}},
          {"mpi", r.mpi},
          {"scalapack", r.scalapack},
          {"allocator", r.allocator},
          {"mmbench", m.mmbench}};
}

}  // namespace mmbench::cli
