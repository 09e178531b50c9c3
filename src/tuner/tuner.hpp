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
//      cores, one rank per core or one rank of threads (profile/core_layout.hpp);
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

#include "profile/machine_profile.hpp"
#include "tuner/tune_options.hpp"

namespace mmbench::tuner {

// Runs the whole tune; see the steps above. progress is called on rank 0
// only, with one short line per step, profile pass and check round;
// the caller decides where it goes (may be empty). Throws
// std::invalid_argument for bad options (on every rank, before measuring),
// MpiError on an MPI failure, std::runtime_error (on every rank) if rank 0
// cannot write its files.
profile::MachineProfile run_tuner(const TuneOptions& options, MPI_Comm comm,
                                  const std::function<void(const std::string&)>& progress);

// Step 6c alone, on a profile tuned before (`tune --kernel-model-only`):
// measures the kernel model at options.n with options.reps rounds and
// options.warmup, puts it into `existing` (replacing any kernel model
// there), notes it, and writes the profile and the timings' CSV to
// options.profile_path and options.kernel_model_csv_path (rank 0, each
// atomically). Collective; every rank returns the same profile. Throws
// std::invalid_argument for n < 1, reps < 1, warmup < 0; std::runtime_error
// (on every rank) when the fit or rank 0's writing fails.
profile::MachineProfile add_kernel_model(const TuneOptions& options, const profile::MachineProfile& existing,
                                         MPI_Comm comm, const std::function<void(const std::string&)>& progress);

// `tune --refresh`: `existing` with its compute prices measured again
// (tuner/profile_refresh.hpp, refresh_compute), written to
// options.profile_path (rank 0, atomically) as add_kernel_model writes.
// Collective; every rank returns the same profile. Throws
// std::invalid_argument for passes < 1; std::runtime_error (on every rank)
// when rank 0's writing fails.
profile::MachineProfile refresh_profile(const TuneOptions& options, const profile::MachineProfile& existing,
                                        MPI_Comm comm, const std::function<void(const std::string&)>& progress);

}  // namespace mmbench::tuner
