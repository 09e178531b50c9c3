// Winograd's level with fused operand sums (the fused schedule,
// FastGemmConfig::fusion), and Winograd's seven products once their sums
// exist; see fast_gemm_schedules.hpp.
#include "local/fast_gemm_schedules.hpp"

#include <algorithm>

namespace mmbench::local::fast_gemm_detail {

// P1..P7 (index 0..6) with S1..S4 in s, T1..T4 in t: P2..P5 land in C11,
// C12, C21, C22, and P1, P6, P7 in the temporaries p1, p6, p7, which is
// what winograd_combine expects. Used by the fused level and the parallel
// top level.
std::array<ProductSpec, 7> winograd_products(const Quadrants& q, const std::array<Block, 4>& s,
                                             const std::array<Block, 4>& t, Block p1, Block p6, Block p7) {
  return {{{q.a11, q.b11, p1},       // P1
           {q.a12, q.b21, q.c11},    // P2
           {s[3], q.b22, q.c12},     // P3 = S4 B22
           {q.a22, t[3], q.c21},     // P4 = A22 T4
           {s[0], t[0], q.c22},      // P5 = S1 T1
           {s[1], t[1], p6},         // P6 = S2 T2
           {s[2], t[2], p7}}};       // P7 = S3 T3
}

// A Winograd level with fused operand sums ("fused schedule", cfg.fusion):
// two passes compute S1..S4 and T1..T4 into eight buffers, each input
// quadrant read once (16 quadrant touches; the two-temporary schedules
// above need 24, because S2, S4, T2, T4 re-read the sums before them). The
// products then read their own operands, so no product waits for a sum pass
// in between, and three of the S buffers, dead by then, take products:
//   deepest level with cfg.accumulate (products are DGEMM calls):
//     C21 = P7, C22 = P5, S1 <- P6, C12 = P3, C11 = P1,
//     winograd_combine_accumulate, then DGEMM's beta: C21 -= A22·T4 (P4),
//     C11 += A12·B21 (P2).                        3 passes, 24 touches
//   any other level (products may recurse, so none can accumulate):
//     C11 = P2, C12 = P3, C21 = P4, C22 = P5, S1 <- P6, S4 <- P7, S2 <- P1,
//     winograd_combine (the parallel top level's pass). 3 passes, 27 touches
// The price is workspace: 4 + 4 quadrant buffers instead of 2 (or 3).
void winograd_fused_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels,
                          double* ws, int depth) {
  const i64 s_size = aligned(temp_ld(mh) * std::max(kh, nh)), t_size = aligned(temp_ld(kh) * nh);
  std::array<Block, 4> s{}, t{};  // s[i] = S(i+1), t[i] = T(i+1)
  for (int i = 0; i < 4; ++i) s[i] = {ws + i * s_size, temp_ld(mh)};
  for (int i = 0; i < 4; ++i) t[i] = {ws + 4 * s_size + i * t_size, temp_ld(kh)};
  double* next = ws + 4 * s_size + 4 * t_size;
  const Columns ak{mh, 0, kh}, bn{kh, 0, nh}, cn{mh, 0, nh};
  auto add_pass = [&](auto f) { pass(ctx, depth, f); };
  add_pass([&] { winograd_a_operands(ak, q.a11, q.a12, q.a21, q.a22, s[0], s[1], s[2], s[3], stores(ctx)); });
  add_pass([&] { winograd_b_operands(bn, q.b11, q.b12, q.b21, q.b22, t[0], t[1], t[2], t[3], stores(ctx)); });
  if (accumulate_level(mh, nh, kh, levels, ctx.cfg)) {
    auto product = [&](ConstBlock l, ConstBlock r, Block out, double alpha = 1.0, double beta = 0.0) {
      leaf_dgemm(ctx, mh, nh, kh, l, r, out, alpha, beta);
    };
    product(s[2], t[2], q.c21);          // C21 = P7
    product(s[0], t[0], q.c22);          // C22 = P5
    product(s[1], t[1], s[0]);           // S1 <- P6 (S1 is dead)
    product(s[3], q.b22, q.c12);         // C12 = P3
    product(q.a11, q.b11, q.c11);        // C11 = P1
    add_pass([&] { winograd_combine_accumulate(cn, q.c11, s[0], q.c12, q.c21, q.c22); });
    product(q.a22, t[3], q.c21, -1.0, 1.0);  // C21 = U3 - P4 (final)
    product(q.a12, q.b21, q.c11, 1.0, 1.0);  // C11 = P1 + P2 (final)
    return;
  }
  // P6 goes to S1 (dead after P5), P7 to S4 (dead after P3), P1 to S2
  // (dead after P6): hence the order P2..P7, then P1.
  const auto products = winograd_products(q, s, t, /*p1=*/s[1], /*p6=*/s[0], /*p7=*/s[3]);
  for (int i : {1, 2, 3, 4, 5, 6, 0}) {
    const ProductSpec& p = products[i];
    multiply_sequential(ctx, mh, nh, kh, p.left, p.right, p.out, levels - 1, next, depth + 1);
  }
  add_pass([&] { winograd_combine(cn, s[1], s[0], s[3], q.c11, q.c12, q.c21, q.c22); });
}

}  // namespace mmbench::local::fast_gemm_detail
