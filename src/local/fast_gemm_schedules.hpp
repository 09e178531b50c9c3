// The schedules of one Strassen–Winograd / Strassen level of FastGemm (one
// file each), and the sequential recursion that chooses among them
// (fast_gemm_recursion.cpp). Internal to the kernel; see fast_gemm.hpp.
//
// One level, with A, B, C split into 2×2 quadrants of the *even* part
// (quadrant sizes mh = ⌊m/2⌋, nh = ⌊n/2⌋, kh = ⌊k/2⌋):
//
//   Winograd (15 additions)              classic Strassen (18, docs/method.md §3.1)
//   S1 = A21 + A22   T1 = B12 - B11      Q1 = (A11 + A22)(B11 + B22)
//   S2 = S1 - A11    T2 = B22 - T1       Q2 = (A21 + A22) B11
//   S3 = A11 - A21   T3 = B22 - B12      Q3 = A11 (B12 - B22)
//   S4 = A12 - S2    T4 = T2 - B21       Q4 = A22 (B21 - B11)
//   P1 = A11 B11     P5 = S1 T1          Q5 = (A11 + A12) B22
//   P2 = A12 B21     P6 = S2 T2          Q6 = (A21 - A11)(B11 + B12)
//   P3 = S4 B22      P7 = S3 T3          Q7 = (A12 - A22)(B21 + B22)
//   P4 = A22 T4
//   U2 = P1 + P6, U3 = U2 + P7, U4 = U2 + P5
//   C11 = P1 + P2    C12 = U4 + P3       C11 = Q1 + Q4 - Q5 + Q7   C12 = Q3 + Q5
//   C21 = U3 - P4    C22 = U3 + P5       C21 = Q2 + Q4             C22 = Q1 - Q2 + Q3 + Q6
//
// The schedules (which level runs which: fast_gemm_plan.hpp):
//   winograd_level           two temporaries, Boyer et al.     fast_gemm_winograd_two_temporaries.cpp
//   winograd_deepest_level   the accumulate schedule           fast_gemm_winograd_accumulate.cpp
//   winograd_fused_level     the fused schedule                fast_gemm_winograd_fused.cpp
//   strassen_level           classic Strassen, 3 temporaries   fast_gemm_strassen.cpp
//   packed_strassen_level    fused into the packed GEMM        fast_gemm_packed_strassen.cpp
// and the parallel top level (fast_gemm_parallel.cpp).
#pragma once

#include <array>
#include <cstdint>

#include "local/fast_gemm_account.hpp"
#include "local/fast_gemm_passes.hpp"
#include "local/fast_gemm_plan.hpp"

namespace mmbench::local::fast_gemm_detail {

// ---- quadrants ----------------------------------------------------------

// Quadrant (i, j) of a block split into rows×cols quadrants: offset i·rows
// down and j·cols across (column-major: j·cols·ld elements).
inline ConstBlock quad(ConstBlock x, int i, int j, i64 rows, i64 cols) {
  return {x.data + i * rows + j * cols * x.ld, x.ld};
}
inline Block quad(Block x, int i, int j, i64 rows, i64 cols) {
  return {x.data + i * rows + j * cols * x.ld, x.ld};
}

struct Quadrants {
  ConstBlock a11, a12, a21, a22, b11, b12, b21, b22;
  Block c11, c12, c21, c22;
};

inline Quadrants split(ConstBlock a, ConstBlock b, Block c, i64 mh, i64 nh, i64 kh) {
  return {quad(a, 0, 0, mh, kh), quad(a, 0, 1, mh, kh), quad(a, 1, 0, mh, kh),
          quad(a, 1, 1, mh, kh), quad(b, 0, 0, kh, nh), quad(b, 0, 1, kh, nh),
          quad(b, 1, 0, kh, nh), quad(b, 1, 1, kh, nh), quad(c, 0, 0, mh, nh),
          quad(c, 0, 1, mh, nh), quad(c, 1, 0, mh, nh), quad(c, 1, 1, mh, nh)};
}

// ---- the recursion and its leaves (fast_gemm_recursion.cpp) ----------------

// C = A·B by the levels that apply, one product after another. `depth` is
// the level being done (1 = top), for the account; ws the workspace of this
// level and those below (fast_gemm_plan.hpp, sequential_workspace).
void multiply_sequential(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c,
                         int levels, double* ws, int depth);

// C = alpha·A·B + beta·C at the bottom of the recursion: OpenBLAS's DGEMM,
// or the packed GEMM (beta 0 or 1 there, all the schedules use).
void leaf_dgemm(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c, double alpha = 1.0,
                double beta = 0.0);

// The border of an odd-sized level, after the even part C[0:me, 0:ne] has
// been computed (fast_gemm_recursion.cpp explains the peeling).
void peel_fixup(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c);

// ---- Winograd's seven products once their operand sums exist ----------------

struct ProductSpec {
  ConstBlock left, right;
  Block out;
};

// P1..P7 (index 0..6) with S1..S4 in s, T1..T4 in t: P2..P5 land in C11,
// C12, C21, C22, and P1, P6, P7 in the temporaries p1, p6, p7, which is
// what winograd_combine expects. Used by the fused level and the parallel
// top level.
std::array<ProductSpec, 7> winograd_products(const Quadrants& q, const std::array<Block, 4>& s,
                                             const std::array<Block, 4>& t, Block p1, Block p6, Block p7);

// ---- the schedules of one level --------------------------------------------

void winograd_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels, double* ws, int depth);
void winograd_deepest_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, double* ws, int depth);
void winograd_fused_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels, double* ws,
                          int depth);
void strassen_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels, double* ws, int depth);
void packed_strassen_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh);

// ---- the parallel top level (fast_gemm_parallel.cpp) ------------------------

// The top level with its seven products run by cfg.threads threads.
void multiply_parallel_top(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c, double* ws);

// A packed GEMM of the whole shape (no level applies, cfg.threads > 1),
// split by columns over the threads.
void packed_gemm_threads(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c, double* ws);

}  // namespace mmbench::local::fast_gemm_detail
