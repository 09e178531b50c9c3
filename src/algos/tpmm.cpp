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

#include <algorithm>
#include <stdexcept>

#include "algos/algorithm.hpp"
#include "algos/one_d_layout.hpp"
#include "local/local_multiply.hpp"
#include "model/algorithm_models.hpp"
#include "model/paper_model.hpp"
#include "algos/tpmm_schedule.hpp"
#include "core/blas.hpp"
#include "core/mpi_check.hpp"

namespace mmbench::algos {

namespace {

class TpmmPlan : public Plan {
 public:
  TpmmPlan(const Problem& pb, const Options& opt, const Comm& comm)
      : pb_(pb), comm_(comm),
        local_(opt.local, opt.threads),
        steps_(tpmm_schedule(comm.size(), comm.rank())),
        l_(one_d_layouts(pb, comm.size())) {
    const Index widest = block_size(pb.n, comm.size(), 0);
    if (comm.size() > 1)
      for (auto& buf : buf_) buf.assign(static_cast<std::size_t>(widest * pb.k), 0.0);
    // Every step multiplies one column block; the widest is the largest multiply.
    local_.prepare(block_size(pb.m, comm.size(), comm.rank()), widest, pb.k);
    // Node of every rank: the lowest rank (in comm) sharing my node.
    Comm node = comm.split_node();
    int lowest = 0, mine = comm.rank();
    MMBENCH_MPI(MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, node.get()));
    std::vector<int> node_of(static_cast<std::size_t>(comm.size()));
    MMBENCH_MPI(MPI_Allgather(&lowest, 1, MPI_INT, node_of.data(), 1, MPI_INT, comm.get()));
    // The CSV reports the minimum over ranks: eq. 2.2 is an "at least" bound.
    node_local_min_ = static_cast<int>(-comm.max(static_cast<long long>(-tpmm_node_local_swaps(node_of, mine))));
  }
  const Layout& layout_a() const override { return l_.a; }
  const Layout& layout_b() const override { return l_.b; }
  const Layout& layout_c() const override { return l_.c; }
  Index workspace_doubles() const override {
    return static_cast<Index>(buf_[0].size() + buf_[1].size()) + local_.workspace_doubles();
  }
  double error_growth() const override { return local_.error_growth(); }

  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    const int p = comm_.size(), me = comm_.rank();
    const Index my_rows = block_size(pb_.m, p, me), k = pb_.k;
    const Index lda = std::max<Index>(1, my_rows), ldb = std::max<Index>(1, k);
    const double* cur = B.data();
    int spare = 0;  // buf_[spare] is free to receive into
    for (const TpmmStep& st : steps_) {
      const Index w = block_size(pb_.n, p, st.block);
      local_(my_rows, w, k, A.data(), lda, cur, ldb, C.data() + block_start(pb_.n, p, st.block) * lda, lda);
      if (st.partner < 0) break;
      double* incoming = buf_[spare].data();
      MPI_Request req[2];
      MMBENCH_MPI(MPI_Irecv(incoming, static_cast<int>(k * block_size(pb_.n, p, st.incoming)), MPI_DOUBLE,
                            st.partner, 12, comm_.get(), &req[0]));
      MMBENCH_MPI(MPI_Isend(cur, static_cast<int>(k * w), MPI_DOUBLE, st.partner, 12, comm_.get(), &req[1]));
      MMBENCH_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
      cur = incoming;
      spare = 1 - spare;
    }
  }
  std::map<std::string, std::string> describe() const override {
    auto d = local_.describe();
    d["exchanges_total"] = std::to_string(comm_.size() - 1);
    d["exchanges_node_local"] = std::to_string(node_local_min_);
    return d;
  }

 private:
  Problem pb_;
  const Comm& comm_;
  local::LocalMultiply local_;
  std::vector<TpmmStep> steps_;
  OneDLayouts l_;
  LargeVector<double> buf_[2];
  int node_local_min_ = 0;
};

// Cost models: eqs. 2.14/2.15.
model::Prediction paper_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::scale_comp(model::paper_tpmm(model::square_n(pb), p, mp), 1.0 / model::threads_of(opt));
}

model::Prediction refined_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::refined_tpmm(double(pb.m), double(pb.n), double(pb.k), p, model::threads_of(opt), mp,
                             model::local_of(opt.local));
}

class Tpmm : public Algorithm {
 public:
  std::string_view name() const override { return "tpmm"; }
  std::string_view summary() const override {
    return "task-parallel hierarchical k-panel update: p DGEMMs, p-1 pairwise B swaps (binary tree)";
  }
  std::string_view requirements() const override { return "p a power of two; any m, n, k"; }
  std::string_view layout() const override { return "A, C in row blocks; B in column blocks (as ring)"; }
  Applicability check(const Problem& pb, const Options&, int ranks) const override {
    if (ranks < 1 || (ranks & (ranks - 1)) != 0)
      return {"tpmm needs p a power of two (p = " + std::to_string(ranks) + ")"};
    return one_d_message_limit(pb, ranks);
  }
  double estimate_doubles_per_rank(const Problem& pb, const Options& o, int ranks) const override {
    return Algorithm::estimate_doubles_per_rank(pb, o, ranks) + one_d_buffer_doubles(pb, ranks) +
           one_d_local_workspace_doubles(pb, o, ranks);
  }
  Uses uses() const override { return Uses{.local_levels = true}; }
  std::vector<std::string> columns() const override {
    std::vector<std::string> c = local::LocalMultiply::columns();
    c.insert(c.end(), {"exchanges_total", "exchanges_node_local"});
    return c;
  }
  std::unique_ptr<Plan> plan(const Problem& pb, const Options& opt, const Comm& comm) const override {
    return std::make_unique<TpmmPlan>(pb, opt, comm);
  }
  const model::AlgorithmModel& models() const override {
    static const model::AlgorithmModel m{.paper = paper_time, .refined = refined_time};
    return m;
  }
};

}  // namespace

const Algorithm& tpmm_algorithm() {
  static const Tpmm a;
  return a;
}

}  // namespace mmbench::algos
