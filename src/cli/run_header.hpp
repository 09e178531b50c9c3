// What a benchmark's output must carry to be read later (as IMB and OSU
// print it): the command line and the machine it ran on. `run` and `tune`
// print it at the top on rank 0; `run --json` stores the same facts.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "cli/machine_report.hpp"

namespace mmbench::cli {

// The run's identity: this host, the job's ranks and the mmbench build,
// with the machine's facts gathered once (machine_report.hpp: the CPU, the
// BLAS and its kernel, the pins, MPI and ScaLAPACK).
struct MachineFacts {
  std::string host;
  int ranks = 0;  // MPI ranks of the job
  std::string mmbench;
  MachineReport machine;
};

// Collects the facts of this process (no communication); the peak and its
// source as gather_machine_report takes them.
MachineFacts machine_facts(int ranks, std::optional<profile::PeakRecord> peak = std::nullopt,
                           std::string peak_source = "");

// The block, every line starting with "# " so a reader of the table can
// skip it:
//   # mmbench 0.1.0+1a2b3c4  command: mmbench run --algo ring --n 256
//   # host vm: AMD EPYC 7B13 (2 cores), 2 MPI ranks
//   # BLAS: OpenBLAS 0.3.21 ... Haswell MAX_THREADS=64 (kernel Haswell)
//   # MPI: Open MPI v4.1.4; ScaLAPACK 2.2.1
void print_run_header(const std::string& command_line, const MachineFacts& m);

// {"host", "cpu", "cores", "ranks", "blas": {"config", "core",
// "openblas_coretype"}, "mpi", "scalapack", "mmbench"} (docs/json-schema.md).
nlohmann::json to_json(const MachineFacts& m);

}  // namespace mmbench::cli
