// What a benchmark's output must carry to be read later (as IMB and OSU
// print it): the command line and the machine it ran on. `run` and `tune`
// print it at the top on rank 0; `run --json` stores the same facts.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace mmbench::cli {

struct MachineFacts {
  std::string host, cpu;
  int cores = 0;             // online logical CPUs of this node
  int ranks = 0;             // MPI ranks of the job
  std::string blas;          // openblas_get_config(), with the OPENBLAS_CORETYPE pin if any
  std::string blas_core;     // the kernel OpenBLAS runs (Haswell, SkylakeX, ...), "" if it names none
  std::string coretype_pin;  // OPENBLAS_CORETYPE as set in the environment, "" if unset
  std::string mpi, scalapack, mmbench;
};

// Collects the facts of this process (no communication).
MachineFacts machine_facts(int ranks);

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
