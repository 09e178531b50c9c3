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
#include "algos/one_d_algorithm.hpp"
#include "model/paper_model.hpp"
#include "model/refined_model.hpp"
#include "space/ring_chunks.hpp"

namespace mmbench::algos {

namespace {

class RingPlan : public OneDPlan {
 public:
  RingPlan(const Problem& pb, const Options& opt, const Comm& comm)
      : OneDPlan(pb, opt, comm), most_chunks_(opt.ring_chunks) {}

  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    const int p = comm_.size(), me = comm_.rank();
    const int next = (me + 1) % p, prev = (me - 1 + p) % p;
    Shifts b(*this, B.data());
    for (int s = 0; s < p; ++s) {
      const int j = (me - s + p) % p;  // owner of the block held now
      const Index w = block_size(pb_.n, p, j);
      if (s < p - 1) b.start(w, next, block_size(pb_.n, p, (me - s - 1 + p) % p), prev, 11);
      // Chunks of the column block; progress the shift between them.
      const Index chunks = ring_chunks(w, s == p - 1, local_.config().levels, local_.config().min_dim, most_chunks_);
      if (s == 0) first_step_chunks_ = chunks;
      for (Index c = 0; c < chunks; ++c) {
        Index c0 = block_start(w, static_cast<int>(chunks), static_cast<int>(c));
        Index cw = block_size(w, static_cast<int>(chunks), static_cast<int>(c));
        multiply_block(A, b.current(), j, c0, cw, C);
        if (s < p - 1) b.progress();
      }
      if (s < p - 1) b.finish();
    }
  }
  // The chunks the first step ran in (it shifts where p > 1), once a
  // multiply ran; before, what it will run.
  std::map<std::string, std::string> describe() const override {
    auto d = OneDPlan::describe();
    const int p = comm_.size();
    d["ring_chunks"] = std::to_string(first_step_chunks_ > 0
                                          ? first_step_chunks_
                                          : ring_chunks(block_size(pb_.n, p, comm_.rank()), p == 1,
                                                        local_.config().levels, local_.config().min_dim, most_chunks_));
    return d;
  }

 private:
  int most_chunks_;              // Options::ring_chunks: 0 = up to 4
  Index first_step_chunks_ = 0;  // 0 until a multiply ran
};

class Ring : public OneDAlgorithm {
 public:
  std::string_view name() const override { return "ring"; }
  std::string_view summary() const override { return "1D ring: p local DGEMMs, B blocks shifted, shifts overlapped"; }
  std::string_view requirements() const override { return "any p, any m, n, k"; }
  std::string_view layout() const override { return "A, C in row blocks; B in column blocks (remainders to the first ranks)"; }
  Applicability check_on_ranks(const Problem& pb, const Options&, int ranks) const override {
    return one_d_message_limit(pb, ranks);
  }
  Uses uses() const override { return Uses{.local_levels = true, .ring_chunks = true}; }
  std::vector<std::string> columns() const override {
    std::vector<std::string> c = OneDAlgorithm::columns();
    c.push_back("ring_chunks");
    return c;
  }
  std::unique_ptr<Plan> plan_on_ranks(const Problem& pb, const Options& opt, const Comm& comm) const override {
    return std::make_unique<RingPlan>(pb, opt, comm);
  }
  // Eqs. 2.12/2.13, with the chunks the options allow.
  const model::AlgorithmModel& models() const override {
    static const model::AlgorithmModel m{
        .paper = one_d_models<model::paper_ring, model::refined_ring>().paper,
        .refined = [](const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
          return model::refined_ring_chunked(double(pb.m), double(pb.n), double(pb.k), p, model::threads_of(opt), mp,
                                             model::local_of(opt.local), opt.ring_chunks);
        }};
    return m;
  }
};

}  // namespace

const Algorithm& ring_algorithm() {
  static const Ring a;
  return a;
}

}  // namespace mmbench::algos
