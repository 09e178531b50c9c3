#include "tuner/packed_tune_record.hpp"

#include <cmath>
#include <stdexcept>

#include "tuner/machine_profile.hpp"

namespace mmbench::tuner {

local::LeafGemm packed_leaf_choice(double packed_mflops, double blas_mflops) {
  return packed_mflops > blas_mflops ? local::LeafGemm::packed : local::LeafGemm::blas;
}

local::PackedBlocking recorded_blocking(const PackedTuneRecord& record, local::PackedIsa isa) {
  if (!record.measured || record.isa != isa) return {};
  return record.best;
}

namespace {

nlohmann::ordered_json blocking_json(const local::PackedBlocking& b) {
  return {{"mc", b.mc}, {"kc", b.kc}, {"nc", b.nc}};
}

local::PackedIsa parse_isa(const std::string& name, const std::string& origin) {
  for (local::PackedIsa isa : {local::PackedIsa::avx512, local::PackedIsa::avx2, local::PackedIsa::portable})
    if (name == local::to_string(isa)) return isa;
  throw ProfileError(origin, "field 'packed_gemm.isa' = '" + name + "' is not a kernel (avx512, avx2, portable)");
}

double positive_rate(const nlohmann::ordered_json& j, const char* key, const std::string& at,
                     const std::string& origin) {
  const double v = j.at(key).get<double>();
  if (!(std::isfinite(v) && v > 0))
    throw ProfileError(origin, "field '" + at + "." + key + "' must be a positive number, got " + std::to_string(v));
  return v;
}

local::PackedBlocking blocking_of(const nlohmann::ordered_json& j, local::PackedIsa isa, const std::string& at,
                                  const std::string& origin) {
  const local::PackedBlocking b{j.at("mc").get<std::int64_t>(), j.at("kc").get<std::int64_t>(),
                                j.at("nc").get<std::int64_t>()};
  // Zeros would mean "defaults" to the kernel; a record holds what ran.
  std::string problem = b.mc > 0 && b.kc > 0 && b.nc > 0 ? local::packed_blocking_problem(b, isa)
                                                         : "every block size must be > 0";
  if (!problem.empty()) throw ProfileError(origin, "field '" + at + "' = " + local::to_string(b) + ": " + problem);
  return b;
}

}  // namespace

nlohmann::ordered_json packed_tune_to_json(const PackedTuneRecord& r) {
  nlohmann::ordered_json cands = nlohmann::ordered_json::array();
  for (const PackedCandidate& c : r.candidates) {
    nlohmann::ordered_json e = blocking_json(c.blocking);
    e["mflops_median"] = c.mflops_median;
    cands.push_back(e);
  }
  return {{"isa", std::string(local::to_string(r.isa))},
          {"n", r.n},
          {"rounds", r.rounds},
          {"best", blocking_json(r.best)},
          {"packed_mflops", r.packed_mflops},
          {"blas_mflops", r.blas_mflops},
          {"leaf", std::string(local::to_string(r.leaf))},
          {"candidates", cands}};
}

PackedTuneRecord packed_tune_from_json(const nlohmann::ordered_json& j, const std::string& origin) {
  PackedTuneRecord r;
  try {
    r.measured = true;
    r.isa = parse_isa(j.at("isa").get<std::string>(), origin);
    r.n = j.at("n").get<std::int64_t>();
    r.rounds = j.at("rounds").get<int>();
    if (r.n < 1 || r.rounds < 1)
      throw ProfileError(origin, "field 'packed_gemm.n' and 'packed_gemm.rounds' must be >= 1, got " +
                                     std::to_string(r.n) + " and " + std::to_string(r.rounds));
    r.best = blocking_of(j.at("best"), r.isa, "packed_gemm.best", origin);
    r.packed_mflops = positive_rate(j, "packed_mflops", "packed_gemm", origin);
    r.blas_mflops = positive_rate(j, "blas_mflops", "packed_gemm", origin);
    const std::string leaf = j.at("leaf").get<std::string>();
    try {
      r.leaf = local::parse_leaf_gemm(leaf);
    } catch (const std::invalid_argument&) {
      throw ProfileError(origin, "field 'packed_gemm.leaf' = '" + leaf + "' is not blas or packed");
    }
    const auto& cands = j.at("candidates");
    if (!cands.is_array() || cands.empty())
      throw ProfileError(origin, "field 'packed_gemm.candidates' must be a non-empty array");
    for (std::size_t i = 0; i < cands.size(); ++i) {
      const std::string at = "packed_gemm.candidates[" + std::to_string(i) + "]";
      r.candidates.push_back({blocking_of(cands[i], r.isa, at, origin),
                              positive_rate(cands[i], "mflops_median", at, origin)});
    }
  } catch (const nlohmann::json::exception& e) {
    throw ProfileError(origin, std::string("field 'packed_gemm' is malformed: ") + e.what());
  }
  return r;
}

}  // namespace mmbench::tuner
