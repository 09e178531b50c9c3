#include "profile/packed_tune_record.hpp"

#include <cmath>
#include <stdexcept>

#include "core/stats/paired_stats.hpp"
#include "profile/group_reader.hpp"

namespace mmbench::profile {

PackedSpeedup paired_speedup(const std::vector<double>& t_packed, const std::vector<double>& t_blas) {
  if (t_packed.empty() || t_packed.size() != t_blas.size())
    throw std::invalid_argument("paired_speedup: " + std::to_string(t_packed.size()) + " packed and " +
                                std::to_string(t_blas.size()) + " DGEMM times; needs as many, at least one");
  std::vector<double> ratios;
  for (std::size_t r = 0; r < t_packed.size(); ++r) ratios.push_back(t_blas[r] / t_packed[r]);
  const MedianInterval m = median_interval(ratios);
  return {m.median, m.lo, m.hi, m.coverage};
}

local::LeafGemm packed_leaf_choice(const PackedSpeedup& speedup) {
  return speedup.lo > 1.0 ? local::LeafGemm::packed : local::LeafGemm::blas;
}

const PackedSpeedup& deciding_speedup(const PackedTuneRecord& record) {
  return record.level.measured() ? record.level.over_blas_level : record.speedup;
}

local::PackedBlocking recorded_blocking(const PackedTuneRecord& record, local::PackedIsa isa) {
  if (!record.measured || record.isa != isa) return {};
  return record.best;
}

namespace {

nlohmann::ordered_json speedup_json(const PackedSpeedup& s) {
  return {{"median", s.median}, {"lo", s.lo}, {"hi", s.hi}, {"coverage", s.coverage}};
}

// `at`: the field's path for messages, e.g. "packed_gemm.speedup".
PackedSpeedup speedup_of(const GroupReader& g, const nlohmann::ordered_json& sp, const std::string& at) {
  const PackedSpeedup s{g.number(sp, at + ".median", "median", true), g.number(sp, at + ".lo", "lo", true),
                        g.number(sp, at + ".hi", "hi", true), g.number(sp, at + ".coverage", "coverage", false)};
  if (!(s.lo <= s.median && s.median <= s.hi) || s.coverage > 1)
    g.fail("field '" + at + "' must hold lo <= median <= hi and coverage <= 1, got " + sp.dump());
  return s;
}

nlohmann::ordered_json blocking_json(const local::PackedBlocking& b) {
  return {{"mc", b.mc}, {"kc", b.kc}, {"nc", b.nc}};
}

local::PackedIsa parse_isa(const GroupReader& g, const std::string& name) {
  for (local::PackedIsa isa : {local::PackedIsa::avx512, local::PackedIsa::avx2, local::PackedIsa::portable})
    if (name == local::to_string(isa)) return isa;
  g.fail("field 'packed_gemm.isa' = '" + name + "' is not a kernel (avx512, avx2, portable)");
}

local::PackedBlocking blocking_of(const GroupReader& g, const nlohmann::ordered_json& j, local::PackedIsa isa,
                                  const std::string& at) {
  if (!j.is_object()) g.fail("field '" + at + "' must be an object, got " + j.type_name());
  constexpr std::int64_t kHuge = std::int64_t{1} << 40;
  const local::PackedBlocking b{g.integer(j, at + ".mc", "mc", 1, kHuge), g.integer(j, at + ".kc", "kc", 1, kHuge),
                                g.integer(j, at + ".nc", "nc", 1, kHuge)};
  // A record holds what ran: block sizes this kernel takes.
  const std::string problem = local::packed_blocking_problem(b, isa);
  if (!problem.empty()) g.fail("field '" + at + "' = " + local::to_string(b) + ": " + problem);
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
  nlohmann::ordered_json out = {{"isa", std::string(local::to_string(r.isa))},
                                {"n", r.n},
                                {"rounds", r.rounds},
                                {"best", blocking_json(r.best)},
                                {"packed_mflops", r.packed_mflops},
                                {"blas_mflops", r.blas_mflops}};
  if (r.speedup.measured()) out["speedup"] = speedup_json(r.speedup);
  if (r.level.measured())
    out["level"] = {{"n", r.level.n},
                    {"rounds", r.level.rounds},
                    {"speedup", speedup_json(r.level.over_blas_level)},
                    {"packed_vs_dgemm", r.level.packed_vs_dgemm},
                    {"blas_vs_dgemm", r.level.blas_vs_dgemm}};
  out["leaf"] = std::string(local::to_string(r.leaf));
  out["candidates"] = cands;
  return out;
}

PackedTuneRecord packed_tune_from_json(const nlohmann::ordered_json& j, const std::string& origin) {
  const GroupReader g(origin);
  if (!j.is_object()) g.fail(std::string("field 'packed_gemm' must be an object, got ") + j.type_name());
  PackedTuneRecord r;
  r.measured = true;
  r.isa = parse_isa(g, g.string(j, "packed_gemm.isa", "isa"));
  r.n = g.integer(j, "packed_gemm.n", "n", 1, std::int64_t{1} << 40);
  r.rounds = static_cast<int>(g.integer(j, "packed_gemm.rounds", "rounds", 1, 1 << 20));
  r.best = blocking_of(g, g.object(j, "packed_gemm.best", "best"), r.isa, "packed_gemm.best");
  r.packed_mflops = g.number(j, "packed_gemm.packed_mflops", "packed_mflops", true);
  r.blas_mflops = g.number(j, "packed_gemm.blas_mflops", "blas_mflops", true);
  if (j.contains("speedup"))
    r.speedup = speedup_of(g, g.object(j, "packed_gemm.speedup", "speedup"), "packed_gemm.speedup");
  if (j.contains("level")) {
    const auto& lv = g.object(j, "packed_gemm.level", "level");
    r.level.n = g.integer(lv, "packed_gemm.level.n", "n", 2, std::int64_t{1} << 40);
    r.level.rounds = static_cast<int>(g.integer(lv, "packed_gemm.level.rounds", "rounds", 1, 1 << 20));
    r.level.over_blas_level =
        speedup_of(g, g.object(lv, "packed_gemm.level.speedup", "speedup"), "packed_gemm.level.speedup");
    r.level.packed_vs_dgemm = g.number(lv, "packed_gemm.level.packed_vs_dgemm", "packed_vs_dgemm", true);
    r.level.blas_vs_dgemm = g.number(lv, "packed_gemm.level.blas_vs_dgemm", "blas_vs_dgemm", true);
  }
  const std::string leaf = g.string(j, "packed_gemm.leaf", "leaf");
  try {
    r.leaf = local::parse_leaf_gemm(leaf);
  } catch (const std::invalid_argument&) {
    g.fail("field 'packed_gemm.leaf' = '" + leaf + "' is not blas or packed");
  }
  const auto& cands = g.field(j, "packed_gemm.candidates", "candidates");
  if (!cands.is_array() || cands.empty()) g.fail("field 'packed_gemm.candidates' must be a non-empty array");
  for (std::size_t i = 0; i < cands.size(); ++i) {
    const std::string at = "packed_gemm.candidates[" + std::to_string(i) + "]";
    r.candidates.push_back(
        {blocking_of(g, cands[i], r.isa, at), g.number(cands[i], at + ".mflops_median", "mflops_median", true)});
  }
  return r;
}

}  // namespace mmbench::profile
