#include "profile/peak_record.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "profile/profile_error.hpp"
#include "profile/group_reader.hpp"

namespace mmbench::profile {

using json = nlohmann::ordered_json;

namespace {

// The candidates of one_core_peak_gflops with their names, the FMA loop on
// one core first (so that it wins a tie).
std::vector<std::pair<double, std::string>> one_core_candidates(const PeakRecord& r) {
  std::vector<std::pair<double, std::string>> c{{r.one_core_gflops, ""}};
  for (const BusyCoresRecord& b : r.by_busy_cores)
    c.emplace_back(b.gflops_per_core, "the FMA loop with " + std::to_string(b.cores) + " cores busy");
  if (r.dgemm_n > 0) c.emplace_back(r.dgemm_gflops, "DGEMM at n = " + std::to_string(r.dgemm_n));
  if (r.fastest_gemm_gflops > 0) c.emplace_back(r.fastest_gemm_gflops, r.fastest_gemm_source);
  return c;
}

std::pair<double, std::string> fastest(const PeakRecord& r) {
  std::pair<double, std::string> best{0, ""};
  for (const auto& c : one_core_candidates(r))
    if (std::isfinite(c.first) && c.first > best.first) best = c;
  return best;
}

}  // namespace

double one_core_peak_gflops(const PeakRecord& r) { return fastest(r).first; }

std::string one_core_peak_source(const PeakRecord& r) { return fastest(r).second; }

void derive_dgemm_fraction(PeakRecord& r) {
  const double peak = one_core_peak_gflops(r);
  r.dgemm_fraction = r.dgemm_n > 0 && peak > 0 ? r.dgemm_gflops / peak : 0;
}

void record_gemm_rate(PeakRecord& r, double gflops, const std::string& source) {
  if (!(gflops > r.fastest_gemm_gflops) || !std::isfinite(gflops)) return;
  r.fastest_gemm_gflops = gflops;
  r.fastest_gemm_source = source;
  derive_dgemm_fraction(r);
}

void record_busy_cores_rate(PeakRecord& r, int cores, double gflops_per_core) {
  if (cores < 2 || !(gflops_per_core > 0) || !std::isfinite(gflops_per_core)) return;
  // Held to the one-core peak: the ladder's entries are candidates for it,
  // named as the FMA loop's, and a GEMM's rate must not pass for that.
  gflops_per_core = std::min(gflops_per_core, one_core_peak_gflops(r));
  for (BusyCoresRecord& b : r.by_busy_cores)
    if (b.cores == cores) b.gflops_per_core = std::max(b.gflops_per_core, gflops_per_core);
  if (cores == r.cores && r.all_cores_gflops_per_core > 0)
    r.all_cores_gflops_per_core = std::max(r.all_cores_gflops_per_core, gflops_per_core);
}

double gemm_ceiling_gflops(const PeakRecord& r) {
  if (!(r.gemm_mix_l2_gflops > 0)) return 0;
  double c = r.gemm_mix_l2_gflops;
  if (r.dgemm_n > 0) c = std::max(c, r.dgemm_gflops);
  c = std::max(c, r.fastest_gemm_gflops);
  return std::min(c, one_core_peak_gflops(r));
}

double peak_gflops_per_core(const PeakRecord& r, int cores) {
  if (cores < 1) return 0;
  const double one_core = one_core_peak_gflops(r);
  if (cores == 1) return one_core;
  if (!r.by_busy_cores.empty() && one_core > 0) {
    int lo_cores = 1;
    double lo_rate = one_core;
    for (const BusyCoresRecord& b : r.by_busy_cores) {
      if (cores <= b.cores) {
        const double t = static_cast<double>(cores - lo_cores) / static_cast<double>(b.cores - lo_cores);
        return lo_rate + t * (b.gflops_per_core - lo_rate);
      }
      lo_cores = b.cores;
      lo_rate = b.gflops_per_core;
    }
    return lo_rate;
  }
  if (!(r.all_cores_gflops_per_core > 0)) return one_core;
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
  const auto ladder = [](const std::vector<BusyCoresRecord>& v) {
    json a = json::array();
    for (const BusyCoresRecord& b : v) a.push_back({{"cores", b.cores}, {"gflops_per_core", b.gflops_per_core}});
    return a;
  };
  json isas = json::array();
  for (const IsaPeakRecord& i : r.isas)
    isas.push_back({{"isa", i.isa},
                    {"flops_per_iteration", i.flops_per_iteration},
                    {"one_core_gflops", i.one_core_gflops},
                    {"all_cores_gflops_per_core", i.all_cores_gflops_per_core},
                    {"by_busy_cores", ladder(i.by_busy_cores)},
                    {"all_threads_gflops_per_thread", i.all_threads_gflops_per_thread},
                    {"gemm_mix_l1_gflops", i.gemm_mix_l1_gflops},
                    {"gemm_mix_l2_gflops", i.gemm_mix_l2_gflops}});
  profile["cpu_peak"] = {{"cpu_model", r.cpu_model},
                         {"vendor", r.vendor},
                         {"family", r.family},
                         {"model", r.model},
                         {"flags", r.flags},
                         {"cores", r.cores},
                         {"logical_cpus", r.logical_cpus},
                         {"isas", std::move(isas)},
                         {"one_core_gflops", r.one_core_gflops},
                         {"all_cores_gflops_per_core", r.all_cores_gflops_per_core},
                         {"by_busy_cores", ladder(r.by_busy_cores)},
                         {"all_threads_gflops_per_thread", r.all_threads_gflops_per_thread},
                         {"gemm_mix_l1_gflops", r.gemm_mix_l1_gflops},
                         {"gemm_mix_l2_gflops", r.gemm_mix_l2_gflops},
                         {"blas_core", r.blas_core},
                         {"blas_pin", r.blas_pin},
                         {"dgemm_n", r.dgemm_n},
                         {"dgemm_gflops", r.dgemm_gflops},
                         {"dgemm_fraction", r.dgemm_fraction},
                         {"fastest_gemm_gflops", r.fastest_gemm_gflops},
                         {"fastest_gemm_source", r.fastest_gemm_source}};
}

std::optional<PeakRecord> read_peak_record(const json& profile, const std::string& origin) {
  const auto group = profile.find("cpu_peak");
  if (group == profile.end()) return std::nullopt;
  const GroupReader r(origin);
  const json& g = *group;
  if (!g.is_object()) r.fail(std::string("field 'cpu_peak' must be an object, got ") + g.type_name());
  constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
  auto at = [](const char* key) { return std::string("cpu_peak.") + key; };
  // The busy-core ladder at `path` (absent in older profiles: empty):
  // ascending core counts >= 2 with positive rates.
  const auto read_ladder = [&r](const json& obj, const std::string& path) {
    std::vector<BusyCoresRecord> out;
    const auto it = obj.find("by_busy_cores");
    if (it == obj.end()) return out;
    if (!it->is_array()) r.fail("field '" + path + "' must be an array, got " + it->type_name());
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string at_i = path + "[" + std::to_string(i) + "]";
      if (!(*it)[i].is_object()) r.fail("field '" + at_i + "' must be an object, got " + (*it)[i].type_name());
      BusyCoresRecord b;
      b.cores = static_cast<int>(r.integer((*it)[i], at_i + ".cores", "cores", out.empty() ? 2 : out.back().cores + 1,
                                           std::numeric_limits<int>::max()));
      b.gflops_per_core = r.number((*it)[i], at_i + ".gflops_per_core", "gflops_per_core", true);
      out.push_back(b);
    }
    return out;
  };
  const auto optional_number = [&r](const json& obj, const std::string& path, const char* key) {
    return obj.contains(key) ? r.number(obj, path, key, false) : 0.0;
  };
  PeakRecord p;
  p.cpu_model = r.string(g, at("cpu_model"), "cpu_model");
  p.vendor = r.string(g, at("vendor"), "vendor");
  p.family = static_cast<int>(r.integer(g, at("family"), "family", -1, kIntMax));
  p.model = static_cast<int>(r.integer(g, at("model"), "model", -1, kIntMax));
  p.flags = r.string(g, at("flags"), "flags");
  p.cores = static_cast<int>(r.integer(g, at("cores"), "cores", 0, kIntMax));
  p.logical_cpus =
      g.contains("logical_cpus") ? static_cast<int>(r.integer(g, at("logical_cpus"), "logical_cpus", 0, kIntMax)) : 0;
  const json& isas = r.field(g, at("isas"), "isas");
  if (!isas.is_array()) r.fail(std::string("field 'cpu_peak.isas' must be an array, got ") + isas.type_name());
  for (std::size_t i = 0; i < isas.size(); ++i) {
    const std::string path = "cpu_peak.isas[" + std::to_string(i) + "]";
    if (!isas[i].is_object()) r.fail("field '" + path + "' must be an object, got " + isas[i].type_name());
    IsaPeakRecord ip;
    ip.isa = r.string(isas[i], path + ".isa", "isa");
    ip.flops_per_iteration = r.integer(isas[i], path + ".flops_per_iteration", "flops_per_iteration", 1,
                                       std::numeric_limits<std::int64_t>::max());
    ip.one_core_gflops = r.number(isas[i], path + ".one_core_gflops", "one_core_gflops", true);
    ip.all_cores_gflops_per_core =
        r.number(isas[i], path + ".all_cores_gflops_per_core", "all_cores_gflops_per_core", false);
    ip.by_busy_cores = read_ladder(isas[i], path + ".by_busy_cores");
    ip.all_threads_gflops_per_thread =
        optional_number(isas[i], path + ".all_threads_gflops_per_thread", "all_threads_gflops_per_thread");
    ip.gemm_mix_l1_gflops = optional_number(isas[i], path + ".gemm_mix_l1_gflops", "gemm_mix_l1_gflops");
    ip.gemm_mix_l2_gflops = optional_number(isas[i], path + ".gemm_mix_l2_gflops", "gemm_mix_l2_gflops");
    p.isas.push_back(ip);
  }
  p.one_core_gflops = r.number(g, at("one_core_gflops"), "one_core_gflops", false);
  p.all_cores_gflops_per_core = r.number(g, at("all_cores_gflops_per_core"), "all_cores_gflops_per_core", false);
  p.by_busy_cores = read_ladder(g, at("by_busy_cores"));
  p.all_threads_gflops_per_thread =
      optional_number(g, at("all_threads_gflops_per_thread"), "all_threads_gflops_per_thread");
  p.gemm_mix_l1_gflops = optional_number(g, at("gemm_mix_l1_gflops"), "gemm_mix_l1_gflops");
  p.gemm_mix_l2_gflops = optional_number(g, at("gemm_mix_l2_gflops"), "gemm_mix_l2_gflops");
  p.blas_core = r.string(g, at("blas_core"), "blas_core");
  p.blas_pin = r.string(g, at("blas_pin"), "blas_pin");
  p.dgemm_n = r.integer(g, at("dgemm_n"), "dgemm_n", 0, std::numeric_limits<std::int64_t>::max());
  p.dgemm_gflops = r.number(g, at("dgemm_gflops"), "dgemm_gflops", false);
  p.dgemm_fraction = r.number(g, at("dgemm_fraction"), "dgemm_fraction", false);
  if (p.dgemm_n > 0) {  // measured: both values must be usable
    r.number(g, at("dgemm_gflops"), "dgemm_gflops", true);
    r.number(g, at("dgemm_fraction"), "dgemm_fraction", true);
  }
  p.fastest_gemm_gflops = optional_number(g, at("fastest_gemm_gflops"), "fastest_gemm_gflops");
  if (g.contains("fastest_gemm_source"))
    p.fastest_gemm_source = r.string(g, at("fastest_gemm_source"), "fastest_gemm_source");
  // Older profiles divided by the FMA loop alone: against the peak as it is
  // defined now.
  derive_dgemm_fraction(p);
  return p;
}

}  // namespace mmbench::profile
