#include "profile/blas_kernel_record.hpp"

#include <limits>

#include "profile/group_reader.hpp"

namespace mmbench::profile {

nlohmann::ordered_json blas_kernels_to_json(const BlasKernelRecord& r) {
  nlohmann::ordered_json probes = nlohmann::ordered_json::array();
  for (const KernelProbe& p : r.probes)
    probes.push_back({{"asked", p.asked},
                      {"ran", p.ran},
                      {"verified", p.verified},
                      {"reason", p.reason},
                      {"max_rel_err", p.max_rel_err},
                      {"mflops", p.mflops}});
  return {{"n", r.n},
          {"running", r.choice.running},
          {"pinned", r.choice.pinned},
          {"running_mflops", r.choice.running_mflops},
          {"fastest", r.choice.fastest},
          {"fastest_mflops", r.choice.fastest_mflops},
          {"switch_pays", r.choice.switch_pays},
          {"advice", r.choice.advice},
          {"probes", probes}};
}

BlasKernelRecord blas_kernels_from_json(const nlohmann::ordered_json& j, const std::string& origin) {
  const GroupReader g(origin);
  if (!j.is_object()) g.fail(std::string("field 'blas_kernels' must be an object, got ") + j.type_name());
  BlasKernelRecord r;
  r.probed = true;
  r.n = static_cast<int>(g.integer(j, "blas_kernels.n", "n", 1, 1 << 20));
  r.choice.running = g.string(j, "blas_kernels.running", "running");
  r.choice.pinned = g.boolean(j, "blas_kernels.pinned", "pinned");
  r.choice.running_mflops = g.number(j, "blas_kernels.running_mflops", "running_mflops", false);
  r.choice.fastest = g.string(j, "blas_kernels.fastest", "fastest");
  r.choice.fastest_mflops = g.number(j, "blas_kernels.fastest_mflops", "fastest_mflops", false);
  r.choice.switch_pays = g.boolean(j, "blas_kernels.switch_pays", "switch_pays");
  r.choice.advice = g.string(j, "blas_kernels.advice", "advice");
  const auto& probes = g.field(j, "blas_kernels.probes", "probes");
  if (!probes.is_array())
    g.fail(std::string("field 'blas_kernels.probes' must be an array, got ") + probes.type_name());
  for (std::size_t i = 0; i < probes.size(); ++i) {
    const std::string at = "blas_kernels.probes[" + std::to_string(i) + "]";
    const auto& p = probes[i];
    if (!p.is_object()) g.fail("field '" + at + "' must be an object, got " + p.type_name());
    KernelProbe k;
    k.asked = g.string(p, at + ".asked", "asked");
    k.ran = g.string(p, at + ".ran", "ran");
    k.verified = g.boolean(p, at + ".verified", "verified");
    k.reason = g.string(p, at + ".reason", "reason");
    // A rejected core's error may have been infinite or NaN, which JSON
    // writes as null: read back as infinite (rejected either way).
    const auto& err = g.field(p, at + ".max_rel_err", "max_rel_err");
    k.max_rel_err = err.is_null() ? std::numeric_limits<double>::infinity()
                                  : g.number(p, at + ".max_rel_err", "max_rel_err", false);
    k.mflops = g.number(p, at + ".mflops", "mflops", false);
    r.probes.push_back(k);
  }
  return r;
}

}  // namespace mmbench::profile
