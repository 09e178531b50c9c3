// The sequential recursion of FastGemm: at each level the schedule the plan
// chooses (fast_gemm_plan.hpp, fast_gemm_schedules.hpp), at the bottom one
// DGEMM or packed GEMM, and the border of odd sizes.
//
// Odd sizes: dynamic peeling, not padding. A level multiplies the even part
// A[0:2mh, 0:2kh]·B[0:2kh, 0:2nh] into C[0:2mh, 0:2nh] and then fixes up with
// BLAS-2 calls (O(mn + mk + nk) work, no copies):
//   k odd: C[0:2mh, 0:2nh] += A[0:2mh, k-1] · B[k-1, 0:2nh]   (DGER, rank 1)
//   n odd: C[0:2mh, n-1]    = A[0:2mh, :]   · B[:, n-1]        (DGEMV)
//   m odd: C[m-1, :]        = A[m-1, :]     · B                (DGEMV, transposed)
// Example m = 5, n = 3, k = 7: the level works on 4×2×6 (quadrants 2×1×3);
// DGER adds A[0:4, 6]·B[6, 0:2], DGEMV fills column 2 rows 0..3, and the
// transposed DGEMV fills row 4 (all three columns). Padding would copy A, B
// and C into larger buffers on every call and multiply zeros; peeling touches
// only the thin border and works on the caller's storage directly. Each level
// peels again, so any shape reaches the recursion.
#include "local/fast_gemm_schedules.hpp"

#include <cblas.h>

#include <stdexcept>

#include "local/packed_gemm.hpp"

namespace mmbench::local::fast_gemm_detail {

namespace {

int blas_int(i64 v) { return static_cast<int>(v); }  // range checked in multiply()

}  // namespace

void leaf_dgemm(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c, double alpha, double beta) {
  if (ctx.cfg.leaf == LeafGemm::packed) {
    if (beta != 0.0 && beta != 1.0) throw std::logic_error("leaf_dgemm: the packed GEMM takes beta 0 or 1");
    const PackedTerm at{a.data, a.ld, 1.0}, bt{b.data, b.ld, 1.0};
    const PackedDestination ct{c.data, c.ld, alpha, beta == 0.0};
    return leaf(ctx, m, n, k, [&] { packed_gemm(m, n, k, &at, 1, &bt, 1, &ct, 1, ctx.pack, packed_isa(), ctx.cfg.packed_blocking);
    });
  }
  leaf(ctx, m, n, k, [&] {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, blas_int(m), blas_int(n), blas_int(k), alpha, a.data,
                blas_int(a.ld), b.data, blas_int(b.ld), beta, c.data, blas_int(c.ld));
  });
}

// The border of an odd-sized level (the peeling above), after the even
// part C[0:me, 0:ne] has been computed.
void peel_fixup(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c) {
  const i64 me = m & ~i64{1}, ne = n & ~i64{1}, ke = k & ~i64{1};
  if (me == m && ne == n && ke == k) return;
  if (sim::charged()) {  // the same flops, charged (core/simulation.hpp)
    sim::charge_dgemm(me, ne, k - ke);
    sim::charge_dgemm(me, n - ne, k);
    sim::charge_dgemm(m - me, n, k);
    return;
  }
  const auto t0 = Clock::now();
  if (k > ke)
    cblas_dger(CblasColMajor, blas_int(me), blas_int(ne), 1.0, a.data + ke * a.ld, 1,
               b.data + ke, blas_int(b.ld), c.data, blas_int(c.ld));
  if (n > ne)
    cblas_dgemv(CblasColMajor, CblasNoTrans, blas_int(me), blas_int(k), 1.0, a.data,
                blas_int(a.ld), b.data + ne * b.ld, 1, 0.0, c.data + ne * c.ld, 1);
  if (m > me)
    cblas_dgemv(CblasColMajor, CblasTrans, blas_int(k), blas_int(n), 1.0, b.data,
                blas_int(b.ld), a.data + me, blas_int(a.ld), 0.0, c.data + me,
                blas_int(c.ld));
  ctx.acc.fixup_seconds += seconds_since(t0);
}

void multiply_sequential(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c,
                         int levels, double* ws, int depth) {
  if (!level_applies(m, n, k, levels, ctx.cfg)) {
    leaf_dgemm(ctx, m, n, k, a, b, c);
    return;
  }
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  const Quadrants q = split(a, b, c, mh, nh, kh);
  if (packed_level(mh, nh, kh, levels, ctx.cfg))
    packed_strassen_level(ctx, q, mh, nh, kh);
  else if (ctx.cfg.variant == FastVariant::strassen)
    strassen_level(ctx, q, mh, nh, kh, levels, ws, depth);
  else if (fused_level(mh, nh, kh, levels, ctx.cfg))
    winograd_fused_level(ctx, q, mh, nh, kh, levels, ws, depth);
  else if (accumulate_level(mh, nh, kh, levels, ctx.cfg))
    winograd_deepest_level(ctx, q, mh, nh, kh, ws, depth);
  else
    winograd_level(ctx, q, mh, nh, kh, levels, ws, depth);
  peel_fixup(ctx, m, n, k, a, b, c);
}

}  // namespace mmbench::local::fast_gemm_detail
