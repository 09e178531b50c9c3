#include "cli/simulation_prices.hpp"

#include <mpi.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

#include "core/mpi/comm.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/simulation.hpp"
#include "core/usage_error.hpp"
#include "model/refined_model.hpp"
#include "profile/machine_profile.hpp"

namespace mmbench::cli {

void set_simulation_prices() {
  if (!sim::simulated()) return;
  sim::ChargedPrices p;
  try {
    sim::charged();  // MMBENCH_SIM_COMPUTE is checked here, before any work
    p.noise = sim::noise_requested();
    p.seed = sim::noise_seed();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const std::string path = sim::profile_path();
  if (path.empty()) return sim::set_charged_prices(p);
  profile::MachineProfile prof;
  try {
    prof = profile::read_profile(path);
  } catch (const std::exception& e) {
    throw UsageError("MMBENCH_SIM_PROFILE: " + std::string(e.what()));
  }
  // Flat: DGEMM at the profile's t_op, else its peak DGEMM rate; an
  // addition pass moves 24 bytes per element (two reads, one write).
  if (prof.t_op_s > 0) p.s_per_flop = prof.t_op_s;
  else if (prof.peak_dgemm_mflops > 0) p.s_per_flop = 1.0 / (prof.peak_dgemm_mflops * 1e6);
  if (prof.add_bytes_per_s > 0) p.s_per_element = 24.0 / prof.add_bytes_per_s;
  // Fitted: the kernel model, threads sped up as the refined model does
  // from the profile's threaded DGEMM and addition (ideal where the
  // profile did not measure them), and a noise stream per rank.
  p.kernel = prof.kernel_model;
  if (p.kernel.measured) {
    const model::MachineParams mp = profile::to_params(prof);
    p.dgemm_speedup = [mp](int threads) { return model::thread_speedup(threads, mp); };
    p.pass_speedup = [mp](int threads) { return model::add_speedup(threads, mp); };
    // The cores of this simulated node that compute at once: its ranks, or
    // the call's threads where one rank computes for them (the dgemm peer).
    const int node_ranks = Comm::world().split_node().size();
    p.busy_speed = [mp, node_ranks](int threads) { return model::busy_core_speed(std::max(node_ranks, threads), mp); };
  }
  int rank = 0;
  MMBENCH_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  p.stream = static_cast<std::uint64_t>(rank);
  sim::set_charged_prices(p);
}

}  // namespace mmbench::cli
