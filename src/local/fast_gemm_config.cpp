// The names of FastGemm's settings, as the command line spells them
// (--local-variant, --local-gemm, --local-fusion); see fast_gemm.hpp.
#include <stdexcept>
#include <string>

#include "local/fast_gemm.hpp"

namespace mmbench::local {

FastVariant parse_fast_variant(std::string_view name) {
  if (name == "winograd") return FastVariant::winograd;
  if (name == "strassen") return FastVariant::strassen;
  throw std::invalid_argument("unknown fast-gemm variant '" + std::string(name) +
                              "' (allowed: winograd, strassen)");
}

std::string_view to_string(FastVariant variant) {
  return variant == FastVariant::winograd ? "winograd" : "strassen";
}

LeafGemm parse_leaf_gemm(std::string_view name) {
  if (name == "blas") return LeafGemm::blas;
  if (name == "packed") return LeafGemm::packed;
  throw std::invalid_argument("unknown local gemm '" + std::string(name) + "' (allowed: blas, packed)");
}

std::string_view to_string(LeafGemm leaf) { return leaf == LeafGemm::blas ? "blas" : "packed"; }

FastGemmConfig::Fusion parse_fusion(std::string_view name) {
  using F = FastGemmConfig::Fusion;
  if (name == "none") return F::none;
  if (name == "deepest") return F::deepest;
  if (name == "all") return F::all;
  throw std::invalid_argument("unknown fusion schedule '" + std::string(name) + "' (allowed: none, deepest, all)");
}

std::string_view to_string(FastGemmConfig::Fusion fusion) {
  using F = FastGemmConfig::Fusion;
  return fusion == F::none ? "none" : fusion == F::deepest ? "deepest" : "all";
}

}  // namespace mmbench::local
