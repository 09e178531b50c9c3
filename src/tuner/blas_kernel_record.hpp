// The profile's record of tune's BLAS kernel probe (profile key
// "blas_kernels"; docs/machine-profile.md): which OpenBLAS core ran, whether
// the user pinned it, every core tried with its outcome, and the fastest
// verified one. Optional: profiles written before it, or with
// tune --no-blas-probe, have none.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tuner/blas_kernel_probe.hpp"

namespace mmbench::tuner {

struct BlasKernelRecord {
  bool probed = false;  // false: no probe (the key is left out)
  int n = 0;            // the timed DGEMM's size
  KernelChoice choice;
  std::vector<KernelProbe> probes;
};

nlohmann::ordered_json blas_kernels_to_json(const BlasKernelRecord& record);
// Throws ProfileError(origin, "field 'blas_kernels.…' …") on a malformed record.
BlasKernelRecord blas_kernels_from_json(const nlohmann::ordered_json& j, const std::string& origin);

}  // namespace mmbench::tuner
