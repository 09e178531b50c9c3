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

#include <array>
#include <memory>
#include <tuple>

#include "algos/algorithm.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/dist_matrix.hpp"
#include "core/matrix/redistribution.hpp"
#include "dispatch/pdgemm_call.hpp"

namespace mmbench::dispatch {

class MemberRun {
 public:
  // Collective over grid (the plan's communicators). grid: the caller's
  // grid processes, rank = prow * pc + pcol.
  MemberRun(const algos::Algorithm& algo, const algos::Options& opt, const PdgemmCall& shape, const Comm& grid);

  // Where one call's time went on this rank (seconds).
  struct Times {
    double convert = 0;   // operands in, C back and alpha C' + beta C
    double multiply = 0;  // the member's own multiplication
  };
  // One call of the shape given at construction; collective over the grid.
  Times run(const PdgemmCall& call, int pr, int pc);

  // The member's error bound over the classical one (local or parallel
  // Strassen levels: docs/method.md, verification); 1 for classical members.
  double error_growth() const { return plan_->error_growth(); }
  // Doubles this rank holds (matrices, workspace, scratch).
  double doubles() const;
  // Where construction went on this rank (seconds): the algorithm's plan
  // (its schedules and workspace), then the member's matrices A, B, C
  // (allocated and zeroed: the first touch of fresh memory, or a rewrite of
  // pooled memory).
  struct Preparation {
    double plan = 0;
    double matrices = 0;
  };
  Preparation preparation() const { return preparation_; }

 private:
  // The conversions of the last call's arguments, kept for the next call
  // with the same ones (a loop calling PDGEMM on the same arrays): the
  // layouts, the exchange schedules and their message buffers are made once.
  // The key holds this rank's LLDs, so ranks may differ in whether they
  // reuse it; building a schedule needs no message, so that is fine.
  struct Conversion {
    std::array<Index, 31> key{};
    Layout from_a, from_b, to_c, ta, tb, sc;
    std::unique_ptr<Redistribution> in, out;
  };
  static std::array<Index, 31> conversion_key(const PdgemmCall& call, int pr, int pc);
  const Conversion& conversion(const PdgemmCall& call, int pr, int pc);

  const Comm& grid_;
  bool idle_processes_;  // a ranks x threads hybrid: some processes sit out the multiplication
  std::unique_ptr<algos::Plan> plan_;
  std::unique_ptr<Conversion> conversion_;
  DistMatrix a_, b_, c_;
  bool a_padded_ = false, b_padded_ = false;
  LargeVector<double> scratch_a_, scratch_b_, scratch_c_;
  Preparation preparation_;
};

}  // namespace mmbench::dispatch
