// What mmbench knows about the machine it runs on, gathered in one place
// for `mmbench doctor` (one line each) and for every run's sidecar (the
// "machine" object): the CPU and its flags, the BLAS and its kernel and
// threads, MPI and ScaLAPACK, the environment variables that pin the BLAS,
// the measured peak with the BLAS's DGEMM against it (measured now by
// doctor, or read from a profile by run), and the warnings these facts
// call for.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/machine/cpu_features.hpp"
#include "profile/peak_record.hpp"

namespace mmbench::cli {

// The environment variables that change which kernels the BLAS runs or how
// many threads it starts, in the order doctor prints them.
inline constexpr const char* kPinVariables[] = {"OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                                "OPENBLAS_L2_SIZE"};

struct MachineReport {
  CpuInfo cpu;
  std::string blas;       // openblas_get_config() (+ the pin, core/machine/blas.hpp's blas_config())
  std::string blas_core;  // the core it names ("" if none)
  int blas_threads = 0;   // this process's BLAS thread count now
  std::string mpi, scalapack;
  std::string allocator;  // how freed heap memory is kept (core/machine/heap_policy.hpp)
  std::vector<std::pair<std::string, std::string>> pins;  // the kPinVariables that are set, with their values
  std::optional<profile::PeakRecord> peak;                // measured now, or from a profile
  std::string peak_source;                // "measured by doctor", "profile configs/x.json"
};

// The value of one of the kPinVariables, "" where it is not set.
std::string pin_value(const MachineReport& facts, const std::string& name);

// The facts that take no measuring (CPU, libraries, environment); peak
// and peak_source as given.
MachineReport gather_machine_report(std::optional<profile::PeakRecord> peak = std::nullopt,
                                    std::string peak_source = "");

// Every finding worth a warning, each one line starting "warning: ": the
// BLAS's DGEMM below tuner::kBlasSlowFraction of the peak (only where the
// peak record describes the running BLAS core), a build without NDEBUG.
std::vector<std::string> machine_report_warnings(const MachineReport& facts);

// The sidecar's "machine" object (docs/csv-columns.md, "Sidecar"); "peak"
// only where the facts have one.
nlohmann::json machine_report_json(const MachineReport& facts);

// Doctor's lines, without the warnings: cpu, peak, peak by ISA, blas, blas
// kernel, blas dgemm, blas threads, mpi, scalapack, environment.
std::vector<std::string> machine_report_lines(const MachineReport& facts);

// tune's summary of the recorded peak (stdout) and the BLAS warning, if any
// (stderr).
void print_peak_summary(const profile::PeakRecord& record);

}  // namespace mmbench::cli
