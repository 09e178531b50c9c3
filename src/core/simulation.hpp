// Runs on a simulated cluster (SimGrid SMPI, -DMMBENCH_SMPI=ON, run through
// scripts/simulate.sh). In the normal build every function here says "not
// simulated" and charges nothing.
//
// scripts/simulate.sh passes the run's simulation settings in the
// environment (read only by the SMPI build):
//   MMBENCH_SIM_PLATFORM         platform file name (CSV column `simulated`)
//   MMBENCH_SIM_PLATFORM_SHA256  its sha256 (sidecar)
//   MMBENCH_SIM_COMPUTE          real (default) | charged
//   MMBENCH_SIM_PROFILE          machine profile (tune) whose DGEMM rate and
//                                addition bandwidth price charged work;
//                                without it DGEMM runs at the platform's
//                                host speed and an addition costs 1 flop per
//                                element there.
// Charged mode: local DGEMMs and matrix additions are not executed; each
// costs simulated time (smpi_execute / smpi_execute_flops) and leaves its
// output as it was, so results are not verified.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mmbench::sim {

bool simulated();                 // built for SMPI and run under smpirun
std::string platform();           // platform file name; empty in real runs
std::string platform_sha256();    // empty if unknown
bool charged();                   // local work charged, not executed
std::string compute_mode();       // "real" or "charged" ("" in real runs)
std::string profile_path();       // MMBENCH_SIM_PROFILE, or empty

// Charged mode only (no-ops otherwise): the simulated cost of one local
// DGEMM (2 m n k flops) and of one elementwise pass over `elements`
// elements (c = a +- b and the like).
// Both divide by the rank's thread count (set_rank_threads; perfect
// scaling, used by the dgemm peer that computes on rank 0 for all p cores).
void charge_dgemm(std::int64_t m, std::int64_t n, std::int64_t k);
void charge_add(std::int64_t elements);

// What charged work costs where a machine profile prices it
// (MMBENCH_SIM_PROFILE): seconds per DGEMM flop and per element of one
// addition pass. The CLI reads the profile and passes the prices in
// (cli/simulation_prices.hpp) before any work is charged; without them
// DGEMM runs at the platform's host speed and an addition costs 1 flop
// per element there. Zeros: not priced. A no-op outside the SMPI build.
struct ChargedPrices {
  double s_per_flop = 0;
  double s_per_element = 0;
};
void set_charged_prices(const ChargedPrices& prices);

// Charged mode (SMPI build): buffers of at least 1 MiB are shared between
// the simulated ranks (core/large_buffer.hpp), so the host holds them once.
// shares_buffer says whether one of `bytes` is; shared_allocate /
// shared_free allocate and free one (SMPI_SHARED_MALLOC; page aligned).
// Outside charged mode shares_buffer is false and the others are not called.
constexpr std::size_t kSharedBufferBytes = std::size_t{1} << 20;
bool shares_buffer(std::size_t bytes);
void* shared_allocate(std::size_t bytes);
void shared_free(void* p) noexcept;

// The BLAS threads a rank asked for (core/blas.cpp, SMPI build only: the
// simulation itself runs one thread per rank). Default 1.
void set_rank_threads(int threads);
int rank_threads();

}  // namespace mmbench::sim
