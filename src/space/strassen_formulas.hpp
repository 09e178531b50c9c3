// Strassen's formulas and the two M-task schemata as data (docs/method.md §3.1, 3.2,
// thesis eqs. 2.4/2.5, Tab. 2.1), and the moves between groups DERIVED from
// them: which quadrants each task must receive and which products each C
// quadrant must receive. No transfer is written by hand anywhere else.
//
// Quadrant index q = 2 i + j of block (i, j): 0 = X11, 1 = X12, 2 = X21,
// 3 = X22. Group g (= task T_Cg) owns quadrant g of A, B and C. Products are
// numbered 0..6 for Q1..Q7.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "local/strassen_coefficients.hpp"

namespace mmbench::space::strassen {

// The coefficient table itself (kProducts, kC) lives with the local kernel,
// which uses it too (local/strassen_coefficients.hpp).
using local::ProductFormula;
inline constexpr const std::array<ProductFormula, 7>& kProducts = local::kStrassenProducts;
inline constexpr const std::array<std::array<int, 7>, 4>& kC = local::kStrassenC;

enum class Schema { q7, q8 };
std::string schema_name(Schema s);  // "q7" / "q8"

// The algorithm on each leaf group (Tab. 2.4); the cost models use the same
// enum (model::Cutoff).
enum class Cutoff { ring, tpmm, pdgemm, dgemm };
std::string cutoff_name(Cutoff c);  // "ring", "tpmm", "pdgemm", "dgemm"

// Products each task computes, in the order it computes them (Tab. 2.1):
// Q7: T11 {Q1, Q7}, T12 {Q3, Q5}, T21 {Q2, Q4}, T22 {Q6};
// Q8: the same, but T22 computes Q1 as well {Q1, Q6}.
const std::array<std::vector<int>, 4>& tasks(Schema s);

// Quadrants of A and of B that task g's products read (a coefficient != 0
// in one of them), own quadrant g included. Q7, g = 0 (Q1, Q7):
// A11, A12, A22 and B11, B21, B22.
struct QuadrantsRead {
  std::array<bool, 4> a{}, b{};
};
QuadrantsRead quadrants_read(Schema s, int g);

// The group whose copy of product t the others receive: the lowest-numbered
// one computing it (Q8 computes Q1 twice).
int producer(Schema s, int t);

// One derived move: item `what` (a quadrant for operands, a product for
// results) goes from group `from` to group `to`.
struct Move {
  int what, from, to;
  bool operator==(const Move&) const = default;
};
struct LevelMoves {
  std::vector<Move> a, b;      // operand quadrants: each needed quadrant once per receiving group
  std::vector<Move> products;  // products a C quadrant needs and its group does not compute
};
// Products computed by several groups (Q8's Q1) are taken from the receiving
// group's own copy, else from the lowest-numbered producer.
LevelMoves derive_moves(Schema s);

// What task g does at one level, counted from the tables above (the cost
// models read these; nothing is typed by hand). A sum of t terms is t - 1
// additions. Q7:
//   task   products  A sums  B sums  C sums  quadrants in  products in
//   T_C11  Q1, Q7    2       2       3       4             2 (Q4, Q5)
//   T_C12  Q3, Q5    1       1       1       2             0
//   T_C21  Q2, Q4    1       1       1       2             0
//   T_C22  Q6        1       1       3       4             3 (Q1, Q2, Q3)
struct TaskWork {
  int products = 0, a_sums = 0, b_sums = 0, c_sums = 0, quadrants_in = 0, products_in = 0;
};
TaskWork task_work(Schema s, int g);

}  // namespace mmbench::space::strassen
