#include "dispatch/machine_facts.hpp"

#include <exception>

#include "core/machine/blas.hpp"
#include "local/packed_gemm.hpp"
#include "profile/machine_profile.hpp"
#include "profile/profile_facts.hpp"

namespace mmbench::dispatch {

MachineFacts machine_facts(const std::string& profile_path, int lb, LbCap lb_cap, std::string* problem) {
  MachineFacts m;
  m.lb = lb;
  m.lb_cap = lb_cap;
  m.threads = std::max(1, blas_threads());
  if (profile_path.empty()) return m;
  try {
    const profile::MachineProfile p = profile::read_profile(profile_path);
    m.params = profile::to_params(p);
    m.has_model = true;
    m.cores_per_node = p.cores;
    m.facts = profile::facts_of(p);
    m.auto_gemm = profile::leaf_choice(std::nullopt, m.facts).gemm;
    m.packed_blocking = profile::leaf_choice(local::LeafGemm::packed, m.facts).blocking;
  } catch (const std::exception& e) {
    *problem = std::string("MMBENCH_PROFILE: ") + e.what() + "; no model: every PDGEMM to ScaLAPACK";
    m.has_model = false;
  }
  return m;
}

}  // namespace mmbench::dispatch
