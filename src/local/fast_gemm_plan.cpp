// The shape of a FastGemm multiply: level rule, workspace, operation count;
// see fast_gemm_plan.hpp.
#include "local/fast_gemm_plan.hpp"

#include "local/packed_gemm.hpp"

namespace mmbench::local {

bool local_level_applies(std::int64_t m, std::int64_t n, std::int64_t k, int levels, std::int64_t min_dim) {
  return levels > 0 && std::min({m, n, k}) >= std::max<std::int64_t>(min_dim, 2);
}

namespace fast_gemm_detail {

namespace {

// Sequential workspace each thread needs at a parallel top level.
i64 per_thread_workspace(i64 mh, i64 nh, i64 kh, const FastGemmConfig& cfg) {
  i64 most = 0;
  for (int t = 0; t < cfg.threads; ++t)
    for_each_part(t, cfg.threads, nh, [&](const ProductPart& part) {
      most = std::max(most, sequential_workspace(mh, part.cols, kh, cfg.levels - 1, cfg));
    });
  return most;
}

}  // namespace

i64 sequential_workspace(i64 m, i64 n, i64 k, int levels, const FastGemmConfig& cfg) {
  i64 total = 0;
  while (level_applies(m, n, k, levels, cfg)) {
    const i64 mh = m / 2, nh = n / 2, kh = k / 2;
    const i64 ldm = temp_ld(mh), ldk = temp_ld(kh);
    if (packed_level(mh, nh, kh, levels, cfg)) {
      // none: operand sums are formed while packing, products land in C
    } else if (fused_level(mh, nh, kh, levels, cfg)) {
      total += 4 * aligned(ldm * std::max(kh, nh)) + 4 * aligned(ldk * nh);
    } else if (cfg.variant == FastVariant::winograd) {
      total += aligned(ldm * std::max(kh, nh)) + aligned(ldk * nh);
      if (accumulate_level(mh, nh, kh, levels, cfg)) total += aligned(ldm * nh);
    } else {
      total += aligned(ldm * kh) + aligned(ldk * nh) + aligned(ldm * nh);
    }
    m = mh, n = nh, k = kh;
    --levels;
  }
  return total;
}

ParallelLayout parallel_layout(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  ParallelLayout l{};
  const bool w = cfg.variant == FastVariant::winograd;
  l.a_sums = w ? 4 : 5;
  l.b_sums = w ? 4 : 5;
  l.products = 3;
  l.a_size = aligned(temp_ld(mh) * kh);
  l.b_size = aligned(temp_ld(kh) * nh);
  l.c_size = aligned(temp_ld(mh) * nh);
  l.per_thread = per_thread_workspace(mh, nh, kh, cfg);
  return l;
}

i64 pack_area(const FastGemmConfig& cfg) {
  return cfg.leaf == LeafGemm::packed
             ? aligned(static_cast<i64>(packed_workspace_doubles(packed_isa(), cfg.packed_blocking)))
             : 0;
}

i64 workspace_doubles(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  const i64 packing = threads_pack(cfg);
  if (!parallel_top(m, n, k, cfg)) return packing + sequential_workspace(m, n, k, cfg.levels, cfg);
  const ParallelLayout l = parallel_layout(m, n, k, cfg);
  return packing + l.temporaries() + cfg.threads * l.per_thread;
}

double addition_flops(i64 mh, i64 nh, i64 kh, FastVariant v) {
  const double a = static_cast<double>(mh) * kh, b = static_cast<double>(kh) * nh,
               c = static_cast<double>(mh) * nh;
  return v == FastVariant::winograd ? 4 * a + 4 * b + 7 * c : 5 * a + 5 * b + 8 * c;
}

double peel_flops(i64 m, i64 n, i64 k) {
  const i64 me = m & ~i64{1}, ne = n & ~i64{1}, ke = k & ~i64{1};
  double f = 0;
  if (k > ke) f += 2.0 * me * ne;
  if (n > ne) f += 2.0 * me * k;
  if (m > me) f += 2.0 * k * n;
  return f;
}

double sequential_flops(i64 m, i64 n, i64 k, int levels, const FastGemmConfig& cfg) {
  if (!level_applies(m, n, k, levels, cfg)) return 2.0 * m * n * k;
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  // A packed level computes classic Strassen's sums (while packing).
  const FastVariant v = packed_level(mh, nh, kh, levels, cfg) ? FastVariant::strassen : cfg.variant;
  return 7 * sequential_flops(mh, nh, kh, levels - 1, cfg) + addition_flops(mh, nh, kh, v) + peel_flops(m, n, k);
}

}  // namespace fast_gemm_detail
}  // namespace mmbench::local
