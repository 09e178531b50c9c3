// The machine profile's "cpu_peak" group: the CPU, its measured
// double-precision peak (tuner/peak.hpp) and the BLAS's DGEMM against it
// (tuner/blas_check.hpp), as `mmbench tune` recorded them. Plain data with
// its own JSON reader and writer, so that the profile (machine_profile.hpp)
// only holds it as one optional field. In the file (docs/machine-profile.md):
//
//   "cpu_peak": {
//     "cpu_model": "AMD EPYC 9R14", "vendor": "AuthenticAMD", "family": 25, "model": 17,
//     "flags": "avx512f avx512bf16 avx2 fma avx sse2", "cores": 2,
//     "isas": [{"isa": "avx512", "flops_per_iteration": 192,
//               "one_core_gflops": 58.1, "all_cores_gflops_per_core": 57.2}, ...],
//     "one_core_gflops": 58.1, "all_cores_gflops_per_core": 57.2,
//     "blas_core": "Cooperlake", "blas_pin": "",
//     "dgemm_n": 2048, "dgemm_gflops": 54.7, "dgemm_fraction": 0.94
//   }
//
// Profiles written before the group existed have none: the field is then
// empty, and every consumer does without (no peak_fraction, no warning).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmbench::tuner {

struct IsaPeakRecord {
  std::string isa;                 // "avx512", "avx2+fma", "sse2" (core/cpu_features.hpp)
  std::int64_t flops_per_iteration = 0;  // of its loop (local/peak_loop.hpp)
  double one_core_gflops = 0;
  double all_cores_gflops_per_core = 0;  // 0: not measured
};

struct PeakRecord {
  std::string cpu_model, vendor;
  int family = -1, model = -1;  // -1: unknown
  std::string flags;            // to_string(CpuFlags): "avx512f avx2 fma avx sse2"
  int cores = 0;                // threads of the all-core measurement
  std::vector<IsaPeakRecord> isas;  // widest first
  double one_core_gflops = 0;            // the fastest ISA's; 0: no ISA measured (not x86-64)
  double all_cores_gflops_per_core = 0;  // likewise; 0: not measured
  // The BLAS check: OpenBLAS's core when it ran ("" = not OpenBLAS or
  // unnamed), OPENBLAS_CORETYPE at the time ("" = unset), and one-thread
  // DGEMM(n, n, n) on one core; dgemm_n = 0: not measured.
  std::string blas_core, blas_pin;
  std::int64_t dgemm_n = 0;
  double dgemm_gflops = 0;
  double dgemm_fraction = 0;  // dgemm_gflops / one_core_gflops
};

// The peak per core of a computation on `cores` cores: the one-core peak
// for one core, the all-core peak per core for more (the one-core peak
// where the all-core one was not measured). 0 for cores < 1.
double peak_gflops_per_core(const PeakRecord& record, int cores);

// A row's achieved rate against the peak of the cores it used:
// mflops_per_core / 1000 / peak_gflops_per_core(record, cores). nullopt
// where there is no usable peak or rate (cores < 1, a rate <= 0).
// Example: 45000 MFLOPS per core on 2 cores, all-core peak 50 GFLOP/s per
// core -> 0.9. A Strassen row's rate counts 2n^3 flops, so it may exceed 1.
std::optional<double> peak_fraction(double mflops_per_core, const PeakRecord& record, int cores);

// Adds "cpu_peak" to a profile's JSON object when the record is there.
void write_peak_record(const std::optional<PeakRecord>& record, nlohmann::ordered_json& profile);
// Reads "cpu_peak" from a profile's JSON object: nullopt when absent.
// Throws ProfileError(origin, ...) naming the field ("cpu_peak.dgemm_n")
// when it is there but malformed or out of range.
std::optional<PeakRecord> read_peak_record(const nlohmann::ordered_json& profile, const std::string& origin);

}  // namespace mmbench::tuner
