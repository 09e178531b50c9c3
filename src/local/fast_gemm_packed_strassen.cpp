// The deepest level fused into the packed GEMM (FastGemmConfig::leaf
// packed); see fast_gemm_schedules.hpp.
#include "local/fast_gemm_schedules.hpp"

#include <array>

#include "local/packed_gemm.hpp"
#include "local/strassen_coefficients.hpp"

namespace mmbench::local::fast_gemm_detail {

// The deepest level fused into the packed GEMM (packed_gemm.hpp; Huang et
// al.'s "ABC" Strassen): each of classic Strassen's seven products is one
// packed_gemm call that sums its operand quadrants while packing and adds
// the product into its C quadrants from the micro-kernel's registers, with
// the coefficients of the table (strassen_coefficients.hpp). No temporary,
// no memory pass: 12 A and 12 B quadrant terms are read where plain DGEMM
// calls would read 7 and 7, and 12 C quadrant updates are made where they
// would make 7 (once per KC-deep block of the product, as any GEMM does).
// Classic Strassen, not Winograd, because Winograd's products written out
// in quadrants have up to four terms (S4 = A12 - A21 - A22 + A11) and its
// savings are shared partial sums, which a fused level does not store.
// The first product that reaches a C quadrant overwrites it (Q1: C11 and
// C22, Q2: C21, Q3: C12), so C need not be cleared first.
// Example, Q2 = (A21 + A22) B11 into C21 (+1) and C22 (-1): terms
// {A21, +1}, {A22, +1}; {B11, +1}; destinations {C21, +1, overwrite},
// {C22, -1, add}.
void packed_strassen_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh) {
  const std::array<ConstBlock, 4> a{q.a11, q.a12, q.a21, q.a22}, b{q.b11, q.b12, q.b21, q.b22};
  const std::array<Block, 4> c{q.c11, q.c12, q.c21, q.c22};
  std::array<bool, 4> written{};
  for (int t = 0; t < 7; ++t) {
    const ProductFormula& f = kStrassenProducts[t];
    std::array<PackedTerm, 4> at{}, bt{};
    std::array<PackedDestination, 4> ct{};
    int na = 0, nb = 0, nc = 0;
    for (int i = 0; i < 4; ++i) {
      if (f.a[i] != 0) at[na++] = {a[i].data, a[i].ld, double(f.a[i])};
      if (f.b[i] != 0) bt[nb++] = {b[i].data, b[i].ld, double(f.b[i])};
      if (kStrassenC[i][t] != 0) {
        ct[nc++] = {c[i].data, c[i].ld, double(kStrassenC[i][t]), !written[i]};
        written[i] = true;
      }
    }
    leaf(ctx, mh, nh, kh, [&] {
      packed_gemm(mh, nh, kh, at.data(), na, bt.data(), nb, ct.data(), nc, ctx.pack, packed_isa(),
                  ctx.cfg.packed_blocking);
    });
  }
}

}  // namespace mmbench::local::fast_gemm_detail
