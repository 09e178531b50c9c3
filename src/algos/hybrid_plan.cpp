#include "algos/hybrid_plan.hpp"

#include <vector>

#include "core/machine/affinity.hpp"
#include "core/machine/blas.hpp"
#include "core/mpi/mpi_check.hpp"
#include "space/hybrid.hpp"

namespace mmbench::algos {

namespace {

// The inner layout as world rank 0 (inner rank 0) knows it, on every rank
// of `world`, its owners renumbered to world ranks. Each rank's buffer is
// at least the inner rank's (Strassen's padded layouts need more than their
// rectangles reach), nothing on the idle ranks.
Layout world_layout(const Layout* inner, const Comm& world, int t) {
  // Header: rows, cols, inner ranks, rectangles; then each inner rank's
  // buffer size; then 7 numbers per rectangle.
  std::vector<Index> head(4, 0);
  if (world.rank() == 0)
    head = {inner->rows(), inner->cols(), Index{inner->ranks()}, static_cast<Index>(inner->rects().size())};
  mpi_check(MPI_Bcast(head.data(), 4, MPI_INT64_T, 0, world.get()), "MPI_Bcast (hybrid layout)");
  const int inner_ranks = static_cast<int>(head[2]);
  const std::size_t n_rects = static_cast<std::size_t>(head[3]);
  std::vector<Index> body(static_cast<std::size_t>(inner_ranks) + 7 * n_rects, 0);
  if (world.rank() == 0) {
    std::size_t i = 0;
    for (int r = 0; r < inner_ranks; ++r) body[i++] = inner->local_size(r);
    for (const Rect& q : inner->rects())
      for (Index v : {q.row, q.col, q.rows, q.cols, Index{q.owner}, q.offset, q.ld}) body[i++] = v;
  }
  if (!body.empty())
    mpi_check(MPI_Bcast(body.data(), static_cast<int>(body.size()), MPI_INT64_T, 0, world.get()),
              "MPI_Bcast (hybrid layout)");
  const std::string description = world.bcast_string(world.rank() == 0 ? inner->description() : "", 0);
  std::vector<Index> min_sizes(static_cast<std::size_t>(world.size()), 0);
  for (int r = 0; r < inner_ranks; ++r) min_sizes[space::hybrid_world_rank(r, t)] = body[r];
  std::vector<Rect> rects(n_rects);
  for (std::size_t k = 0; k < n_rects; ++k) {
    const Index* v = &body[inner_ranks + 7 * k];
    rects[k] = Rect{v[0], v[1], v[2], v[3], space::hybrid_world_rank(static_cast<int>(v[4]), t), v[5], v[6]};
  }
  return Layout(head[0], head[1], world.size(), std::move(rects), description + " on one rank in " + std::to_string(t),
                min_sizes);
}

class HybridPlan : public Plan {
 public:
  HybridPlan(std::unique_ptr<Plan> inner, std::unique_ptr<Comm> workers, const Comm& world, int t,
             const Options& inner_opt)
      : workers_(std::move(workers)),
        inner_(std::move(inner)),
        inner_opt_(inner_opt),
        inner_ranks_(world.size() / t),
        node_(node_cpus(world)),
        group_{world.rank(), t},
        a_(world_layout(inner_ ? &inner_->layout_a() : nullptr, world, t)),
        b_(world_layout(inner_ ? &inner_->layout_b() : nullptr, world, t)),
        c_(world_layout(inner_ ? &inner_->layout_c() : nullptr, world, t)) {}

  const Layout& layout_a() const override { return a_; }
  const Layout& layout_b() const override { return b_; }
  const Layout& layout_c() const override { return c_; }
  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    if (!inner_) return;
    // The computing ranks run t x threads threads on the cores of their
    // idle neighbours (mpirun bound each rank to one), as the dgemm peer's
    // rank 0 does with all of the node's; each on its own group's cores,
    // so that the groups' threads do not meet (affinity.hpp has the
    // example).
    {
      const ScopedWideAffinity wide(inner_opt_.threads, &node_, group_);
      const ScopedBlasThreads threads(inner_opt_.threads);
      inner_->multiply(A, B, C);
    }
    // Their BLAS workers would spin on the idle neighbours' cores for about
    // 0.1 s more, while those ranks go on with the program (the dispatcher
    // returns to it): end them. The next hybrid multiply starts them again.
    end_blas_workers();
  }
  bool takes_part() const override { return inner_ && inner_->takes_part(); }
  Index workspace_doubles() const override { return inner_ ? inner_->workspace_doubles() : 0; }
  double error_growth() const override { return inner_ ? inner_->error_growth() : 1.0; }
  std::map<std::string, std::string> describe() const override {
    return inner_ ? inner_->describe() : std::map<std::string, std::string>{};
  }
  // As the plain algorithm ran on the computing ranks: p / t ranks, t x
  // threads threads (the CSV's p and threads), priced as that.
  AsRun as_run(const Options&, int) const override {
    if (inner_) return inner_->as_run(inner_opt_, inner_ranks_);
    return {inner_opt_, inner_ranks_};
  }
  std::string warning() const override { return inner_ ? inner_->warning() : std::string(); }

 private:
  // The inner plan keeps a reference to its communicator: workers_ is
  // declared first, so it is destroyed after the plan.
  std::unique_ptr<Comm> workers_;
  std::unique_ptr<Plan> inner_;
  Options inner_opt_;
  int inner_ranks_;
  // The masks of this node's ranks of `world`, and the ranks whose cores
  // this one takes: itself and the idle ones after it (space/hybrid.hpp:
  // every t-th rank computes). Gathered by the plan, not taken from
  // run_command's record, so that a plan on any communicator (the
  // dispatcher's grids) numbers its group as its masks.
  NodeCpus node_;
  RankGroup group_;
  Layout a_, b_, c_;
};

}  // namespace

std::unique_ptr<Plan> make_hybrid_plan(std::unique_ptr<Plan> inner, std::unique_ptr<Comm> workers, const Comm& world,
                                       int t, const Options& inner_opt) {
  return std::make_unique<HybridPlan>(std::move(inner), std::move(workers), world, t, inner_opt);
}

}  // namespace mmbench::algos
