// Charged simulation priced from a machine profile: reads
// MMBENCH_SIM_PROFILE (core/simulation.hpp) with the tuner's profile
// reader and hands the prices to core as a value, so core never reads a
// profile itself. Call once per rank after MPI_Init, before any command.
#pragma once

namespace mmbench::cli {

// A no-op outside a simulated run or without MMBENCH_SIM_PROFILE. Throws
// UsageError naming the file when the profile cannot be read.
void set_simulation_prices();

}  // namespace mmbench::cli
