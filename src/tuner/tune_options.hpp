// What `mmbench tune` is asked to do: its options, their defaults and their
// check. Read by the steps (tune_steps.hpp, profile_refresh.hpp) and set by
// the command line (cli/tune_command.cpp); the tune itself is tuner.hpp.
#pragma once

#include <cstdint>
#include <string>

namespace mmbench::tuner {

struct TuneOptions {
  std::int64_t n = 0;  // the typical problem: n x n matrices ...
  int pr = 0, pc = 0;  // ... on a pr x pc grid (pr * pc = ranks)
  std::int64_t kmin = 32;
  std::int64_t kmax = 0;    // 0: n/pc, or n/pr if pr > pc (the thesis' choice)
  double x = 0.98;          // eq. 2.26 threshold fraction
  bool exhaustive = false;  // every even k instead of the geometric grid
  int passes = 5;           // DGEMM profile passes (one timed call per k and pass)
  // reps: timed repetitions of the add bandwidth, the local crossover and
  // the threaded DGEMM (rounds); warmup: untimed calls before each of those
  // and before the profile's first pass (at kmax).
  int reps = 3, warmup = 1;
  bool lb_check = true;                       // step 2
  int lb_check_rounds = 7;                    // rounds of the PDGEMM check
  int lb_check_nb = 64;                       // block-cyclic nb of the check (run's default)
  std::string profile_csv_path;               // raw DGEMM profile CSV; empty: not written
  std::string lb_check_csv_path;              // the PDGEMM check's CSV; empty: not written
  std::string profile_path;                   // machine profile JSON; empty: not written
  std::string scalapack_version;              // recorded as given (the tuner cannot ask ScaLAPACK)
  std::int64_t add_n = 2048;                  // matrix order of the add-bandwidth measurement
  int network_reps = 5;                       // timed batches per ping-pong / all-to-all size
  bool local_crossover = true;                // measure where local Strassen-Winograd pays
  bool blas_probe = true;                     // try OpenBLAS's cores in child processes (rank 0)
  bool packed_tune = true;                    // step 6b: the packed GEMM's blockings and leaf
  bool kernel_model = true;                   // step 6c: the kernel model (reps rounds)
  std::string kernel_model_csv_path;          // its raw timings' CSV; empty: not written
  std::string executable = "/proc/self/exe";  // the probe's child program
};

// kmax after applying the default rule: options.kmax if > 0, else n/pc
// (n/pr if pr > pc). Example: n = 4096 on 1 x 2 -> 2048; on 4 x 2 -> 1024.
std::int64_t effective_kmax(const TuneOptions& options);

// Throws std::invalid_argument naming the value and the allowed range if:
// n < 1, pr or pc < 1, pr * pc != ranks, n < pr or n < pc, x outside
// (0, 1], kmin < 2, kmin > kmax, no even k in [kmin, kmax], passes < 1,
// reps < 1, warmup < 0, lb_check_rounds < 1, lb_check_nb < 1, add_n < 1,
// network_reps < 1.
void validate(const TuneOptions& options, int ranks);

// The part of validate() that a step run alone (tune --kernel-model-only)
// needs: n >= 1, reps >= 1, warmup >= 0.
void validate_timing(const TuneOptions& options);

}  // namespace mmbench::tuner
