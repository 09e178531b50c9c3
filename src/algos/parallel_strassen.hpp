// The parallel Strassen driver (docs/method.md §3.1-3.3), one for all five
// combinations: r levels of M-tasks on processor groups (schema Q7 or Q8), a
// cut-off algorithm on each leaf group. How a level moves its data between
// the groups is its transport (strassen_transport.hpp: the generic
// redistribution, or pdgemr2d for strassen-q7+pdgemm); everything else is
// written once here.
//
// One level, built once in the plan:
//   - split the communicator into G11, G12, G21, G22 (consecutive ranks);
//   - the transport (its layouts, moves and receive buffers);
//   - the sub-plan of my group (the next level, or the cut-off algorithm's
//     own Plan -- ring, tpmm, pdgemm -- or a local DGEMM), checked against
//     the layouts the transport assumed for my group;
//   - the temporaries: the operand sums S, T and the products of my task.
// multiply(): operands in (transport); for each product of my task S = sum
// of A quadrants, T = sum of B quadrants, sub-plan multiply; products out
// (transport: C_g = signed sum of products).
#pragma once

#include <memory>

#include "algos/algorithm.hpp"
#include "algos/strassen_layout.hpp"
#include "algos/strassen_transport.hpp"

namespace mmbench::algos::strassen {

// One level on `comm` for an m x k times k x n product (m, n, k divisible by
// 2^r, r >= 1). Collective over comm.
class Level : public Plan {
 public:
  Level(const Config& cfg, const Options& leaf_opt, Index m, Index n, Index k, int r, const Comm& comm);
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;

  const Layout& layout_a() const override { return transport_->level_layouts().a; }
  const Layout& layout_b() const override { return transport_->level_layouts().b; }
  const Layout& layout_c() const override { return transport_->level_layouts().c; }
  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override;
  Index workspace_doubles() const override;
  std::map<std::string, std::string> describe() const override { return child_->describe(); }
  // The leaf algorithm's choices (its grid, lb, ...); StrassenPlan adds r.
  AsRun as_run(const Options& asked, int ranks) const override { return child_->as_run(asked, ranks); }
  std::string warning() const override { return child_->warning(); }
  // The leaf's (local Strassen levels); StrassenPlan adds the parallel levels.
  double error_growth() const override { return child_->error_growth(); }

  // For tests and reports: this level's groups and transfers (each moves one
  // quadrant or product between two groups; the redistribution transport
  // executes them batched, pdgemr2d lists none), and the next level (nullptr
  // below the last Strassen level).
  const GroupSplit& groups() const { return gs_; }
  const std::vector<Transfer>& operand_transfers() const { return transport_->operand_transfers(); }
  const std::vector<Transfer>& product_transfers() const { return transport_->product_transfers(); }
  const Level* next() const { return dynamic_cast<const Level*>(child_.get()); }

 private:
  Schema schema_;
  GroupSplit gs_;
  int group_;
  std::unique_ptr<LevelTransport> transport_;
  Comm sub_;                     // declared before child_: it must outlive it
  std::unique_ptr<Plan> child_;
  DistMatrix S_, T_;
  std::vector<DistMatrix> P_;    // the products of my task, in tasks() order
};

// The whole algorithm for any m, n, k >= 1: pads each dimension to a
// multiple of 2^r, runs the levels on the padded sizes and shows the caller
// the recursive layouts clipped to the true sizes (strassen_layout.hpp clip).
class StrassenPlan : public Plan {
 public:
  StrassenPlan(const Config& cfg, const Options& opt, const Problem& pb, int r, const Comm& comm);
  const Layout& layout_a() const override { return a_; }
  const Layout& layout_b() const override { return b_; }
  const Layout& layout_c() const override { return c_; }
  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override { top_->multiply(A, B, C); }
  Index workspace_doubles() const override { return top_->workspace_doubles(); }
  // Strassen's normwise error bound grows by up to about 12 per level
  // (Higham, Accuracy and Stability, Thm. 23.2: the factor 12 from the 18
  // additions feeding each product); the classical limit times 12^r keeps
  // the check valid for r parallel levels: limit 16 * 12^r = 192 (r = 1),
  // 2304 (r = 2). The measured residuals sit far below (the residual
  // normalises by ||A|| ||B|| ||x|| k, and random [-1, 1] data is far from
  // the worst case): about 3e-4 .. 3e-3 at r = 1 and r = 2 for n <= 128
  // (tests/mpi/test_strassen prints them), the same order as classical
  // algorithms' 3e-4 .. 1e-3 -- the limit guards against wrong blocks (which
  // give residuals of 1e10 and more), not against Strassen's rounding.
  double error_growth() const override;
  std::map<std::string, std::string> describe() const override;
  AsRun as_run(const Options& asked, int ranks) const override {
    AsRun used = top_->as_run(asked, ranks);
    used.opt.recursions = r_;
    used.ranks = ranks;
    return used;
  }
  std::string warning() const override { return top_->warning(); }
  const Level& top() const { return *top_; }

 private:
  Config cfg_;
  int r_;
  std::unique_ptr<Level> top_;
  Layout a_, b_, c_;
};

}  // namespace mmbench::algos::strassen
