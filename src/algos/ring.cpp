// ring: the 1D k-panel ring (docs/method.md §2.3, thesis section 2.4.4).
//
// Layout: rank i owns rows R_i of A (all k columns) and of C (all n
// columns), and columns C_i of B (all k rows); R_i and C_i are contiguous
// blocks, the first ranks taking one extra row/column when p does not
// divide m or n (layout.hpp block_start/block_size).
//
// p steps. In step s rank i holds the B block of rank j = (i - s) mod p and
// computes C(R_i, C_j) = A(R_i, :) * B(:, C_j); meanwhile it passes that
// block on to rank i + 1 and receives the next one from rank i - 1.
// Example, p = 3, rank 1: step 0 uses B_1, step 1 B_0, step 2 B_2.
// p local DGEMMs, p - 1 shifts, each overlapped with the DGEMM of the same
// step: the DGEMM is cut into a few column chunks with MPI_Testall between
// them, because Open MPI only moves a large (rendezvous) message while the
// program is inside an MPI call.
#include <mpi.h>

#include <algorithm>

#include "space/ring_chunks.hpp"
#include "algos/algorithm.hpp"
#include "algos/one_d_layout.hpp"
#include "core/mpi_check.hpp"
#include "local/local_multiply.hpp"
#include "model/algorithm_models.hpp"
#include "model/paper_model.hpp"

namespace mmbench::algos {

namespace {

class RingPlan : public Plan {
 public:
  RingPlan(const Problem& pb, const Options& opt, const Comm& comm)
      : pb_(pb), comm_(comm),
        local_(opt.local, opt.threads),
        l_(one_d_layouts(pb, comm.size())) {
    const Index widest = block_size(pb.n, comm.size(), 0);
    if (comm.size() > 1)
      for (auto& buf : buf_) buf.assign(static_cast<std::size_t>(widest * pb.k), 0.0);
    // The widest block is the largest local multiply (ring's chunks are narrower).
    local_.prepare(block_size(pb.m, comm.size(), comm.rank()), widest, pb.k);
  }
  const Layout& layout_a() const override { return l_.a; }
  const Layout& layout_b() const override { return l_.b; }
  const Layout& layout_c() const override { return l_.c; }
  Index workspace_doubles() const override {
    return static_cast<Index>(buf_[0].size() + buf_[1].size()) + local_.workspace_doubles();
  }
  double error_growth() const override { return local_.error_growth(); }
  std::map<std::string, std::string> describe() const override { return local_.describe(); }

  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    const int p = comm_.size(), me = comm_.rank();
    const Index my_rows = block_size(pb_.m, p, me), k = pb_.k;
    const Index lda = std::max<Index>(1, my_rows), ldb = std::max<Index>(1, k);
    const int next = (me + 1) % p, prev = (me - 1 + p) % p;
    const double* cur = B.data();
    int spare = 0;  // buf_[spare] is free to receive into
    for (int s = 0; s < p; ++s) {
      const int j = (me - s + p) % p;  // owner of the block held now
      const Index w = block_size(pb_.n, p, j);
      MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
      double* incoming = nullptr;
      if (s < p - 1) {
        const int jn = (me - s - 1 + p) % p;
        incoming = buf_[spare].data();
        MMBENCH_MPI(MPI_Irecv(incoming, static_cast<int>(k * block_size(pb_.n, p, jn)), MPI_DOUBLE, prev, 11,
                              comm_.get(), &req[0]));
        MMBENCH_MPI(MPI_Isend(cur, static_cast<int>(k * w), MPI_DOUBLE, next, 11, comm_.get(), &req[1]));
      }
      double* cblock = C.data() + block_start(pb_.n, p, j) * lda;
      // Chunks of the column block; progress the shift between them.
      const Index chunks = ring_chunks(w, s == p - 1, local_.config().levels, local_.config().min_dim);
      for (Index c = 0; c < chunks; ++c) {
        Index c0 = block_start(w, static_cast<int>(chunks), static_cast<int>(c));
        Index cw = block_size(w, static_cast<int>(chunks), static_cast<int>(c));
        local_(my_rows, cw, k, A.data(), lda, cur + c0 * ldb, ldb, cblock + c0 * lda, lda);
        if (s < p - 1) {
          int done = 0;
          MMBENCH_MPI(MPI_Testall(2, req, &done, MPI_STATUSES_IGNORE));
        }
      }
      if (s < p - 1) {
        MMBENCH_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        cur = incoming;
        spare = 1 - spare;
      }
    }
  }

 private:
  Problem pb_;
  const Comm& comm_;
  local::LocalMultiply local_;
  OneDLayouts l_;
  LargeVector<double> buf_[2];
};

// Cost models: eqs. 2.12/2.13.
model::Prediction paper_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::scale_comp(model::paper_ring(model::square_n(pb), p, mp), 1.0 / model::threads_of(opt));
}

model::Prediction refined_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::refined_ring(double(pb.m), double(pb.n), double(pb.k), p, model::threads_of(opt), mp,
                             model::local_of(opt.local));
}

class Ring : public Algorithm {
 public:
  std::string_view name() const override { return "ring"; }
  std::string_view summary() const override { return "1D ring: p local DGEMMs, B blocks shifted, shifts overlapped"; }
  std::string_view requirements() const override { return "any p, any m, n, k"; }
  std::string_view layout() const override { return "A, C in row blocks; B in column blocks (remainders to the first ranks)"; }
  Applicability check(const Problem& pb, const Options&, int ranks) const override {
    return one_d_message_limit(pb, ranks);
  }
  double estimate_doubles_per_rank(const Problem& pb, const Options& o, int ranks) const override {
    return Algorithm::estimate_doubles_per_rank(pb, o, ranks) + one_d_buffer_doubles(pb, ranks) +
           one_d_local_workspace_doubles(pb, o, ranks);
  }
  Uses uses() const override { return Uses{.local_levels = true}; }
  std::vector<std::string> columns() const override { return local::LocalMultiply::columns(); }
  std::unique_ptr<Plan> plan(const Problem& pb, const Options& opt, const Comm& comm) const override {
    return std::make_unique<RingPlan>(pb, opt, comm);
  }
  const model::AlgorithmModel& models() const override {
    static const model::AlgorithmModel m{.paper = paper_time, .refined = refined_time};
    return m;
  }
};

}  // namespace

const Algorithm& ring_algorithm() {
  static const Ring a;
  return a;
}

}  // namespace mmbench::algos
