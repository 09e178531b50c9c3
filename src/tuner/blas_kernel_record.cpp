#include "tuner/blas_kernel_record.hpp"

#include "tuner/machine_profile.hpp"

namespace mmbench::tuner {

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
  BlasKernelRecord r;
  try {
    r.probed = true;
    r.n = j.at("n").get<int>();
    r.choice.running = j.at("running").get<std::string>();
    r.choice.pinned = j.at("pinned").get<bool>();
    r.choice.running_mflops = j.at("running_mflops").get<double>();
    r.choice.fastest = j.at("fastest").get<std::string>();
    r.choice.fastest_mflops = j.at("fastest_mflops").get<double>();
    r.choice.switch_pays = j.at("switch_pays").get<bool>();
    r.choice.advice = j.at("advice").get<std::string>();
    for (const auto& p : j.at("probes")) {
      KernelProbe k;
      k.asked = p.at("asked").get<std::string>();
      k.ran = p.at("ran").get<std::string>();
      k.verified = p.at("verified").get<bool>();
      k.reason = p.at("reason").get<std::string>();
      k.max_rel_err = p.at("max_rel_err").get<double>();
      k.mflops = p.at("mflops").get<double>();
      r.probes.push_back(k);
    }
  } catch (const nlohmann::json::exception& e) {
    throw ProfileError(origin, std::string("field 'blas_kernels' is malformed: ") + e.what());
  }
  return r;
}

}  // namespace mmbench::tuner
