// Runs on a simulated cluster (SimGrid SMPI, -DMMBENCH_SMPI=ON, run through
// scripts/simulate.sh). In the normal build every function here says "not
// simulated" and charges nothing.
//
// scripts/simulate.sh passes the run's simulation settings in the
// environment (read only by the SMPI build):
//   MMBENCH_SIM_PLATFORM         platform file name (CSV column `simulated`)
//   MMBENCH_SIM_PLATFORM_SHA256  its sha256 (sidecar)
//   MMBENCH_SIM_COMPUTE          real (default) | charged
//   MMBENCH_SIM_PROFILE          machine profile (tune) that prices charged
//                                work; without it DGEMM runs at the
//                                platform's host speed and an addition costs
//                                1 flop per element there.
//   MMBENCH_SIM_NOISE            on (default) | off: multiplicative noise on
//                                fitted prices (below)
//   MMBENCH_SIM_SEED             the noise's seed (default 1)
// Charged mode: local DGEMMs, elementwise passes and local copies are not
// executed; each costs simulated time (smpi_execute / smpi_execute_flops)
// and leaves its output as it was, so results are not verified.
//
// How charged work is priced (compute_pricing()):
//   flat          no kernel model: every DGEMM flop at one rate (the
//                 profile's t_op, else the host speed), every element of an
//                 addition at one price; copies cost nothing
//   fitted        the profile's kernel model (core/kernel_time_model.hpp):
//                 DGEMM(m, n, k) and every pass from its fit
//   fitted+noise  the same, each call times exp(log_sd · Z) drawn from a
//                 seeded generator per rank (core/stats/lognormal_noise.hpp)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "core/kernel_time_model.hpp"

namespace mmbench::sim {

bool simulated();                 // built for SMPI and run under smpirun
std::string platform();           // platform file name; empty in real runs
std::string platform_sha256();    // empty if unknown
bool charged();                   // local work charged, not executed
std::string compute_mode();       // "real" or "charged" ("" in real runs)
std::string profile_path();       // MMBENCH_SIM_PROFILE, or empty
// "real" (real-compute simulation), "flat", "fitted" or "fitted+noise"
// (charged, as priced after set_charged_prices); "" in real runs.
std::string compute_pricing();

// The noise settings from the environment. Throw std::invalid_argument
// naming the variable and the allowed values: MMBENCH_SIM_NOISE on|off,
// MMBENCH_SIM_SEED an integer in [0, 2^63 - 1].
bool noise_requested();
std::uint64_t noise_seed();

// Charged mode only (no-ops otherwise): the simulated cost of
//  - one local DGEMM(m, n, k);
//  - one elementwise pass that forms `sums` element sums and moves `bytes`
//    bytes (flat prices count the sums, fitted ones the bytes);
//  - one local copy of `bytes` bytes, contiguous (copy) or a sub-block's
//    columns into or out of contiguous storage (pack): only with a kernel
//    model (flat prices never charged copies).
// A rank with several BLAS threads (set_rank_threads: the dgemm peer, which
// computes on rank 0 for all p cores) divides the time by the speed-up of
// its threads (ChargedPrices; flat: the thread count). A fitted DGEMM is
// divided by ChargedPrices::busy_speed too.
void charge_dgemm(std::int64_t m, std::int64_t n, std::int64_t k);
void charge_add(std::int64_t sums, std::int64_t bytes);
void charge_copy(std::int64_t bytes);
void charge_pack(std::int64_t bytes);

// What charged work costs where a machine profile prices it
// (MMBENCH_SIM_PROFILE). The CLI reads the profile and passes the prices in
// (cli/simulation_prices.hpp) before any work is charged; without them
// DGEMM runs at the platform's host speed and an addition costs 1 flop per
// element there. Zeros: not priced. A no-op outside the SMPI build.
struct ChargedPrices {
  double s_per_flop = 0;     // flat: seconds per DGEMM flop
  double s_per_element = 0;  // flat: seconds per element sum
  KernelTimeModel kernel;    // measured: fitted prices instead of the two above
  bool noise = false;        // fitted+noise
  std::uint64_t seed = 1;
  std::uint64_t stream = 0;  // this rank's noise stream (its rank)
  // How much faster `threads` threads run a DGEMM / an elementwise pass than
  // one (the profile's measured thread efficiency); empty: `threads`.
  std::function<double(int threads)> dgemm_speedup, pass_speedup;
  // How much faster a core multiplies than the kernel model's prices say
  // while a call on `threads` threads runs (the profile's busy-core ladder:
  // the fit was timed with every tune rank of a node busy; a simulated run
  // keeps its node's ranks, or the call's threads, busy); empty: 1.
  std::function<double(int threads)> busy_speed;
};
void set_charged_prices(const ChargedPrices& prices);

// Charged mode (SMPI build): buffers of at least 1 MiB are shared between
// the simulated ranks (core/matrix/large_buffer.hpp), so the host holds them once.
// shares_buffer says whether one of `bytes` is; shared_allocate /
// shared_free allocate and free one (SMPI_SHARED_MALLOC; page aligned).
// Outside charged mode shares_buffer is false and the others are not called.
constexpr std::size_t kSharedBufferBytes = std::size_t{1} << 20;
bool shares_buffer(std::size_t bytes);
void* shared_allocate(std::size_t bytes);
void shared_free(void* p) noexcept;

// The BLAS threads a rank asked for (core/machine/blas.cpp, SMPI build only: the
// simulation itself runs one thread per rank). Default 1.
void set_rank_threads(int threads);
int rank_threads();

}  // namespace mmbench::sim
