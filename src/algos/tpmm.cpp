// tpmm: the task-parallel hierarchical k-panel update (docs/method.md §2.4, thesis
// section 2.3, Alg. 2.1).
//
// Layout: Ring's (rank i owns rows R_i of A and C, columns C_i of B; the
// first ranks take one extra row/column when p does not divide m or n).
// p = 2^i. The groups halve recursively; the schedule (tpmm_schedule.hpp)
// says which B block a rank multiplies in each of its p steps and with whom
// it swaps blocks in between: p local DGEMMs, p - 1 pairwise swaps, the
// partners at distance p/2, p/4, ... -- a binary tree, so most swaps stay
// inside a node when consecutive ranks share one (eq. 2.2).
//
// Node locality is measured, not assumed: ranks are grouped by node with
// MPI_Comm_split_type(SHARED) (Comm::split_node), every rank's node id (the
// lowest rank of its node) is gathered, and the schedule's swaps are counted.
#include <mpi.h>

#include <string>
#include <vector>

#include "algos/one_d_algorithm.hpp"
#include "algos/tpmm_schedule.hpp"
#include "core/mpi/mpi_check.hpp"
#include "model/paper_model.hpp"

namespace mmbench::algos {

namespace {

class TpmmPlan : public OneDPlan {
 public:
  TpmmPlan(const Problem& pb, const Options& opt, const Comm& comm)
      : OneDPlan(pb, opt, comm), steps_(tpmm_schedule(comm.size(), comm.rank())) {
    // Node of every rank: the lowest rank (in comm) sharing my node.
    Comm node = comm.split_node();
    int lowest = 0, mine = comm.rank();
    MMBENCH_MPI(MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, node.get()));
    std::vector<int> node_of(static_cast<std::size_t>(comm.size()));
    MMBENCH_MPI(MPI_Allgather(&lowest, 1, MPI_INT, node_of.data(), 1, MPI_INT, comm.get()));
    // The CSV reports the minimum over ranks: eq. 2.2 is an "at least" bound.
    node_local_min_ = static_cast<int>(-comm.max(static_cast<long long>(-tpmm_node_local_swaps(node_of, mine))));
  }

  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    const int p = comm_.size();
    Shifts b(*this, B.data());
    for (const TpmmStep& st : steps_) {
      const Index w = block_size(pb_.n, p, st.block);
      multiply_block(A, b.current(), st.block, 0, w, C);
      if (st.partner < 0) break;
      b.start(w, st.partner, block_size(pb_.n, p, st.incoming), st.partner, 12);
      b.finish();
    }
  }
  std::map<std::string, std::string> describe() const override {
    auto d = OneDPlan::describe();
    d["exchanges_total"] = std::to_string(comm_.size() - 1);
    d["exchanges_node_local"] = std::to_string(node_local_min_);
    return d;
  }

 private:
  std::vector<TpmmStep> steps_;
  int node_local_min_ = 0;
};

class Tpmm : public OneDAlgorithm {
 public:
  std::string_view name() const override { return "tpmm"; }
  std::string_view summary() const override {
    return "task-parallel hierarchical k-panel update: p DGEMMs, p-1 pairwise B swaps (binary tree)";
  }
  std::string_view requirements() const override { return "p a power of two; any m, n, k"; }
  std::string_view layout() const override { return "A, C in row blocks; B in column blocks (as ring)"; }
  Applicability check_on_ranks(const Problem& pb, const Options&, int ranks) const override {
    if (ranks < 1 || (ranks & (ranks - 1)) != 0)
      return {"tpmm needs p a power of two (p = " + std::to_string(ranks) + ")"};
    return one_d_message_limit(pb, ranks);
  }
  std::vector<std::string> columns() const override {
    std::vector<std::string> c = OneDAlgorithm::columns();
    c.insert(c.end(), {"exchanges_total", "exchanges_node_local"});
    return c;
  }
  std::unique_ptr<Plan> plan_on_ranks(const Problem& pb, const Options& opt, const Comm& comm) const override {
    return std::make_unique<TpmmPlan>(pb, opt, comm);
  }
  // Eqs. 2.14/2.15.
  const model::AlgorithmModel& models() const override {
    return one_d_models<model::paper_tpmm, model::refined_tpmm>();
  }
};

}  // namespace

const Algorithm& tpmm_algorithm() {
  static const Tpmm a;
  return a;
}

}  // namespace mmbench::algos
