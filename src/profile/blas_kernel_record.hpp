// The profile's record of tune's BLAS kernel probe (profile key
// "blas_kernels"; docs/machine-profile.md): which OpenBLAS core ran, whether
// the user pinned it, every core tried with its outcome, and the fastest
// verified one. Optional: profiles written before it, or with
// tune --no-blas-probe, have none.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mmbench::profile {

// One core's outcome. asked: the OPENBLAS_CORETYPE value given ("" = none:
// the core OpenBLAS detects); ran: the core the child reported
// (openblas_get_corename), which may differ where OpenBLAS ignores a name.
struct KernelProbe {
  std::string asked;
  std::string ran;
  bool verified = false;
  std::string reason;      // why rejected ("" when verified)
  double max_rel_err = 0;  // of the verification products
  double mflops = 0;       // one-thread DGEMM n x n x n, best of the timed calls
};

// What the probes say (tuner::choose_kernel, tuner/blas_kernel_probe.hpp).
struct KernelChoice {
  std::string running;        // the core this process runs
  double running_mflops = 0;  // its probe's rate (0: not probed or rejected)
  std::string fastest;        // the fastest verified core ("" = none verified)
  double fastest_mflops = 0;
  bool pinned = false;       // OPENBLAS_CORETYPE set by the user
  bool switch_pays = false;  // fastest >= tuner::kWorthSwitching x running
  std::string advice;        // one line for the user ("" = nothing to do)
};

struct BlasKernelRecord {
  bool probed = false;  // false: no probe (the key is left out)
  int n = 0;            // the timed DGEMM's size
  KernelChoice choice;
  std::vector<KernelProbe> probes;
};

nlohmann::ordered_json blas_kernels_to_json(const BlasKernelRecord& record);
// Throws ProfileError(origin, "field 'blas_kernels.…' …") on a malformed record.
BlasKernelRecord blas_kernels_from_json(const nlohmann::ordered_json& j, const std::string& origin);

}  // namespace mmbench::profile
