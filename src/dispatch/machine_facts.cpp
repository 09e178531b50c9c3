#include "dispatch/machine_facts.hpp"

#include <exception>

#include "core/blas.hpp"
#include "local/packed_gemm.hpp"
#include "profile/machine_profile.hpp"

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
    m.local_cutoff = p.strassen_l1_n;
    if (p.packed.measured) {
      m.leaf = p.packed.leaf;
      m.blocking = profile::recorded_blocking(p.packed, local::packed_isa());
    }
  } catch (const std::exception& e) {
    *problem = std::string("MMBENCH_PROFILE: ") + e.what() + "; no model: every PDGEMM to ScaLAPACK";
    m.has_model = false;
  }
  return m;
}

}  // namespace mmbench::dispatch
