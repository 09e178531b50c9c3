#include "cli/simulation_prices.hpp"

#include <exception>
#include <string>

#include "core/usage_error.hpp"
#include "core/simulation.hpp"
#include "tuner/machine_profile.hpp"

namespace mmbench::cli {

void set_simulation_prices() {
  const std::string path = sim::profile_path();
  if (!sim::simulated() || path.empty()) return;
  tuner::MachineProfile prof;
  try {
    prof = tuner::read_profile(path);
  } catch (const std::exception& e) {
    throw UsageError("MMBENCH_SIM_PROFILE: " + std::string(e.what()));
  }
  // DGEMM: the profile's t_op, else its peak DGEMM rate; an addition pass
  // moves 24 bytes per element (two reads, one write).
  sim::ChargedPrices p;
  if (prof.t_op_s > 0) p.s_per_flop = prof.t_op_s;
  else if (prof.peak_dgemm_mflops > 0) p.s_per_flop = 1.0 / (prof.peak_dgemm_mflops * 1e6);
  if (prof.add_bytes_per_s > 0) p.s_per_element = 24.0 / prof.add_bytes_per_s;
  sim::set_charged_prices(p);
}

}  // namespace mmbench::cli
