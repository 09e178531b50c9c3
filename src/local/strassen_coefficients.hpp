// Strassen's seven products and the four result quadrants as data
// (docs/method.md §3.1, thesis eq. 2.4 with erratum 1 of §11 applied).
//
// One table for every Strassen in mmbench: the parallel driver derives its
// tasks, transfers and per-task counts from it (space/strassen_formulas.hpp),
// and the local kernel's classic Strassen (fast_gemm_strassen.cpp) takes each
// operand sum from it. It sits in local/, the lowest layer that needs it.
//
// Quadrant index q = 2 i + j of block (i, j): 0 = X11, 1 = X12, 2 = X21,
// 3 = X22. Products are numbered 0..6 for Q1..Q7.
#pragma once

#include <array>

namespace mmbench::local {

// Q_t = (sum_q a[q] A_q) (sum_q b[q] B_q), coefficients -1, 0, +1.
struct ProductFormula {
  std::array<int, 4> a, b;
};

//                                                               A11 A12 A21 A22     B11 B12 B21 B22
inline constexpr std::array<ProductFormula, 7> kStrassenProducts = {{
    {{+1, 0, 0, +1}, {+1, 0, 0, +1}},   // Q1 = (A11 + A22)(B11 + B22)
    {{0, 0, +1, +1}, {+1, 0, 0, 0}},    // Q2 = (A21 + A22) B11
    {{+1, 0, 0, 0}, {0, +1, 0, -1}},    // Q3 = A11 (B12 - B22)
    {{0, 0, 0, +1}, {-1, 0, +1, 0}},    // Q4 = A22 (B21 - B11)
    {{+1, +1, 0, 0}, {0, 0, 0, +1}},    // Q5 = (A11 + A12) B22
    {{-1, 0, +1, 0}, {+1, +1, 0, 0}},   // Q6 = (A21 - A11)(B11 + B12)
    {{0, +1, 0, -1}, {0, 0, +1, +1}},   // Q7 = (A12 - A22)(B21 + B22)
}};

// C_q = sum_t kStrassenC[q][t] Q_t.
//                                                                  Q1  Q2  Q3  Q4  Q5  Q6  Q7
inline constexpr std::array<std::array<int, 7>, 4> kStrassenC = {{
    {+1, 0, 0, +1, -1, 0, +1},   // C11 = Q1 + Q4 - Q5 + Q7
    {0, 0, +1, 0, +1, 0, 0},     // C12 = Q3 + Q5
    {0, +1, 0, +1, 0, 0, 0},     // C21 = Q2 + Q4 (Tab. 2.3's Q3 + Q5 is the erratum)
    {+1, -1, +1, 0, 0, +1, 0},   // C22 = Q1 - Q2 + Q3 + Q6
}};

}  // namespace mmbench::local
