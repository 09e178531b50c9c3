// `mmbench tune`: measure the machine and write its profile (docs/method.md §8).
//
// Steps, all collective over the communicator:
//   0. the CPU's peak and the BLAS's one-thread DGEMM against it, on rank 0
//      alone (tuner/machine_check.hpp): the profile's "cpu_peak";
//   1. DGEMM profile of the typical problem's local shape
//      (m = n/pr, n = n/pc, k in [kmin, kmax]): a geometric grid of k (every
//      even k with exhaustive), `passes` interleaved passes, and the rule's
//      lb by eq. 2.26 on the smoothed profile with a statistical tie
//      (tuner/lb_rule.hpp);
//   2. unless lb_check is off: PDGEMM at the tuning size for the rule's lb
//      and a ladder around it, interleaved rounds; the fastest becomes the
//      profile's lb (tuner/lb_check.hpp);
//   3. network: ping-pong sweep with least-squares fits, all-to-all;
//   4. memory bandwidth of C = A + B;
//   5. local Strassen-Winograd crossover (unless local_crossover is off);
//   6. multi-thread DGEMM on rank 0 against one thread per rank
//      (tuner/threaded_dgemm.hpp), and from it the better layout of the
//      cores, one rank per core or one rank of threads (tuner/core_layout.hpp);
//   6b. unless packed_tune is off: the packed GEMM's block-size ladder
//      against DGEMM on rank 0, one thread (tuner/packed_ladder.hpp);
//   6c. unless kernel_model is off: DGEMM over the shapes the algorithms
//      issue and the elementwise passes, one thread per rank, every rank at
//      once, and the fits of the kernel model (tuner/kernel_timings.hpp)
//      that charged simulations price local work with;
//   7. rank 0 writes the raw profile CSV, the lb check CSV and the machine
//      profile JSON (each atomically), and every rank returns the same
//      profile.
//
// The tuner does not set the BLAS thread count of steps 1-5 (the caller
// does, docs/method.md §2.1); it records the count in the profile's notes.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>

#include "tuner/machine_profile.hpp"

namespace mmbench::tuner {

struct TuneOptions {
  std::int64_t n = 0;  // the typical problem: n x n matrices ...
  int pr = 0, pc = 0;  // ... on a pr x pc grid (pr * pc = ranks)
  std::int64_t kmin = 32;
  std::int64_t kmax = 0;  // 0: n/pc, or n/pr if pr > pc (the thesis' choice)
  double x = 0.98;        // eq. 2.26 threshold fraction
  bool exhaustive = false;  // every even k instead of the geometric grid
  int passes = 5;           // DGEMM profile passes (one timed call per k and pass)
  // reps: timed repetitions of the add bandwidth, the local crossover and
  // the threaded DGEMM (rounds); warmup: untimed calls before each of those
  // and before the profile's first pass (at kmax).
  int reps = 3, warmup = 1;
  bool lb_check = true;          // step 2
  int lb_check_rounds = 7;       // rounds of the PDGEMM check
  int lb_check_nb = 64;          // block-cyclic nb of the check (run's default)
  std::string profile_csv_path;  // raw DGEMM profile CSV; empty: not written
  std::string lb_check_csv_path; // the PDGEMM check's CSV; empty: not written
  std::string profile_path;      // machine profile JSON; empty: not written
  std::string scalapack_version; // recorded as given (the tuner cannot ask ScaLAPACK)
  std::int64_t add_n = 2048;     // matrix order of the add-bandwidth measurement
  int network_reps = 5;          // timed batches per ping-pong / all-to-all size
  bool local_crossover = true;   // measure where local Strassen-Winograd pays
  bool blas_probe = true;        // try OpenBLAS's cores in child processes (rank 0)
  bool packed_tune = true;       // step 6b: the packed GEMM's blockings and leaf
  bool kernel_model = true;      // step 6c: the kernel model (reps rounds)
  std::string kernel_model_csv_path;  // its raw timings' CSV; empty: not written
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

// Runs the whole tune; see the steps above. progress is called on rank 0
// only, with one short line per step, profile pass and check round;
// the caller decides where it goes (may be empty). Throws
// std::invalid_argument for bad options (on every rank, before measuring),
// MpiError on an MPI failure, std::runtime_error (on every rank) if rank 0
// cannot write its files.
MachineProfile run_tuner(const TuneOptions& options, MPI_Comm comm,
                         const std::function<void(const std::string&)>& progress);

// Step 6c alone, on a profile tuned before (`tune --kernel-model-only`):
// measures the kernel model at options.n with options.reps rounds and
// options.warmup, puts it into `existing` (replacing any kernel model
// there), notes it, and writes the profile and the timings' CSV to
// options.profile_path and options.kernel_model_csv_path (rank 0, each
// atomically). Collective; every rank returns the same profile. Throws
// std::invalid_argument for n < 1, reps < 1, warmup < 0; std::runtime_error
// (on every rank) when the fit or rank 0's writing fails.
MachineProfile add_kernel_model(const TuneOptions& options, const MachineProfile& existing, MPI_Comm comm,
                                const std::function<void(const std::string&)>& progress);

// `tune --refresh`: `existing` with its compute prices measured again
// (tuner/profile_refresh.hpp, refresh_compute), written to
// options.profile_path (rank 0, atomically) as add_kernel_model writes.
// Collective; every rank returns the same profile. Throws
// std::invalid_argument for passes < 1; std::runtime_error (on every rank)
// when rank 0's writing fails.
MachineProfile refresh_profile(const TuneOptions& options, const MachineProfile& existing, MPI_Comm comm,
                               const std::function<void(const std::string&)>& progress);

}  // namespace mmbench::tuner
