#include "tuner/peak_record.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

#include "tuner/machine_profile.hpp"
#include "tuner/profile_group_reader.hpp"

namespace mmbench::tuner {

using json = nlohmann::ordered_json;

double peak_gflops_per_core(const PeakRecord& r, int cores) {
  if (cores < 1) return 0;
  if (cores == 1 || !(r.all_cores_gflops_per_core > 0)) return r.one_core_gflops;
  return r.all_cores_gflops_per_core;
}

std::optional<double> peak_fraction(double mflops_per_core, const PeakRecord& record, int cores) {
  const double peak = peak_gflops_per_core(record, cores);
  if (!(peak > 0) || !(mflops_per_core > 0) || !std::isfinite(mflops_per_core)) return std::nullopt;
  return mflops_per_core / 1e3 / peak;
}

void write_peak_record(const std::optional<PeakRecord>& record, json& profile) {
  if (!record) return;
  const PeakRecord& r = *record;
  json isas = json::array();
  for (const IsaPeakRecord& i : r.isas)
    isas.push_back({{"isa", i.isa},
                    {"flops_per_iteration", i.flops_per_iteration},
                    {"one_core_gflops", i.one_core_gflops},
                    {"all_cores_gflops_per_core", i.all_cores_gflops_per_core}});
  profile["cpu_peak"] = {{"cpu_model", r.cpu_model},
                         {"vendor", r.vendor},
                         {"family", r.family},
                         {"model", r.model},
                         {"flags", r.flags},
                         {"cores", r.cores},
                         {"isas", std::move(isas)},
                         {"one_core_gflops", r.one_core_gflops},
                         {"all_cores_gflops_per_core", r.all_cores_gflops_per_core},
                         {"blas_core", r.blas_core},
                         {"blas_pin", r.blas_pin},
                         {"dgemm_n", r.dgemm_n},
                         {"dgemm_gflops", r.dgemm_gflops},
                         {"dgemm_fraction", r.dgemm_fraction}};
}

std::optional<PeakRecord> read_peak_record(const json& profile, const std::string& origin) {
  const auto group = profile.find("cpu_peak");
  if (group == profile.end()) return std::nullopt;
  const GroupReader r(origin);
  const json& g = *group;
  if (!g.is_object()) r.fail(std::string("field 'cpu_peak' must be an object, got ") + g.type_name());
  constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
  auto at = [](const char* key) { return std::string("cpu_peak.") + key; };
  PeakRecord p;
  p.cpu_model = r.string(g, at("cpu_model"), "cpu_model");
  p.vendor = r.string(g, at("vendor"), "vendor");
  p.family = static_cast<int>(r.integer(g, at("family"), "family", -1, kIntMax));
  p.model = static_cast<int>(r.integer(g, at("model"), "model", -1, kIntMax));
  p.flags = r.string(g, at("flags"), "flags");
  p.cores = static_cast<int>(r.integer(g, at("cores"), "cores", 0, kIntMax));
  const json& isas = r.field(g, at("isas"), "isas");
  if (!isas.is_array()) r.fail(std::string("field 'cpu_peak.isas' must be an array, got ") + isas.type_name());
  for (std::size_t i = 0; i < isas.size(); ++i) {
    const std::string path = "cpu_peak.isas[" + std::to_string(i) + "]";
    if (!isas[i].is_object()) r.fail("field '" + path + "' must be an object, got " + isas[i].type_name());
    IsaPeakRecord ip;
    ip.isa = r.string(isas[i], path + ".isa", "isa");
    ip.flops_per_iteration =
        r.integer(isas[i], path + ".flops_per_iteration", "flops_per_iteration", 1, std::numeric_limits<std::int64_t>::max());
    ip.one_core_gflops = r.number(isas[i], path + ".one_core_gflops", "one_core_gflops", true);
    ip.all_cores_gflops_per_core =
        r.number(isas[i], path + ".all_cores_gflops_per_core", "all_cores_gflops_per_core", false);
    p.isas.push_back(ip);
  }
  p.one_core_gflops = r.number(g, at("one_core_gflops"), "one_core_gflops", false);
  p.all_cores_gflops_per_core = r.number(g, at("all_cores_gflops_per_core"), "all_cores_gflops_per_core", false);
  p.blas_core = r.string(g, at("blas_core"), "blas_core");
  p.blas_pin = r.string(g, at("blas_pin"), "blas_pin");
  p.dgemm_n = r.integer(g, at("dgemm_n"), "dgemm_n", 0, std::numeric_limits<std::int64_t>::max());
  p.dgemm_gflops = r.number(g, at("dgemm_gflops"), "dgemm_gflops", false);
  p.dgemm_fraction = r.number(g, at("dgemm_fraction"), "dgemm_fraction", false);
  if (p.dgemm_n > 0) {  // measured: both values must be usable
    r.number(g, at("dgemm_gflops"), "dgemm_gflops", true);
    r.number(g, at("dgemm_fraction"), "dgemm_fraction", true);
  }
  return p;
}

}  // namespace mmbench::tuner
