// Classic Strassen's level (FastGemmConfig::variant strassen), its operands
// read from the coefficient table; see fast_gemm_schedules.hpp.
#include "local/fast_gemm_schedules.hpp"

#include <array>
#include <stdexcept>

#include "local/strassen_coefficients.hpp"

namespace mmbench::local::fast_gemm_detail {

namespace {

// One side of classic Strassen product t (Q1..Q7 = 0..6), read from the
// coefficient table (strassen_coefficients.hpp): a single +1 term is the
// quadrant itself, read in place; two terms are summed into `tmp` in one
// pass. Example: Q6's A side is (-1, 0, +1, 0), i.e. A21 - A11 ->
// sub(A21, A11) into tmp; Q3's A side (+1, 0, 0, 0) is A11 itself.
// Classic Strassen has no other shape of operand (checked by a unit test of
// the table), so anything else is a programming error.
class StrassenOperand {
 public:
  StrassenOperand(Columns cols, std::array<ConstBlock, 4> quadrants, Block tmp)
      : cols_(cols), quad_(quadrants), tmp_(tmp) {}
  // The operand; runs its addition pass through add_pass when it has one.
  template <class AddPass>
  ConstBlock get(const std::array<int, 4>& coef, AddPass&& add_pass) const {
    std::array<int, 4> used{};  // the quadrants with a coefficient, in order
    int terms = 0;
    for (int q = 0; q < 4; ++q)
      if (coef[q] != 0) used[terms++] = q;
    if (terms == 1 && coef[used[0]] == 1) return quad_[used[0]];
    if (terms == 2 && (coef[used[0]] == 1 || coef[used[1]] == 1)) {
      // The +1 term first: X + Y, X - Y, or -X + Y = Y - X.
      const int x = coef[used[0]] == 1 ? used[0] : used[1], y = x == used[0] ? used[1] : used[0];
      add_pass([&] { (coef[y] == 1 ? add : sub)(cols_, quad_[x], quad_[y], tmp_); });
      return tmp_;
    }
    throw std::logic_error("StrassenOperand: the table has an operand that is not X, X + Y or X - Y");
  }

 private:
  Columns cols_;
  std::array<ConstBlock, 4> quad_;
  Block tmp_;
};

}  // namespace

// One classic Strassen level with three temporaries. Operands come from the
// coefficient table (StrassenOperand: 10 two-term sums, each one pass into
// X or Y); Q2, Q3, Q6, Q7 land in C's quadrants; Q1, Q4, Q5 pass through Z
// and are added where they belong right away (one fused pass each). 13
// passes. The three result passes are the table's columns for Q1, Q4, Q5
// with the products already in C folded in (strassen_add_q1 adds Q3 - Q2 to
// C22 from C12 and C21); the FastGemm tests check them end to end against
// DGEMM.
void strassen_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels, double* ws,
                    int depth) {
  const Block x{ws, temp_ld(mh)};                     // mh×kh
  const Block y{ws + aligned(x.ld * kh), temp_ld(kh)};  // kh×nh
  const Block z{y.data + aligned(y.ld * nh), temp_ld(mh)};  // mh×nh
  double* next = z.data + aligned(z.ld * nh);
  const Columns cn{mh, 0, nh};
  auto add_pass = [&](auto f) { pass(ctx, depth, f); };
  const StrassenOperand a_side({mh, 0, kh}, {q.a11, q.a12, q.a21, q.a22}, x);
  const StrassenOperand b_side({kh, 0, nh}, {q.b11, q.b12, q.b21, q.b22}, y);
  // Q_t into `out`: its operand sums (from the table), then the product.
  auto product = [&](int t, Block out) {
    const ProductFormula& f = kStrassenProducts[t];
    const ConstBlock left = a_side.get(f.a, add_pass);
    const ConstBlock right = b_side.get(f.b, add_pass);
    multiply_sequential(ctx, mh, nh, kh, left, right, out, levels - 1, next, depth + 1);
  };
  product(5, q.c22);  // C22 = Q6
  product(6, q.c11);  // C11 = Q7
  product(1, q.c21);  // C21 = Q2
  product(2, q.c12);  // C12 = Q3
  product(0, z);      // Z = Q1
  // C11 = Q7 + Q1, C22 = Q6 + Q1 + Q3 - Q2 (final)
  add_pass([&] { strassen_add_q1(cn, z, q.c11, q.c12, q.c21, q.c22); });
  product(3, z);      // Z = Q4
  add_pass([&] { add_to_both(cn, q.c21, q.c11, z); });  // C21 = Q2 + Q4 (final), C11 += Q4
  product(4, z);      // Z = Q5
  // C12 = Q3 + Q5, C11 -= Q5 (both final)
  add_pass([&] { add_to_first_sub_from_second(cn, q.c12, q.c11, z); });
}

}  // namespace mmbench::local::fast_gemm_detail
