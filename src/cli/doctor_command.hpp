// `mmbench doctor`: what this machine is and whether its BLAS runs near the
// machine's limit, in a few seconds, one line each (docs/doctor.md): the
// CPU, its measured peak (one core, all cores), the BLAS, its kernel, its
// one-thread DGEMM as a fraction of the peak, BLAS threads, MPI and
// ScaLAPACK, the environment's pins, and every finding worth a warning with
// its fix. Exits 0 also with warnings (they describe the machine, not an
// error of the command).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>

#include "core/mpi/comm.hpp"

namespace mmbench::cli {

struct DoctorArgs {
  std::int64_t dgemm_n = 2048;  // tuner::kBlasCheckN
  bool no_blas_probe = false;
  // --faster-blas-core: print only the OpenBLAS core a switch pays for
  // (the probe's fastest verified one, kWorthSwitching x the running one),
  // or nothing: where the environment pins OPENBLAS_CORETYPE, or where the
  // running core is as fast. For scripts (scripts/default-benchmark.sh).
  bool faster_blas_core = false;
};

CLI::App* add_doctor_command(CLI::App& app, DoctorArgs& args);
// Collective (rank 0 measures and prints, the others wait idle). Throws
// UsageError for bad input; returns the exit code.
int doctor_command(const DoctorArgs& args, const Comm& world);

}  // namespace mmbench::cli
