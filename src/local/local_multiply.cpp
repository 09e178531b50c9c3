#include "local/local_multiply.hpp"

#include <cstdio>
#include <stdexcept>

#include "core/machine/blas.hpp"

namespace mmbench::local {

namespace {
FastGemmConfig config_for(const LocalKernelSpec& spec, int threads) {
  FastGemmConfig c;
  c.leaf = spec.gemm;
  c.packed_blocking = spec.packed_blocking;
  if (spec.min_dim > 0) c.min_dim = spec.min_dim;
  c.levels = spec.levels;
  c.variant = spec.variant;
  c.fusion = spec.fusion;
  c.streaming_stores = spec.streaming_stores;
  c.threads = threads;
#ifdef MMBENCH_SMPI
  c.threads = 1;  // simulated ranks must not start threads of their own
#endif
  return c;
}
}  // namespace

LocalMultiply::LocalMultiply(const LocalKernelSpec& spec, int threads) : fast_(config_for(spec, threads)) {}

Index LocalMultiply::workspace_doubles_needed(Index m, Index n, Index k, const LocalKernelSpec& spec, int threads) {
  if (m == 0 || n == 0 || k == 0) return 0;
  try {
    const FastGemmConfig c = config_for(spec, threads);
    return static_cast<Index>(FastGemm::workspace_bytes_needed(m, n, k, c) / sizeof(double));
  } catch (const std::invalid_argument&) {
    return 0;  // a bad setting is reported by the plan, not by an estimate
  }
}

void LocalMultiply::operator()(Index m, Index n, Index k, const double* A, Index lda, const double* B, Index ldb,
                               double* C, Index ldc) {
  if (fast_.config().levels == 0 && fast_.config().leaf == LeafGemm::blas) {
    dgemm(m, n, k, A, lda, B, ldb, 0.0, C, ldc);
    return;
  }
  fast_.multiply(m, n, k, A, lda, B, ldb, C, ldc);
}

// The levels the kernel really did (a level needs every dimension >= the
// cut-off): with `auto` the configured cap (4) is rarely reached, and the
// limit should grow only with what ran. Called after the multiplies.
double LocalMultiply::error_growth() const {
  return fast_gemm_error_growth(fast_.deepest_levels(), fast_.config().variant);
}

std::vector<std::string> LocalMultiply::columns() {
  return {"local_gemm",   "packed_isa",      "packed_blocking",          "local_levels_applied",  "local_variant",
          "local_cutoff", "local_add_share", "local_add_share_by_level", "local_passes_by_level", "local_fusion",
          "local_stores"};
}

std::map<std::string, std::string> LocalMultiply::describe() const {
  std::map<std::string, std::string> d{{"local_levels_applied", std::to_string(fast_.deepest_levels())},
                                       {"local_gemm", std::string(to_string(fast_.config().leaf))}};
  if (fast_.config().leaf == LeafGemm::packed) {
    // The constructor resolved the blocking, so packed_isa() has answered.
    d["packed_isa"] = std::string(to_string(packed_isa()));
    d["packed_blocking"] = to_string(fast_.config().packed_blocking);
  }
  if (fast_.config().levels > 0) {
    d["local_variant"] = std::string(to_string(fast_.config().variant));
    d["local_cutoff"] = std::to_string(fast_.config().min_dim);
    d["local_fusion"] = std::string(to_string(fast_.config().fusion));
    d["local_stores"] = fast_.config().streaming_stores ? "streaming" : "cached";
  }
  // Where the kernel's time went (FastGemmAccount), once a level was done:
  // the share of addition passes in all (and per level, top first), and the
  // passes per multiply per level, e.g. "11;77;441" for three Winograd
  // levels (11 at the top, 7·11 below it, 49·9 at the deepest level).
  const FastGemmAccount& a = fast_.account();
  const int levels = fast_.deepest_levels();
  const double total = a.leaf_seconds + a.fixup_seconds + a.total_add_seconds();
  if (levels > 0 && a.calls > 0 && total > 0) {
    auto fmt = [](double v) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4f", v);
      return std::string(buf);
    };
    std::string shares, passes;
    for (int l = 1; l <= levels; ++l) {
      if (l > 1) shares += ';', passes += ';';
      shares += fmt(a.add_seconds[l] / total);
      passes += std::to_string(a.passes[l] / a.calls);
    }
    d["local_add_share"] = fmt(a.total_add_seconds() / total);
    d["local_add_share_by_level"] = shares;
    d["local_passes_by_level"] = passes;
  }
  return d;
}

}  // namespace mmbench::local
