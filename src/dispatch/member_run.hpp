// One of mmbench's algorithms serving PDGEMM calls on the caller's grid: its
// plan and its matrices, built once per shape and reused while calls of that
// shape come, and the conversion of each call's operands (docs/dispatch.md,
// "What a dispatched call does"):
//
//   1. op(sub(A)), op(sub(B)) move from the caller's block-cyclic arrays into
//      the plan's layouts with mmbench's one redistribution (one message per
//      pair of ranks for both); a transposed operand goes to a scratch
//      buffer in the transposed layout and is transposed rectangle by
//      rectangle into place;
//   2. the plan multiplies: C' = op(A) op(B);
//   3. C' moves into a scratch copy of the caller's layout of sub(C), and
//      each rank sets sub(C) := alpha C' + beta sub(C) on its own part --
//      with beta = 0 without reading sub(C), so NaN or Inf there never leaks
//      through -- touching nothing outside the submatrix.
#pragma once

#include <memory>

#include "algos/algorithm.hpp"
#include "core/comm.hpp"
#include "core/dist_matrix.hpp"
#include "dispatch/pdgemm_call.hpp"

namespace mmbench::dispatch {

class MemberRun {
 public:
  // Collective over grid (the plan's communicators). grid: the caller's
  // grid processes, rank = prow * pc + pcol.
  MemberRun(const algos::Algorithm& algo, const algos::Options& opt, const PdgemmCall& shape, const Comm& grid);

  // One call of the shape given at construction; collective over the grid.
  void run(const PdgemmCall& call, int pr, int pc);

  // The member's error bound over the classical one (local or parallel
  // Strassen levels: docs/method.md, verification); 1 for classical members.
  double error_growth() const { return plan_->error_growth(); }
  // Doubles this rank holds (matrices, workspace, scratch).
  double doubles() const;

 private:
  const Comm& grid_;
  std::unique_ptr<algos::Plan> plan_;
  DistMatrix a_, b_, c_;
  bool a_padded_ = false, b_padded_ = false;
  LargeVector<double> scratch_a_, scratch_b_, scratch_c_;
};

}  // namespace mmbench::dispatch
