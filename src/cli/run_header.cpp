#include "cli/run_header.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include "core/blas.hpp"
#include "core/sysinfo.hpp"

namespace mmbench::cli {

MachineFacts machine_facts(int ranks) {
  MachineFacts m;
  m.host = host_name();
  m.cpu = cpu_model();
  m.cores = cpu_cores();
  m.ranks = ranks;
  m.blas = blas_config();
  m.blas_core = blas_core_name(m.blas);
  if (const char* pin = std::getenv("OPENBLAS_CORETYPE")) m.coretype_pin = pin;
  m.mpi = mpi_library_version();
  m.scalapack = scalapack_version();
  m.mmbench = mmbench_version();
  return m;
}

void print_run_header(const std::string& command_line, const MachineFacts& m) {
  fmt::print("# mmbench {}  command: {}\n", m.mmbench, command_line);
  fmt::print("# host {}: {} ({} cores), {} MPI rank{}\n", m.host, m.cpu, m.cores, m.ranks, m.ranks == 1 ? "" : "s");
  fmt::print("# BLAS: {} (kernel {})\n", m.blas, m.blas_core.empty() ? "unknown" : m.blas_core);
  fmt::print("# MPI: {}; ScaLAPACK {}\n", m.mpi, m.scalapack);
  std::fflush(stdout);
}

nlohmann::json to_json(const MachineFacts& m) {
  nlohmann::json pin = m.coretype_pin.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.coretype_pin);
  return {{"host", m.host},
          {"cpu", m.cpu},
          {"cores", m.cores},
          {"ranks", m.ranks},
          {"blas", {{"config", m.blas}, {"core", m.blas_core}, {"openblas_coretype", pin}}},
          {"mpi", m.mpi},
          {"scalapack", m.scalapack},
          {"mmbench", m.mmbench}};
}

}  // namespace mmbench::cli
