// What ring and tpmm share beyond their layout (one_d_layout.hpp): a plan
// that holds the 1D layouts, the local multiply of one column block and the
// two buffers the B blocks travel through; the Algorithm members that
// follow from the layout; and the cost models made of a paper and a refined
// formula. Each algorithm keeps only its order of steps (ring: a shift to
// the next rank, overlapped with chunks of the multiply; tpmm: pairwise
// swaps along its schedule) and its own CSV columns.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "algos/algorithm.hpp"
#include "algos/one_d_layout.hpp"
#include "local/local_multiply.hpp"
#include "model/algorithm_models.hpp"

namespace mmbench::algos {

class OneDPlan : public Plan {
 public:
  const Layout& layout_a() const override { return l_.a; }
  const Layout& layout_b() const override { return l_.b; }
  const Layout& layout_c() const override { return l_.c; }
  Index workspace_doubles() const override;
  double error_growth() const override { return local_.error_growth(); }
  std::map<std::string, std::string> describe() const override { return local_.describe(); }

 protected:
  // The layouts, the two B-block buffers (p > 1; each as wide as the widest
  // block) and the local kernel's workspace for the largest multiply (this
  // rank's rows times the widest block), allocated here, outside the timed
  // multiplies.
  OneDPlan(const Problem& pb, const Options& opt, const Comm& comm);

  // The B blocks of one multiply: B's own block first, then each received
  // block in the buffer the current one does not occupy. Example, three
  // steps: own block, then buf_[0], then buf_[1].
  class Shifts {
   public:
    Shifts(OneDPlan& plan, const double* own) : plan_(plan), cur_(own) {}
    const double* current() const { return cur_; }
    // Posts the exchange: receives `recv_cols` columns of B (k rows) from
    // `from` into the free buffer, sends the current block's `send_cols`
    // columns to `to`.
    void start(Index send_cols, int to, Index recv_cols, int from, int tag);
    // Lets MPI move a posted exchange (a large, rendezvous message moves only
    // while the program is inside an MPI call).
    void progress();
    // Waits for the exchange; the received block becomes the current one.
    void finish();

   private:
    OneDPlan& plan_;
    const double* cur_;
    double* incoming_ = nullptr;
    int spare_ = 0;  // plan_.buf_[spare_] is free to receive into
    MPI_Request req_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  };

  // Columns [c0, c0 + cols) of the C block of B's block `owner`:
  // C(R_me, those columns) = A(R_me, :) * b (the B block, k x its width).
  void multiply_block(const DistMatrix& A, const double* b, int owner, Index c0, Index cols, DistMatrix& C);

  Problem pb_;
  const Comm& comm_;
  local::LocalMultiply local_;

 private:
  OneDLayouts l_;
  LargeVector<double> buf_[2];
};

// The Algorithm members the 1D layout decides: memory (rank 0's row block
// of A and C, its B block, the two B-block buffers, the local kernel's
// workspace for its largest multiply), the options read (the local kernel)
// and the CSV columns (the local kernel's).
class OneDAlgorithm : public Algorithm {
 public:
  MemoryEstimate plan_memory(const Problem& pb, const Options& o, int ranks) const override;
  Uses uses() const override { return Uses{.local_levels = true}; }
  std::vector<std::string> columns() const override { return local::LocalMultiply::columns(); }
};

// A 1D algorithm's cost models from its formulas (docs/method.md §7.2):
// the paper's on the square n, its computation spread over the threads;
// the refined one on m, n, k with the local kernel.
using OneDPaperFormula = model::Prediction (*)(std::int64_t n, int p, const model::MachineParams& mp);
using OneDRefinedFormula = model::Prediction (*)(double m, double n, double k, int p, int threads,
                                                 const model::MachineParams& mp, const model::LocalKernel& lk);

template <OneDPaperFormula paper, OneDRefinedFormula refined>
const model::AlgorithmModel& one_d_models() {
  static const model::AlgorithmModel m{
      .paper = [](const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
        return model::scale_comp(paper(model::square_n(pb), p, mp), 1.0 / model::threads_of(opt));
      },
      .refined = [](const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
        return refined(double(pb.m), double(pb.n), double(pb.k), p, model::threads_of(opt), mp,
                       model::local_of(opt.local));
      }};
  return m;
}

}  // namespace mmbench::algos
