// The machine profile's "cpu_peak" group: the CPU, its measured
// double-precision peak (tuner/peak.hpp) and the BLAS's DGEMM against it
// (tuner/blas_check.hpp), as `mmbench tune` recorded them. Plain data with
// its own JSON reader and writer, so that the profile (machine_profile.hpp)
// only holds it as one optional field. In the file (docs/machine-profile.md):
//
//   "cpu_peak": {
//     "cpu_model": "AMD EPYC 9R14", "vendor": "AuthenticAMD", "family": 25, "model": 17,
//     "flags": "avx512f avx512bf16 avx2 fma avx sse2", "cores": 2,
//     "logical_cpus": 4,
//     "isas": [{"isa": "avx512", "flops_per_iteration": 192,
//               "one_core_gflops": 58.1, "all_cores_gflops_per_core": 57.2,
//               "by_busy_cores": [{"cores": 2, "gflops_per_core": 57.2}],
//               "all_threads_gflops_per_thread": 28.7}, ...],
//     "one_core_gflops": 58.1, "all_cores_gflops_per_core": 57.2,
//     "by_busy_cores": [{"cores": 2, "gflops_per_core": 57.2}],
//     "all_threads_gflops_per_thread": 28.7,
//     "gemm_mix_l1_gflops": 57.0, "gemm_mix_l2_gflops": 55.2,
//     "blas_core": "Cooperlake", "blas_pin": "",
//     "dgemm_n": 2048, "dgemm_gflops": 54.7, "dgemm_fraction": 0.94,
//     "fastest_gemm_gflops": 56.0, "fastest_gemm_source": "the packed-GEMM step's DGEMM at n = 2048"
//   }
//
// "cores" are physical cores (one thread each); "logical_cpus" the logical
// CPUs they offer (twice as many with 2-way SMT). "by_busy_cores" is the
// rate per core with 2, 4, ... and all cores busy, the fastest ISA's at the
// top level; "all_threads_gflops_per_thread" the SMT view (0: no SMT).
// Profiles written before the group existed have none: the field is then
// empty, and every consumer does without (no peak_fraction, no warning).
// Profiles written before "by_busy_cores" existed measured the all-core
// rate with one thread per logical CPU; they are read as they are.
//
// The peak the fractions divide by is the fastest one-core rate measured,
// not the FMA loop's alone (one_core_peak_gflops): on some CPUs a GEMM runs
// faster than the register-only loop -- the core clocks lower under a dense
// FMA loop than under a GEMM's mix of loads and FMAs, or other load met the
// loop's 0.1 s -- and a rate that was reached cannot be above the peak.
// "fastest_gemm_*" is the fastest one-thread GEMM tune timed outside the
// BLAS check (the DGEMM profile, the packed-GEMM step); absent in older
// profiles.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmbench::profile {

struct BusyCoresRecord {
  int cores = 0;
  double gflops_per_core = 0;
};

struct IsaPeakRecord {
  std::string isa;                       // "avx512", "avx2+fma", "sse2" (core/machine/cpu_features.hpp)
  std::int64_t flops_per_iteration = 0;  // of its loop (local/peak_loop.hpp)
  double one_core_gflops = 0;
  double all_cores_gflops_per_core = 0;        // 0: not measured
  std::vector<BusyCoresRecord> by_busy_cores;  // ascending cores; empty: not measured
  double all_threads_gflops_per_thread = 0;    // 0: no SMT, or not measured
  double gemm_mix_l1_gflops = 0;               // the GEMM-mix loop, slivers in L1; 0: not measured
  double gemm_mix_l2_gflops = 0;               // the same with A streamed from L2; 0: not measured
};

struct PeakRecord {
  std::string cpu_model, vendor;
  int family = -1, model = -1;                 // -1: unknown
  std::string flags;                           // to_string(CpuFlags): "avx512f avx2 fma avx sse2"
  int cores = 0;                               // physical cores of the all-core measurement
  int logical_cpus = 0;                        // their logical CPUs; 0: not recorded (older profile)
  std::vector<IsaPeakRecord> isas;             // widest first
  double one_core_gflops = 0;                  // the fastest ISA's; 0: no ISA measured (not x86-64)
  double all_cores_gflops_per_core = 0;        // likewise; 0: not measured
  std::vector<BusyCoresRecord> by_busy_cores;  // the fastest ISA's, ascending cores
  double all_threads_gflops_per_thread = 0;    // the fastest ISA's SMT view
  // The fastest ISA's GEMM-mix loop on one core (local/peak_loop.hpp): the
  // FMA rate under a GEMM micro-kernel's loads, its slivers in L1 and its A
  // panel in L2; the L2 rate is the ceiling a blocked GEMM can reach on this
  // core. 0: not measured (older profiles).
  double gemm_mix_l1_gflops = 0;
  double gemm_mix_l2_gflops = 0;
  // The BLAS check: OpenBLAS's core when it ran ("" = not OpenBLAS or
  // unnamed), OPENBLAS_CORETYPE at the time ("" = unset), and one-thread
  // DGEMM(n, n, n) on one core; dgemm_n = 0: not measured.
  std::string blas_core, blas_pin;
  std::int64_t dgemm_n = 0;
  double dgemm_gflops = 0;
  double dgemm_fraction = 0;  // dgemm_gflops / one_core_peak_gflops(*this)
  // The fastest one-thread GEMM rate tune measured in its other steps, and
  // which step ("" and 0: none recorded).
  double fastest_gemm_gflops = 0;
  std::string fastest_gemm_source;
};

// The one-core peak: the largest of the FMA loop on one core, the loop's
// rate per core with more cores busy (one core alone is never slower, so a
// higher value there means the one-core run was held back), the BLAS
// check's DGEMM and fastest_gemm_gflops. 0 where nothing was measured.
// Example: loop 49.3, ladder {2: 68.7, 16: 45.9}, DGEMM 51.1 -> 68.7.
double one_core_peak_gflops(const PeakRecord& record);
// Which measurement set one_core_peak_gflops: "" for the FMA loop on one
// core, else e.g. "the FMA loop with 2 cores busy", "DGEMM at n = 2048"
// or fastest_gemm_source.
std::string one_core_peak_source(const PeakRecord& record);
// Sets dgemm_fraction = dgemm_gflops / one_core_peak_gflops (0 where
// either is missing): after the DGEMM check, after a rate that may raise
// the peak, and on reading a profile written under the older rule.
void derive_dgemm_fraction(PeakRecord& record);
// Records a one-thread GEMM rate measured by another step: keeps the
// fastest in fastest_gemm_*, and derives dgemm_fraction again against the
// peak it may have raised.
void record_gemm_rate(PeakRecord& record, double gflops, const std::string& source);
// Records a per-core rate reached with `cores` cores busy at once (tune's
// threaded DGEMM: one rank's threads over its node's cores): the busy-core
// ladder's entry for that count, and the all-core figure where `cores` is
// the record's core count, are raised to it, up to the one-core peak -- a
// peak per core is never below a rate reached with as many cores busy. Example (the Intel VM's
// make run): ladder {2: 50.2} (the loop's two threads had one core between
// them), DGEMM on 2 threads at 65.2 GFLOP/s per core -> {2: 65.2}, and
// the runs' 2-core rows no longer read peak 1.6.
void record_busy_cores_rate(PeakRecord& record, int cores, double gflops_per_core);
// The GEMM ceiling (the GEMM-mix loop with A in L2), raised like the peak
// to any GEMM rate measured above it and never above the peak; 0 where the
// mix loop was not measured.
double gemm_ceiling_gflops(const PeakRecord& record);

// The peak per core of a computation on `cores` busy cores: the one-core
// peak for one core; with a busy-core ladder, the rate at that count,
// linear between the measured counts and the all-core rate beyond them (a
// job on more cores than one node has keeps each node's cores busy);
// without one (older profiles), the all-core peak per core, or the one-core
// peak where that was not measured. 0 for cores < 1.
// Example: one core 88.5, ladder {4: 80.0, 8: 60.0, 16: 43.7}: 2 cores ->
// 88.5 - (88.5 - 80.0) / 3 = 85.67; 6 cores -> 70.0; 32 cores -> 43.7.
double peak_gflops_per_core(const PeakRecord& record, int cores);

// (cores == 1 gives one_core_peak_gflops, and the ladder starts from it.)
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

}  // namespace mmbench::profile
