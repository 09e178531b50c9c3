// Element-wise passes of a Strassen-like level; see fast_gemm_passes.hpp.
//
// Every pass is a loop over columns calling a column kernel whose pointers are
// __restrict: the kernel promises the compiler that outputs never alias inputs
// (the in-place forms read and write through the same single pointer), which
// is what lets it vectorise without runtime overlap checks.
//
// Why each_row() walks a column in chunks of 8: g++ 12 at -O2 vectorises only
// loops whose trip count is known to fit the vector length ("very cheap" cost
// model), so a plain `for (i < rows)` loop stays scalar unless the build uses
// -O3. The fixed inner trip count of 8 is vectorised at -O2 as well (checked
// with -fopt-info-vec: 16-byte vectors with SSE2, 32-byte with -march=native);
// the tail of fewer than 8 rows runs scalar. The column kernels are kept out
// of line ([[gnu::noinline]]): inlined into the column loop, g++ 12 no longer
// vectorises them at -O2 (-fopt-info-vec-missed: "no vectype"), and one call
// per column is negligible next to the column's memory traffic.
#include "local/fast_gemm_passes.hpp"
#include "core/simulation.hpp"

#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mmbench::local {
namespace {

using i64 = std::int64_t;

inline const double* col(ConstBlock b, i64 j) { return b.data + j * b.ld; }
inline double* col(Block b, i64 j) { return b.data + j * b.ld; }

template <class RowOp>
inline void each_row(i64 rows, RowOp op) {
  constexpr i64 kChunk = 8;
  i64 i = 0;
  for (; i + kChunk <= rows; i += kChunk)
    for (i64 t = 0; t < kChunk; ++t) op(i + t);
  for (; i < rows; ++i) op(i);
}

// ---- write-only outputs: cached or streaming stores -----------------------
//
// An operand pass writes sums it never reads (S1..S4 from A's quadrants).
// An ordinary store first reads the line it writes into the cache ("read
// for ownership"), so four outputs cost four extra reads: 4 loads + 4 RFO
// reads + 4 write-backs per element of a fused Winograd A pass, 12 line
// transfers for 8 useful ones. Non-temporal ("streaming") stores write whole
// lines straight to memory without reading them: 8 transfers. What that
// gave on this VM, and its price (the sums are not left in cache), is
// recorded at FastGemmConfig::streaming_stores.
//
// A kernel body is written once as a generic lambda body(io, i) that
// computes rows starting at i through io.load / io.store; it is
// instantiated for two rows at a time with streaming stores (SSE2, every
// output 16-byte aligned) and for one row at a time with plain stores (the
// rest, and every row when streaming is off or not possible).
struct PlainIo {
  static double load(const double* p) { return *p; }
  static void store(double* p, double v) { *p = v; }
};
#if defined(__SSE2__)
struct StreamingIo {
  static __m128d load(const double* p) { return _mm_loadu_pd(p); }
  static void store(double* p, __m128d v) { _mm_stream_pd(p, v); }
};
#endif

template <class... Out>
bool aligned16(Out*... outs) {
  return ((reinterpret_cast<std::uintptr_t>(outs) % 16 == 0) && ...);
}

// Rows [0, rows) of one column: two at a time with streaming stores when
// `stores` asks for them and every output of the column is 16-byte aligned
// (outputs_aligned), the rest (an odd last row, or all) with plain stores.
template <class Body>
inline void each_row_to(Stores stores, bool outputs_aligned, i64 rows, Body body) {
  i64 i = 0;
#if defined(__SSE2__)
  if (stores == Stores::streaming && outputs_aligned)
    for (; i + 2 <= rows; i += 2) body(StreamingIo{}, i);
#else
  (void)stores;
  (void)outputs_aligned;
#endif
  each_row(rows - i, [&](i64 r) { body(PlainIo{}, i + r); });
}

// Streaming stores are weakly ordered: make them visible before anything
// that follows the pass (another thread's products read them after a join).
inline void end_of_streaming_pass(Stores stores) {
#if defined(__SSE2__)
  if (stores == Stores::streaming) _mm_sfence();
#else
  (void)stores;
#endif
}

// ---- column kernels ------------------------------------------------------

[[gnu::noinline]] void add_col(i64 rows, const double* __restrict a, const double* __restrict b,
             double* __restrict c) {
  each_row(rows, [&](i64 i) { c[i] = a[i] + b[i]; });
}

[[gnu::noinline]] void sub_col(i64 rows, const double* __restrict a, const double* __restrict b,
             double* __restrict c) {
  each_row(rows, [&](i64 i) { c[i] = a[i] - b[i]; });
}

[[gnu::noinline]] void add_in_place_col(i64 rows, double* __restrict x, const double* __restrict a) {
  each_row(rows, [&](i64 i) { x[i] += a[i]; });
}

[[gnu::noinline]] void sub_in_place_col(i64 rows, double* __restrict x, const double* __restrict a) {
  each_row(rows, [&](i64 i) { x[i] -= a[i]; });
}

[[gnu::noinline]] void reverse_sub_in_place_col(i64 rows, double* __restrict x, const double* __restrict a) {
  each_row(rows, [&](i64 i) { x[i] = a[i] - x[i]; });
}

[[gnu::noinline]] void add_to_both_col(i64 rows, double* __restrict x, double* __restrict y,
                     const double* __restrict a) {
  each_row(rows, [&](i64 i) {
    x[i] += a[i];
    y[i] += a[i];
  });
}

[[gnu::noinline]] void add_sub_col(i64 rows, double* __restrict x, double* __restrict y,
                 const double* __restrict a) {
  each_row(rows, [&](i64 i) {
    x[i] += a[i];
    y[i] -= a[i];
  });
}

[[gnu::noinline]] void winograd_a_col(Stores stores, i64 rows, const double* __restrict a11,
                                      const double* __restrict a12, const double* __restrict a21,
                                      const double* __restrict a22, double* __restrict s1,
                                      double* __restrict s2, double* __restrict s3,
                                      double* __restrict s4) {
  each_row_to(stores, aligned16(s1, s2, s3, s4), rows, [&](auto io, i64 i) {
    const auto x11 = io.load(a11 + i), x21 = io.load(a21 + i);
    const auto v1 = x21 + io.load(a22 + i);
    const auto v2 = v1 - x11;
    io.store(s1 + i, v1);
    io.store(s2 + i, v2);
    io.store(s3 + i, x11 - x21);
    io.store(s4 + i, io.load(a12 + i) - v2);
  });
}

[[gnu::noinline]] void winograd_b_col(Stores stores, i64 rows, const double* __restrict b11,
                                      const double* __restrict b12, const double* __restrict b21,
                                      const double* __restrict b22, double* __restrict t1,
                                      double* __restrict t2, double* __restrict t3,
                                      double* __restrict t4) {
  each_row_to(stores, aligned16(t1, t2, t3, t4), rows, [&](auto io, i64 i) {
    const auto x12 = io.load(b12 + i), x22 = io.load(b22 + i);
    const auto v1 = x12 - io.load(b11 + i);
    const auto v2 = x22 - v1;
    io.store(t1 + i, v1);
    io.store(t2 + i, v2);
    io.store(t3 + i, x22 - x12);
    io.store(t4 + i, v2 - io.load(b21 + i));
  });
}

[[gnu::noinline]] void winograd_combine_col(i64 rows, const double* __restrict p1, const double* __restrict p6,
                          const double* __restrict p7, double* __restrict c11,
                          double* __restrict c12, double* __restrict c21,
                          double* __restrict c22) {
  each_row(rows, [&](i64 i) {
    const double u2 = p1[i] + p6[i];
    const double u3 = u2 + p7[i];
    const double p5 = c22[i];
    c11[i] = p1[i] + c11[i];         // P1 + P2
    c12[i] = (u2 + p5) + c12[i];     // U4 + P3
    c21[i] = u3 - c21[i];            // U3 - P4
    c22[i] = u3 + p5;                // U3 + P5
  });
}

[[gnu::noinline]] void winograd_combine_partial_col(i64 rows, const double* __restrict p1,
                                  const double* __restrict p3, double* __restrict c12,
                                  double* __restrict c21, double* __restrict c22) {
  each_row(rows, [&](i64 i) {
    const double u2 = p1[i] + c12[i];  // P1 + P6
    const double u3 = u2 + c21[i];     // U2 + P7
    const double p5 = c22[i];
    c12[i] = (u2 + p5) + p3[i];        // U4 + P3
    c21[i] = u3;
    c22[i] = u3 + p5;
  });
}

[[gnu::noinline]] void winograd_combine_accumulate_col(i64 rows, const double* __restrict p1,
                                     const double* __restrict p6, double* __restrict c12,
                                     double* __restrict c21, double* __restrict c22) {
  each_row(rows, [&](i64 i) {
    const double u2 = p1[i] + p6[i];
    const double p5 = c22[i];
    const double u3 = u2 + c21[i];  // U2 + P7
    c12[i] = (u2 + p5) + c12[i];    // U4 + P3
    c21[i] = u3;
    c22[i] = u3 + p5;
  });
}

[[gnu::noinline]] void strassen_a_col(Stores stores, i64 rows, const double* __restrict a11,
                                      const double* __restrict a12, const double* __restrict a21,
                                      const double* __restrict a22, double* __restrict q1a,
                                      double* __restrict q2a, double* __restrict q5a,
                                      double* __restrict q6a, double* __restrict q7a) {
  each_row_to(stores, aligned16(q1a, q2a, q5a, q6a, q7a), rows, [&](auto io, i64 i) {
    const auto x11 = io.load(a11 + i), x12 = io.load(a12 + i);
    const auto x21 = io.load(a21 + i), x22 = io.load(a22 + i);
    io.store(q1a + i, x11 + x22);
    io.store(q2a + i, x21 + x22);
    io.store(q5a + i, x11 + x12);
    io.store(q6a + i, x21 - x11);
    io.store(q7a + i, x12 - x22);
  });
}

[[gnu::noinline]] void strassen_b_col(Stores stores, i64 rows, const double* __restrict b11,
                                      const double* __restrict b12, const double* __restrict b21,
                                      const double* __restrict b22, double* __restrict q1b,
                                      double* __restrict q3b, double* __restrict q4b,
                                      double* __restrict q6b, double* __restrict q7b) {
  each_row_to(stores, aligned16(q1b, q3b, q4b, q6b, q7b), rows, [&](auto io, i64 i) {
    const auto x11 = io.load(b11 + i), x12 = io.load(b12 + i);
    const auto x21 = io.load(b21 + i), x22 = io.load(b22 + i);
    io.store(q1b + i, x11 + x22);
    io.store(q3b + i, x12 - x22);
    io.store(q4b + i, x21 - x11);
    io.store(q6b + i, x11 + x12);
    io.store(q7b + i, x21 + x22);
  });
}

[[gnu::noinline]] void strassen_combine_col(i64 rows, const double* __restrict q1, const double* __restrict q4,
                          const double* __restrict q5, double* __restrict c11,
                          double* __restrict c12, double* __restrict c21,
                          double* __restrict c22) {
  each_row(rows, [&](i64 i) {
    const double q2 = c21[i];
    const double q3 = c12[i];
    c11[i] = ((q1[i] + q4[i]) - q5[i]) + c11[i];  // + Q7
    c12[i] = q3 + q5[i];
    c21[i] = q2 + q4[i];
    c22[i] = ((q1[i] - q2) + q3) + c22[i];        // + Q6
  });
}

[[gnu::noinline]] void strassen_add_q1_col(i64 rows, const double* __restrict q1, double* __restrict c11,
                         const double* __restrict c12, const double* __restrict c21,
                         double* __restrict c22) {
  each_row(rows, [&](i64 i) {
    c11[i] += q1[i];
    c22[i] = ((c22[i] + q1[i]) + c12[i]) - c21[i];
  });
}

// Simulated runs with charged computation (core/simulation.hpp): the pass
// is not executed but costs `sums` elementwise sums over its columns (flat
// prices) or the bytes it moves, `touches` doubles loaded or stored per
// element (each array read counts once, each array written once more; the
// kernel model's addition C = A + B is 3), priced by the fitted addition.
bool charged(Columns r, int sums, int touches) {
  if (!sim::charged()) return false;
  const i64 elements = r.rows * (r.j1 - r.j0);
  sim::charge_add(static_cast<i64>(sums) * elements, 8 * static_cast<i64>(touches) * elements);
  return true;
}

}  // namespace

void add(Columns r, ConstBlock a, ConstBlock b, Block c) {
  if (charged(r, 1, 3)) return;
  for (i64 j = r.j0; j < r.j1; ++j) add_col(r.rows, col(a, j), col(b, j), col(c, j));
}

void sub(Columns r, ConstBlock a, ConstBlock b, Block c) {
  if (charged(r, 1, 3)) return;
  for (i64 j = r.j0; j < r.j1; ++j) sub_col(r.rows, col(a, j), col(b, j), col(c, j));
}

void add_in_place(Columns r, Block x, ConstBlock a) {
  if (charged(r, 1, 3)) return;
  for (i64 j = r.j0; j < r.j1; ++j) add_in_place_col(r.rows, col(x, j), col(a, j));
}

void sub_in_place(Columns r, Block x, ConstBlock a) {
  if (charged(r, 1, 3)) return;
  for (i64 j = r.j0; j < r.j1; ++j) sub_in_place_col(r.rows, col(x, j), col(a, j));
}

void reverse_sub_in_place(Columns r, Block x, ConstBlock a) {
  if (charged(r, 1, 3)) return;
  for (i64 j = r.j0; j < r.j1; ++j) reverse_sub_in_place_col(r.rows, col(x, j), col(a, j));
}

void add_to_both(Columns r, Block x, Block y, ConstBlock a) {
  if (charged(r, 2, 5)) return;
  for (i64 j = r.j0; j < r.j1; ++j) add_to_both_col(r.rows, col(x, j), col(y, j), col(a, j));
}

void add_to_first_sub_from_second(Columns r, Block x, Block y, ConstBlock a) {
  if (charged(r, 2, 5)) return;
  for (i64 j = r.j0; j < r.j1; ++j) add_sub_col(r.rows, col(x, j), col(y, j), col(a, j));
}

void winograd_a_operands(Columns r, ConstBlock a11, ConstBlock a12, ConstBlock a21,
                         ConstBlock a22, Block s1, Block s2, Block s3, Block s4, Stores stores) {
  if (charged(r, 4, 8)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    winograd_a_col(stores, r.rows, col(a11, j), col(a12, j), col(a21, j), col(a22, j), col(s1, j),
                   col(s2, j), col(s3, j), col(s4, j));
  end_of_streaming_pass(stores);
}

void winograd_b_operands(Columns r, ConstBlock b11, ConstBlock b12, ConstBlock b21,
                         ConstBlock b22, Block t1, Block t2, Block t3, Block t4, Stores stores) {
  if (charged(r, 4, 8)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    winograd_b_col(stores, r.rows, col(b11, j), col(b12, j), col(b21, j), col(b22, j), col(t1, j),
                   col(t2, j), col(t3, j), col(t4, j));
  end_of_streaming_pass(stores);
}

void winograd_combine(Columns r, ConstBlock p1, ConstBlock p6, ConstBlock p7, Block c11,
                      Block c12, Block c21, Block c22) {
  if (charged(r, 7, 11)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    winograd_combine_col(r.rows, col(p1, j), col(p6, j), col(p7, j), col(c11, j), col(c12, j),
                         col(c21, j), col(c22, j));
}

void winograd_combine_partial(Columns r, ConstBlock p1, ConstBlock c11, Block c12, Block c21,
                              Block c22) {
  if (charged(r, 5, 8)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    winograd_combine_partial_col(r.rows, col(p1, j), col(c11, j), col(c12, j), col(c21, j),
                                 col(c22, j));
}

void winograd_combine_accumulate(Columns r, ConstBlock c11, ConstBlock z, Block c12, Block c21,
                                 Block c22) {
  if (charged(r, 5, 8)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    winograd_combine_accumulate_col(r.rows, col(c11, j), col(z, j), col(c12, j), col(c21, j),
                                    col(c22, j));
}

void strassen_a_operands(Columns r, ConstBlock a11, ConstBlock a12, ConstBlock a21,
                         ConstBlock a22, Block q1a, Block q2a, Block q5a, Block q6a,
                         Block q7a, Stores stores) {
  if (charged(r, 5, 9)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    strassen_a_col(stores, r.rows, col(a11, j), col(a12, j), col(a21, j), col(a22, j), col(q1a, j),
                   col(q2a, j), col(q5a, j), col(q6a, j), col(q7a, j));
  end_of_streaming_pass(stores);
}

void strassen_b_operands(Columns r, ConstBlock b11, ConstBlock b12, ConstBlock b21,
                         ConstBlock b22, Block q1b, Block q3b, Block q4b, Block q6b,
                         Block q7b, Stores stores) {
  if (charged(r, 5, 9)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    strassen_b_col(stores, r.rows, col(b11, j), col(b12, j), col(b21, j), col(b22, j), col(q1b, j),
                   col(q3b, j), col(q4b, j), col(q6b, j), col(q7b, j));
  end_of_streaming_pass(stores);
}

void strassen_combine(Columns r, ConstBlock q1, ConstBlock q4, ConstBlock q5, Block c11,
                      Block c12, Block c21, Block c22) {
  if (charged(r, 8, 11)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    strassen_combine_col(r.rows, col(q1, j), col(q4, j), col(q5, j), col(c11, j), col(c12, j),
                         col(c21, j), col(c22, j));
}

void strassen_add_q1(Columns r, ConstBlock q1, Block c11, ConstBlock c12, ConstBlock c21,
                     Block c22) {
  if (charged(r, 4, 7)) return;
  for (i64 j = r.j0; j < r.j1; ++j)
    strassen_add_q1_col(r.rows, col(q1, j), col(c11, j), col(c12, j), col(c21, j),
                        col(c22, j));
}

}  // namespace mmbench::local
