// Winograd's level with two temporaries (FastGemmConfig::fusion none, or
// the levels it does not fuse); see fast_gemm_schedules.hpp.
#include "local/fast_gemm_schedules.hpp"

#include <algorithm>

namespace mmbench::local::fast_gemm_detail {

// One Winograd level with two temporaries; products land in C's quadrants
// or X (a schedule of Boyer, Dumas, Pernet and Zhou, "Memory efficient
// scheduling of Strassen-Winograd's matrix multiplication algorithm", 2009).
// Step numbers refer to that order; steps 13-17 are fused into one pass.
// 11 passes: 8 operand sums, 3 result combinations.
void winograd_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels, double* ws,
                    int depth) {
  const Block x{ws, temp_ld(mh)};  // mh×kh operand sums, later P1 (mh×nh)
  const Block y{ws + aligned(x.ld * std::max(kh, nh)), temp_ld(kh)};  // kh×nh
  double* next = y.data + aligned(y.ld * nh);
  const Columns ak{mh, 0, kh}, bn{kh, 0, nh}, cn{mh, 0, nh};
  auto product = [&](ConstBlock l, ConstBlock r, Block out) {
    multiply_sequential(ctx, mh, nh, kh, l, r, out, levels - 1, next, depth + 1);
  };
  auto add_pass = [&](auto f) { pass(ctx, depth, f); };
  add_pass([&] { sub(ak, q.a11, q.a21, x); });            // 1  X = S3
  add_pass([&] { sub(bn, q.b22, q.b12, y); });            // 2  Y = T3
  product(x, y, q.c21);                                   // 3  C21 = P7
  add_pass([&] { add(ak, q.a21, q.a22, x); });            // 4  X = S1
  add_pass([&] { sub(bn, q.b12, q.b11, y); });            // 5  Y = T1
  product(x, y, q.c22);                                   // 6  C22 = P5
  add_pass([&] { sub_in_place(ak, x, q.a11); });          // 7  X = S2 = S1 - A11
  add_pass([&] { reverse_sub_in_place(bn, y, q.b22); });  // 8  Y = T2 = B22 - T1
  product(x, y, q.c12);                                   // 9  C12 = P6
  add_pass([&] { reverse_sub_in_place(ak, x, q.a12); });  // 10 X = S4 = A12 - S2
  product(x, q.b22, q.c11);                               // 11 C11 = P3
  product(q.a11, q.b11, x);                               // 12 X = P1
  // 13-17: C12 = U5 = P1 + P6 + P5 + P3 (final), C21 = U3 = P1 + P6 + P7,
  // C22 = U7 = U3 + P5 (final).
  add_pass([&] { winograd_combine_partial(cn, x, q.c11, q.c12, q.c21, q.c22); });
  add_pass([&] { sub_in_place(bn, y, q.b21); });          // 18 Y = T4 = T2 - B21
  product(q.a22, y, q.c11);                               // 19 C11 = P4
  add_pass([&] { sub_in_place(cn, q.c21, q.c11); });      // 20 C21 = U3 - P4 (final)
  product(q.a12, q.b21, q.c11);                           // 21 C11 = P2
  add_pass([&] { add_in_place(cn, q.c11, x); });          // 22 C11 = P2 + P1 (final)
}

}  // namespace mmbench::local::fast_gemm_detail
