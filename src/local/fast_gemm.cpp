// FastGemm: argument checks, the workspace, and the entry of a multiply;
// see fast_gemm.hpp. The kernel is spread over files by concern:
//   fast_gemm_plan        which level runs which schedule, workspace layout
//                         and size, operation count (no computation)
//   fast_gemm_schedules   the schedules of one level, one file each
//                         (fast_gemm_winograd_*.cpp, fast_gemm_strassen.cpp,
//                         fast_gemm_packed_strassen.cpp)
//   fast_gemm_recursion   the sequential recursion, its leaves, odd sizes
//   fast_gemm_parallel    the parallel top level
//   fast_gemm_account     where the time goes (FastGemmAccount)
//   fast_gemm_config      the settings' names
//   fast_gemm_passes      the element-wise passes the schedules call
// Why the schedules are what they are (the addition passes are memory-bound
// and carry what the levels can still win) and the figures measured on the
// project's machine: docs/method.md §4, "Where the time goes".
#include "local/fast_gemm.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <new>
#include <stdexcept>
#include <string>

#include "core/matrix/large_buffer.hpp"
#include "core/simulation.hpp"

#include "local/fast_gemm_schedules.hpp"
#include "local/packed_gemm.hpp"

namespace mmbench::local {

using namespace fast_gemm_detail;

namespace {

constexpr std::size_t kAlignBytes = 64;

void check_dim(const char* name, i64 v) {
  if (v < 0 || v > INT_MAX)
    throw std::invalid_argument(std::string("FastGemm::multiply: ") + name + " = " +
                                std::to_string(v) + " out of range (allowed 0.." +
                                std::to_string(INT_MAX) + ")");
}

void check_ld(const char* name, i64 ld, i64 rows) {
  const i64 low = std::max<i64>(1, rows);
  if (ld < low || ld > INT_MAX)
    throw std::invalid_argument(std::string("FastGemm::multiply: ") + name + " = " +
                                std::to_string(ld) + " out of range (allowed " +
                                std::to_string(low) + ".." + std::to_string(INT_MAX) + ")");
}

void check_flops_shape(i64 m, i64 n, i64 k) {
  if (m < 0 || n < 0 || k < 0)
    throw std::invalid_argument("FastGemm: negative shape " + std::to_string(m) + "x" +
                                std::to_string(n) + "x" + std::to_string(k) +
                                " (m, n, k must be >= 0)");
}

FastGemmConfig validated(FastGemmConfig cfg) {
  if (cfg.levels < 0 || cfg.levels > kMaxLevels)
    throw std::invalid_argument("FastGemm: levels = " + std::to_string(cfg.levels) +
                                " out of range (allowed 0.." + std::to_string(kMaxLevels) + ")");
  if (cfg.min_dim < 1)
    throw std::invalid_argument("FastGemm: min_dim = " + std::to_string(cfg.min_dim) +
                                " out of range (allowed >= 1)");
  if (cfg.threads < 1)
    throw std::invalid_argument("FastGemm: threads = " + std::to_string(cfg.threads) +
                                " out of range (allowed >= 1)");
  if (cfg.variant != FastVariant::winograd && cfg.variant != FastVariant::strassen)
    throw std::invalid_argument("FastGemm: unknown variant value " +
                                std::to_string(static_cast<int>(cfg.variant)));
  if (cfg.leaf != LeafGemm::blas && cfg.leaf != LeafGemm::packed)
    throw std::invalid_argument("FastGemm: unknown leaf value " + std::to_string(static_cast<int>(cfg.leaf)));
  using F = FastGemmConfig::Fusion;
  if (cfg.fusion != F::none && cfg.fusion != F::deepest && cfg.fusion != F::all)
    throw std::invalid_argument("FastGemm: unknown fusion value " +
                                std::to_string(static_cast<int>(cfg.fusion)));
  return cfg;
}


// The packed GEMM's blocking with the running kernel's defaults filled in
// (checked: std::invalid_argument for one that kernel cannot take).
FastGemmConfig with_resolved_blocking(FastGemmConfig cfg) {
  if (cfg.leaf == LeafGemm::packed) cfg.packed_blocking = resolve_packed_blocking(cfg.packed_blocking, packed_isa());
  return cfg;
}

}  // namespace

void FastGemm::WorkspaceDelete::operator()(double* p) const { free_large(p, bytes, kAlignBytes); }
FastGemm::FastGemm(FastGemmConfig cfg) : cfg_(with_resolved_blocking(validated(cfg))) {}

void FastGemm::reserve(std::size_t doubles) {
  if (doubles <= capacity_) return;
  workspace_.reset();  // free first: the old buffer is not needed and may be large
  capacity_ = 0;
  // The large-buffer path: counted with the matrices, and shared between
  // simulated ranks in a charged simulation (core/matrix/large_buffer.hpp).
  const std::size_t bytes = doubles * sizeof(double);
  workspace_ = std::unique_ptr<double[], WorkspaceDelete>(static_cast<double*>(allocate_large(bytes, kAlignBytes)),
                                                          WorkspaceDelete(bytes));
  // Touch every page now: otherwise the first multiply's addition passes pay
  // the page faults of a fresh buffer (hundreds of MB at n = 8192) and the
  // account books them as additions. A charged simulation reads none of it
  // (its leaves and passes are charged), so it touches nothing.
  if (!sim::charged()) std::fill_n(workspace_.get(), doubles, 0.0);
  capacity_ = doubles;
  ++allocations_;
}

void FastGemm::prepare(i64 m, i64 n, i64 k) {
  if (m <= 0 || n <= 0 || k <= 0) return;
  reserve(static_cast<std::size_t>(workspace_doubles(m, n, k, cfg_)));
}

std::size_t FastGemm::workspace_bytes_needed(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  check_flops_shape(m, n, k);
  const FastGemmConfig c = with_resolved_blocking(validated(cfg));
  return static_cast<std::size_t>(workspace_doubles(m, n, k, c)) * sizeof(double);
}

void FastGemm::multiply(i64 m, i64 n, i64 k, const double* A, i64 lda, const double* B, i64 ldb,
                        double* C, i64 ldc) {
  check_dim("m", m);
  check_dim("n", n);
  check_dim("k", k);
  check_ld("lda", lda, m);
  check_ld("ldb", ldb, k);
  check_ld("ldc", ldc, m);
  if (m == 0 || n == 0) return;
  if (C == nullptr || (k > 0 && (A == nullptr || B == nullptr)))
    throw std::invalid_argument("FastGemm::multiply: null matrix pointer");
  if (k == 0) {  // DGEMM semantics: C = 0·C with beta = 0
    for (i64 j = 0; j < n; ++j) std::fill_n(C + j * ldc, m, 0.0);
    return;
  }
  reserve(static_cast<std::size_t>(workspace_doubles(m, n, k, cfg_)));
  deepest_ = std::max(deepest_, levels_applied(m, n, k, cfg_));
  const ConstBlock a{A, lda}, b{B, ldb};
  const Block c{C, ldc};
  ++account_.calls;
  double* const ws = workspace_.get();
  Ctx ctx{cfg_, account_, ws};
  if (parallel_top(m, n, k, cfg_))
    multiply_parallel_top(ctx, m, n, k, a, b, c, ws);
  else if (cfg_.leaf == LeafGemm::packed && cfg_.threads > 1 && !level_applies(m, n, k, cfg_.levels, cfg_))
    packed_gemm_threads(ctx, m, n, k, a, b, c, ws);
  else
    multiply_sequential(ctx, m, n, k, a, b, c, cfg_.levels, ws + threads_pack(cfg_), 1);
}

int FastGemm::levels_applied(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  int done = 0;
  for (int left = cfg.levels; level_applies(m, n, k, left, cfg); --left, ++done) m /= 2, n /= 2, k /= 2;
  return done;
}

double FastGemm::flops(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  check_flops_shape(m, n, k);
  const FastGemmConfig c = validated(cfg);
  if (!parallel_top(m, n, k, c)) return sequential_flops(m, n, k, c.levels, c);
  // The parallel top level slices some products by columns, and a slice
  // recurses on a narrower shape, so count exactly what the threads do.
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  double f = addition_flops(mh, nh, kh, c.variant) + peel_flops(m, n, k);
  for (int t = 0; t < c.threads; ++t)
    for_each_part(t, c.threads, nh, [&](const ProductPart& part) {
      f += sequential_flops(mh, part.cols, kh, c.levels - 1, c);
    });
  return f;
}

// Error growth. Higham (Accuracy and Stability of Numerical Algorithms, 2nd
// ed., sec. 23.2) bounds the max-norm error of L levels on n = 2^L·n0 as
//   classic Strassen: ((n/n0)^log2(12) · (n0² + 5·n0) − 5n) · u · ‖A‖‖B‖,
//   Winograd:         ((n/n0)^log2(18) · (n0² + 6·n0) − 6n) · u · ‖A‖‖B‖,
// against n²·u·‖A‖‖B‖ for the conventional product at n = n0 (L = 0). With
// (n/n0)^log2(g) = g^L, each level multiplies the bound by 12 (Strassen) or
// 18 (Winograd) relative to the leaf DGEMM's. Measured relative to the
// conventional bound at the *same* n the growth is only (g/4)^L (3 and 4.5
// per level), since the leaves are 4^L times smaller in n0². We use the larger
// 12^L / 18^L: a threshold should not fail a correct result, and it still
// leaves the ~1e-16 relative errors of a correct product 10+ orders of
// magnitude below the O(1) error of a wrong formula for any practical L (18^5
// ≈ 1.9e6). Winograd's constant is larger because its operands are sums of
// sums (S2 = S1 − A11, S4 = A12 − S2, likewise T2 and T4) and its result
// terms reuse partial sums (U2, U3).
double fast_gemm_error_growth(int levels, FastVariant variant) {
  if (levels < 0 || levels > kMaxLevels)
    throw std::invalid_argument("fast_gemm_error_growth: levels = " + std::to_string(levels) +
                                " out of range (allowed 0.." + std::to_string(kMaxLevels) + ")");
  const double per_level = variant == FastVariant::winograd ? 18.0 : 12.0;
  return std::pow(per_level, levels);
}

}  // namespace mmbench::local
