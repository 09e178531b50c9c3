// The element-wise passes of one Strassen-like level: operand sums before
// the seven products and result combinations after them.
//
// These passes are memory-bound (one flop per 24 bytes moved), so they are
// written for memory traffic, not flops:
// - each pass walks whole columns (unit stride in column-major storage) with
//   a plain loop over __restrict pointers that the compiler vectorises;
// - where several sums read the same inputs, one pass computes them all
//   ("fused"), so every input element is loaded once instead of once per sum.
//   Example: Winograd's four A-side operands S1..S4 need 8 loads and 4
//   stores per element when fused, 12 loads and 4 stores as 4 separate sums.
// Every pass takes a column range [j0, j1) so that threads can split a pass
// by columns without any synchronisation inside it.
//
// Names of operands and products follow fast_gemm_schedules.hpp (Winograd: S1..S4,
// T1..T4, P1..P7; classic Strassen: Q1..Q7 as in docs/method.md §3.1).
#pragma once

#include <cstdint>

namespace mmbench::local {

// A column-major block seen through its first element and leading dimension.
struct ConstBlock {
  const double* data;
  std::int64_t ld;
};
struct Block {
  double* data;
  std::int64_t ld;
  operator ConstBlock() const { return {data, ld}; }
};

// Columns [j0, j1) of a block with `rows` rows.
struct Columns {
  std::int64_t rows;
  std::int64_t j0;
  std::int64_t j1;
};

// How an operand pass writes its sums, which it never reads: through the
// cache, or with non-temporal ("streaming") stores that skip the read of
// each written line (fast_gemm_passes.cpp; 8 instead of 12 line transfers
// per element of a fused Winograd operand pass). Streaming needs SSE2 and
// 16-byte aligned output columns; elsewhere such a pass stores normally.
enum class Stores { cached, streaming };

// ---- single sums --------------------------------------------------------
void add(Columns r, ConstBlock a, ConstBlock b, Block c);  // c = a + b
void sub(Columns r, ConstBlock a, ConstBlock b, Block c);  // c = a - b
void add_in_place(Columns r, Block x, ConstBlock a);       // x = x + a
void sub_in_place(Columns r, Block x, ConstBlock a);       // x = x - a
void reverse_sub_in_place(Columns r, Block x, ConstBlock a);  // x = a - x

// x = x + a and y = y + a in one pass (a is read once).
void add_to_both(Columns r, Block x, Block y, ConstBlock a);
// x = x + a and y = y - a in one pass.
void add_to_first_sub_from_second(Columns r, Block x, Block y, ConstBlock a);

// ---- Winograd -----------------------------------------------------------
// S1 = A21 + A22, S2 = S1 - A11, S3 = A11 - A21, S4 = A12 - S2.
void winograd_a_operands(Columns r, ConstBlock a11, ConstBlock a12, ConstBlock a21,
                         ConstBlock a22, Block s1, Block s2, Block s3, Block s4,
                         Stores stores = Stores::cached);
// T1 = B12 - B11, T2 = B22 - T1, T3 = B22 - B12, T4 = T2 - B21.
void winograd_b_operands(Columns r, ConstBlock b11, ConstBlock b12, ConstBlock b21,
                         ConstBlock b22, Block t1, Block t2, Block t3, Block t4,
                         Stores stores = Stores::cached);
// All seven additions of the result in one pass (parallel schedule), with
// P2..P5 already sitting in C11, C12, C21, C22:
//   U2 = P1 + P6, U3 = U2 + P7,
//   C11 = P1 + P2, C12 = U2 + P5 + P3, C21 = U3 - P4, C22 = U3 + P5.
void winograd_combine(Columns r, ConstBlock p1, ConstBlock p6, ConstBlock p7, Block c11,
                      Block c12, Block c21, Block c22);
// Five of the seven result additions (sequential schedule, steps 13-17 in
// fast_gemm_winograd_two_temporaries.cpp), with P3 in C11, P6 in C12, P7 in C21, P5 in C22:
//   U2 = P1 + P6, U3 = U2 + P7,
//   C12 = U2 + P5 + P3 (final), C21 = U3 (P4 still to subtract), C22 = U3 + P5 (final).
// C11 is only read.
void winograd_combine_partial(Columns r, ConstBlock p1, ConstBlock c11, Block c12, Block c21,
                              Block c22);

// The deepest level's combination (accumulate schedule, fast_gemm_winograd_accumulate.cpp),
// with P1 in C11, P3 in C12, P7 in C21, P5 in C22 and P6 in z:
//   U2 = P1 + P6, C12 = U2 + P5 + P3 (final), C21 = U2 + P7 (= U3; P4 is
//   then subtracted by DGEMM's beta), C22 = U3 + P5 (final).
// C11 and z are only read (P2 is added to C11 by DGEMM's beta afterwards).
void winograd_combine_accumulate(Columns r, ConstBlock c11, ConstBlock z, Block c12, Block c21,
                                 Block c22);

// ---- classic Strassen ---------------------------------------------------
// A11 + A22, A21 + A22, A11 + A12, A21 - A11, A12 - A22 (operands of Q1, Q2, Q5, Q6, Q7).
void strassen_a_operands(Columns r, ConstBlock a11, ConstBlock a12, ConstBlock a21,
                         ConstBlock a22, Block q1a, Block q2a, Block q5a, Block q6a,
                         Block q7a, Stores stores = Stores::cached);
// B11 + B22, B12 - B22, B21 - B11, B11 + B12, B21 + B22 (operands of Q1, Q3, Q4, Q6, Q7).
void strassen_b_operands(Columns r, ConstBlock b11, ConstBlock b12, ConstBlock b21,
                         ConstBlock b22, Block q1b, Block q3b, Block q4b, Block q6b,
                         Block q7b, Stores stores = Stores::cached);
// All eight result additions in one pass (parallel schedule), with Q7 in
// C11, Q3 in C12, Q2 in C21, Q6 in C22:
//   C11 = Q1 + Q4 - Q5 + Q7, C12 = Q3 + Q5, C21 = Q2 + Q4, C22 = Q1 - Q2 + Q3 + Q6.
void strassen_combine(Columns r, ConstBlock q1, ConstBlock q4, ConstBlock q5, Block c11,
                      Block c12, Block c21, Block c22);
// Sequential schedule, after Q1: C11 = C11 + Q1, C22 = C22 + Q1 + C12 - C21
// (C12 holds Q3, C21 holds Q2, C11 holds Q7, C22 holds Q6).
void strassen_add_q1(Columns r, ConstBlock q1, Block c11, ConstBlock c12, ConstBlock c21,
                     Block c22);

}  // namespace mmbench::local
