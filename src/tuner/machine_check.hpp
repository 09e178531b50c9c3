// The machine checked in one step: the CPU (core/machine/cpu_features.hpp), its
// measured peak (tuner/peak.hpp) and the BLAS's one-thread DGEMM against
// it (tuner/blas_check.hpp), as the profile's "cpu_peak" record
// (profile/peak_record.hpp). `tune` records it; `doctor` prints it.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "core/machine/cpu_features.hpp"
#include "tuner/blas_check.hpp"
#include "tuner/peak.hpp"
#include "profile/peak_record.hpp"

namespace mmbench::tuner {

struct MachineCheckOptions {
  PeakOptions peak;
  std::int64_t dgemm_n = kBlasCheckN;  // 0: no DGEMM check
};

// The record of measurements already taken (no measuring): flops per
// iteration from local/peak_loop.hpp, the fraction dgemm_gflops / the
// one-core peak (0 where either is missing).
profile::PeakRecord make_peak_record(const CpuInfo& cpu, const PeakMeasurement& peak, const std::string& blas_core,
                                     const std::string& blas_pin, std::int64_t dgemm_n, double dgemm_gflops);

// Collective over comm: rank 0 measures the peak (on its node's cores) and
// then DGEMM on one thread while every other rank sleeps in an idle
// barrier; every rank returns rank 0's record. A few seconds.
profile::PeakRecord check_machine(const MachineCheckOptions& options, MPI_Comm comm);

// The record in words, for tune's and doctor's output:
//   peak: "avx512 58.1 GFLOP/s one core, 57.2 per core on 2 cores at once;
//         GEMM ceiling (...) 55.2 GFLOP/s with A in L2 = 95 % of the
//         one-core peak (57.0 in L1)" (the fastest ISA's; "not measured"
//         without any; the ceiling is profile::gemm_ceiling_gflops, and
//         where a GEMM raised it above the mix loop the line says so);
//   dgemm: "54.7 GFLOP/s at n = 2048, one thread, OpenBLAS core Cooperlake:
//          94 % of the one-core peak, 99 % of the GEMM ceiling" ("not
//          measured" with dgemm_n = 0);
//   describe_peak_record: "peak " + peak + "; DGEMM " + dgemm.
std::string describe_recorded_peak(const profile::PeakRecord& record);
std::string describe_recorded_dgemm(const profile::PeakRecord& record);
std::string describe_peak_record(const profile::PeakRecord& record);

}  // namespace mmbench::tuner
