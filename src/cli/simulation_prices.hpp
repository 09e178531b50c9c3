// Charged simulation priced from a machine profile: reads
// MMBENCH_SIM_PROFILE (core/simulation.hpp) with the tuner's profile
// reader, and MMBENCH_SIM_NOISE / MMBENCH_SIM_SEED, and hands the prices
// to core as a value, so core never reads a profile itself. Flat prices
// come from the profile's t_op and addition bandwidth; where it has a
// kernel model, its fits (and the refined model's thread speed-ups for the
// dgemm peer's threads) price every call instead. Call once per rank after
// MPI_Init, before any command.
#pragma once

namespace mmbench::cli {

// A no-op outside a simulated run. Throws UsageError naming the variable
// or the file when a setting is invalid or the profile cannot be read.
void set_simulation_prices();

}  // namespace mmbench::cli
