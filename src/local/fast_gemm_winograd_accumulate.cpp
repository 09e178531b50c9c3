// Winograd's deepest level with DGEMM's beta (the accumulate schedule,
// FastGemmConfig::accumulate); see fast_gemm_schedules.hpp.
#include "local/fast_gemm_schedules.hpp"

#include <algorithm>

namespace mmbench::local::fast_gemm_detail {

// The deepest Winograd level, whose seven products are DGEMM calls
// ("accumulate schedule"). DGEMM computes C = alpha·A·B + beta·C at no extra
// cost (OpenBLAS's kernel always adds into C; beta = 0 even costs one more
// pass to clear C first), so two of the seven result additions move into
// DGEMM: C21 -= A22·T4 (P4) and C11 += A12·B21 (P2). The remaining five
// additions form one pass. P1 must stay in C11 until that pass, so P6 needs
// a third temporary Z (mh×nh) instead of landing in C12.
//   passes: 8 operand sums + 1 combination = 9 (Boyer et al.: 8 + 3 = 11),
//   and two of the seven DGEMMs run with beta = 1 instead of 0.
// Example 2×2 (quadrants 1×1) with A = [a b; c d], B = [e f; g h]:
//   C11 = P1 + P2 = ae + bg (P1 = ae by DGEMM, then += bg by DGEMM's beta).
void winograd_deepest_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, double* ws,
                            int depth) {
  const Block x{ws, temp_ld(mh)};  // mh×kh operand sums
  const Block y{ws + aligned(x.ld * std::max(kh, nh)), temp_ld(kh)};  // kh×nh
  const Block z{y.data + aligned(y.ld * nh), temp_ld(mh)};           // mh×nh: P6
  const Columns ak{mh, 0, kh}, bn{kh, 0, nh}, cn{mh, 0, nh};
  auto product = [&](ConstBlock l, ConstBlock r, Block out, double alpha = 1.0, double beta = 0.0) {
    leaf_dgemm(ctx, mh, nh, kh, l, r, out, alpha, beta);
  };
  auto add_pass = [&](auto f) { pass(ctx, depth, f); };
  add_pass([&] { sub(ak, q.a11, q.a21, x); });            // X = S3
  add_pass([&] { sub(bn, q.b22, q.b12, y); });            // Y = T3
  product(x, y, q.c21);                                   // C21 = P7
  add_pass([&] { add(ak, q.a21, q.a22, x); });            // X = S1
  add_pass([&] { sub(bn, q.b12, q.b11, y); });            // Y = T1
  product(x, y, q.c22);                                   // C22 = P5
  add_pass([&] { sub_in_place(ak, x, q.a11); });          // X = S2 = S1 - A11
  add_pass([&] { reverse_sub_in_place(bn, y, q.b22); });  // Y = T2 = B22 - T1
  product(x, y, z);                                       // Z = P6
  add_pass([&] { reverse_sub_in_place(ak, x, q.a12); });  // X = S4 = A12 - S2
  product(x, q.b22, q.c12);                               // C12 = P3
  product(q.a11, q.b11, q.c11);                           // C11 = P1
  // C12 = P1 + P6 + P5 + P3 (final), C21 = P1 + P6 + P7 (= U3), C22 = U3 + P5 (final).
  add_pass([&] { winograd_combine_accumulate(cn, q.c11, z, q.c12, q.c21, q.c22); });
  add_pass([&] { sub_in_place(bn, y, q.b21); });          // Y = T4 = T2 - B21
  product(q.a22, y, q.c21, -1.0, 1.0);                    // C21 = U3 - P4 (final)
  product(q.a12, q.b21, q.c11, 1.0, 1.0);                 // C11 = P1 + P2 (final)
}

}  // namespace mmbench::local::fast_gemm_detail
