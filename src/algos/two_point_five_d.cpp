// 2.5d: communication-avoiding 2.5D matrix multiplication (Solomonik &
// Demmel 2011) with SUMMA inside each layer.
//
// Ranks: p = q^2 c. Rank r is in layer l = r / q^2 at grid position
// (i, j) = ((r mod q^2) / q, r mod q) -- row-major inside a layer.
// Example, p = 8, c = 2 (q = 2): ranks 0-3 form layer 0 with
// (0,0)=0 (0,1)=1 (1,0)=2 (1,1)=3; ranks 4-7 the same positions in layer 1.
//
// Layout (as data, layout.hpp): layer 0 owns everything. A (m x k) is cut
// into q x q blocks, rows by block_start(m, q, i), columns by
// block_start(k, q, j); B (k x n) rows by k's split, columns by n's; C
// (m x n) by m's and n's. Rank (i, j, 0) owns block (i, j) of each. The
// other layers own nothing before and after the multiplication, so
// generation, verification and the CSV see one ordinary 2D block layout.
//
// multiply():
//   1. replicate: layer 0 broadcasts its A and B blocks to the same
//      position of every layer (MPI_Bcast over the "depth" communicator);
//   2. layer l takes the k-range K_l = [block_start(k, c, l), +block_size)
//      and runs SUMMA over it: for every grid column s whose k-block meets
//      K_l, the piece A(i, piece) is broadcast along grid row i from
//      (i, s), the piece B(piece, j) down grid column j from (s, j), and
//      C_ij += A(i, piece) * B(piece, j) (DGEMM with beta = 1). Example,
//      k = 10, q = 2, c = 2: k-blocks [0,5) [5,10), K_0 = [0,5), K_1 =
//      [5,10): each layer does one SUMMA step of width 5;
//   3. reduce: C_ij is summed over the layers into layer 0 along a binomial
//      tree of the depth line: in stage s (mask = 2^s) a layer l with bit s
//      set sends its partial C to l - mask and stops; a layer l + mask < c
//      below it receives into its own buffer and adds. Example, c = 4:
//      stage 0: 1 -> 0, 3 -> 2; stage 1: 2 -> 0. Point to point into a
//      buffer the plan holds, not MPI_Reduce: Open MPI's reduction takes a
//      fresh temporary of the block on every call, and where first touching
//      memory is slow that costs more than the multiply (docs/results.md,
//      "2.5D's reduction").
// Cost (square n): 2 n^3 / p flops per rank; q / c SUMMA steps per layer,
// each two broadcasts of (n/q)^2 words; replication and reduction of
// (n/q)^2 words over c layers -> words ~ n^2 / sqrt(c p), messages
// ~ sqrt(p / c^3) (times the broadcast trees' log factors). The cost models
// (models() below) evaluate the formulas of model/two_point_five_d_model.hpp.
#include "space/replicas.hpp"

#include "algos/algorithm.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "core/machine/blas.hpp"
#include "core/matrix/large_buffer.hpp"
#include "core/matrix/local_copy.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/simulation.hpp"
#include "model/algorithm_models.hpp"
#include "model/two_point_five_d_model.hpp"

namespace mmbench::algos {

namespace {

// The c the plan uses: opt.replicas, or the largest choice (no memory
// limit known here; the CLI resolves `--replicas auto` with the memory).
int replicas_of(const Options& opt, int p) { return opt.replicas > 0 ? opt.replicas : replica_choices(p).back(); }

// Does layer l receive a partial C from another layer in the reduction's
// tree over c layers (see the file comment)? Layer 0 does for c > 1; a layer
// above it when its lowest set bit's stage has a partner: l = 2 for c >= 4.
bool receives_in_reduction(int l, int c) {
  for (int mask = 1; mask < c; mask <<= 1) {
    if (l & mask) return false;
    if (l + mask < c) return true;
  }
  return false;
}

// x[0:count] += y[0:count]: a partial C received from another layer.
void add_into(double* x, const double* y, Index count) {
  if (sim::charged()) return sim::charge_add(count, 24 * count);  // read x and y, write x
  for (Index e = 0; e < count; ++e) x[e] += y[e];
}

Layout blocks_on_layer0(Index rows, Index cols, int q, int ranks) {
  std::vector<Rect> rects;
  for (int i = 0; i < q; ++i)
    for (int j = 0; j < q; ++j) {
      Rect r;
      r.row = block_start(rows, q, i);
      r.col = block_start(cols, q, j);
      r.rows = block_size(rows, q, i);
      r.cols = block_size(cols, q, j);
      r.owner = i * q + j;
      r.offset = 0;
      r.ld = std::max<Index>(1, r.rows);
      rects.push_back(r);
    }
  return Layout(rows, cols, ranks, std::move(rects), "2.5D: q x q blocks on layer 0 of " + std::to_string(ranks / (q * q)));
}

class TwoPointFiveDPlan : public Plan {
 public:
  TwoPointFiveDPlan(const Problem& pb, const Options& opt, const Comm& comm)
      : pb_(pb), c_(replicas_of(opt, comm.size())), q_(layer_grid_side(comm.size(), c_)),
        layer_(comm.rank() / (q_ * q_)), i_((comm.rank() % (q_ * q_)) / q_), j_(comm.rank() % q_),
        a_(blocks_on_layer0(pb.m, pb.k, q_, comm.size())),
        b_(blocks_on_layer0(pb.k, pb.n, q_, comm.size())),
        c_layout_(blocks_on_layer0(pb.m, pb.n, q_, comm.size())),
        // Depth: the same (i, j) in every layer, layer 0 first (the root).
        depth_(comm.split(i_ * q_ + j_, layer_)),
        row_(comm.split(layer_ * q_ + i_, j_)),
        col_(comm.split(layer_ * q_ + j_, i_)) {
    bm_ = block_size(pb.m, q_, i_);
    bn_ = block_size(pb.n, q_, j_);
    // Copies of this position's blocks on the layers above 0.
    if (layer_ > 0) {
      a_copy_.assign(static_cast<std::size_t>(bm_ * block_size(pb.k, q_, j_)), 0.0);
      b_copy_.assign(static_cast<std::size_t>(block_size(pb.k, q_, i_) * bn_), 0.0);
      c_part_.assign(static_cast<std::size_t>(bm_ * bn_), 0.0);
    }
    if (receives_in_reduction(layer_, c_)) received_.assign(static_cast<std::size_t>(bm_ * bn_), 0.0);
    const Index widest_k = block_size(pb.k, q_, 0);
    a_panel_.assign(static_cast<std::size_t>(bm_ * widest_k), 0.0);
    b_panel_.assign(static_cast<std::size_t>(widest_k * bn_), 0.0);
  }
  const Layout& layout_a() const override { return a_; }
  const Layout& layout_b() const override { return b_; }
  const Layout& layout_c() const override { return c_layout_; }
  Index workspace_doubles() const override {
    return static_cast<Index>(a_copy_.size() + b_copy_.size() + c_part_.size() + received_.size() + a_panel_.size() +
                              b_panel_.size());
  }
  std::map<std::string, std::string> describe() const override {
    // grid: q x q x c (the layers' grid and their number).
    return {{"replicas", std::to_string(c_)},
            {"grid", std::to_string(q_) + "x" + std::to_string(q_) + "x" + std::to_string(c_)}};
  }

  AsRun as_run(const Options& asked, int ranks) const override {
    AsRun r{asked, ranks};
    r.opt.replicas = c_;
    return r;
  }

  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    // Blocks of this position: layer 0's own buffers, the copies elsewhere.
    // (MPI_Bcast takes a non-const buffer; the root only reads it.)
    const Index ka = block_size(pb_.k, q_, j_), kb = block_size(pb_.k, q_, i_);
    double* a = layer_ == 0 ? const_cast<double*>(A.data()) : a_copy_.data();
    double* b = layer_ == 0 ? const_cast<double*>(B.data()) : b_copy_.data();
    double* c = layer_ == 0 ? C.data() : c_part_.data();
    // 1. Replicate A and B blocks over the layers.
    if (c_ > 1) {
      bcast(a, bm_ * ka, 0, depth_);
      bcast(b, kb * bn_, 0, depth_);
    }
    fill_zero(c, bm_ * bn_);
    // 2. SUMMA over this layer's k-range.
    const Index k0 = block_start(pb_.k, c_, layer_), k1 = k0 + block_size(pb_.k, c_, layer_);
    for (int s = 0; s < q_; ++s) {
      const Index s0 = block_start(pb_.k, q_, s), s1 = s0 + block_size(pb_.k, q_, s);
      const Index lo = std::max(k0, s0), hi = std::min(k1, s1);
      if (lo >= hi) continue;
      const Index w = hi - lo;
      // A(i, lo:hi): columns lo - s0 .. of the block on (i, s), contiguous.
      double* ap = a_panel_.data();
      if (j_ == s) copy_block(a + (lo - s0) * std::max<Index>(1, bm_), bm_, ap, bm_, bm_, w);
      bcast(ap, bm_ * w, s, row_);
      // B(lo:hi, j): rows lo - s0 .. of the block on (s, j), packed to w x bn.
      double* bp = b_panel_.data();
      if (i_ == s) {
        const Index ldb = std::max<Index>(1, s1 - s0);
        copy_block(b + (lo - s0), ldb, bp, w, w, bn_);
      }
      bcast(bp, w * bn_, s, col_);
      if (bm_ > 0 && bn_ > 0)
        dgemm(bm_, bn_, w, ap, std::max<Index>(1, bm_), bp, w, 1.0, c, std::max<Index>(1, bm_));
    }
    // 3. Sum C over the layers into layer 0 (the tree in the file comment).
    const Index count = bm_ * bn_;
    if (count == 0) return;
    for (int mask = 1; mask < c_; mask <<= 1) {
      if (layer_ & mask) {
        MMBENCH_MPI(MPI_Send(c, static_cast<int>(count), MPI_DOUBLE, layer_ - mask, kReduceTag, depth_.get()));
        break;
      }
      if (layer_ + mask < c_) {
        MMBENCH_MPI(MPI_Recv(received_.data(), static_cast<int>(count), MPI_DOUBLE, layer_ + mask, kReduceTag,
                             depth_.get(), MPI_STATUS_IGNORE));
        add_into(c, received_.data(), count);
      }
    }
  }

 private:
  static void bcast(double* buf, Index count, int root, const Comm& comm) {
    if (count > 0 && comm.size() > 1)
      MMBENCH_MPI(MPI_Bcast(buf, static_cast<int>(count), MPI_DOUBLE, root, comm.get()));
  }

  static constexpr int kReduceTag = 25;

  Problem pb_;
  int c_, q_, layer_, i_, j_;
  Index bm_ = 0, bn_ = 0;
  Layout a_, b_, c_layout_;
  Comm depth_, row_, col_;
  // LargeVector: shared pages in a charged simulation (core/matrix/large_buffer.hpp),
  // so p simulated ranks holding full copies (q = 1, c = p) fit in memory.
  LargeVector<double> a_copy_, b_copy_, c_part_, a_panel_, b_panel_;
  LargeVector<double> received_;  // a partial C from the layer above, where this layer receives one
};

// Cost models (model/two_point_five_d_model.hpp) at the c the plan uses.
model::Prediction paper_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::paper_two_point_five_d(double(model::square_n(pb)), p, replicas_of(opt, p), model::threads_of(opt),
                                       mp);
}

model::Prediction refined_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::refined_two_point_five_d(double(pb.m), double(pb.n), double(pb.k), p, replicas_of(opt, p),
                                         model::threads_of(opt), mp);
}

class TwoPointFiveD : public Algorithm {
 public:
  std::string_view name() const override { return "2.5d"; }
  std::string_view summary() const override {
    return "2.5D (Solomonik-Demmel): c layers of a q x q grid, SUMMA on 1/c of k per layer, C summed over layers";
  }
  std::string_view requirements() const override {
    return "p = q^2 x c (--replicas c; every p works with c = p); any m, n, k";
  }
  std::string_view layout() const override { return "A, B, C in q x q blocks on layer 0; copies of A, B on every layer"; }
  Uses uses() const override { return Uses{.replicas = true}; }
  std::vector<std::string> columns() const override { return {"replicas", "grid"}; }
  Applicability check_on_ranks(const Problem& pb, const Options& opt, int ranks) const override {
    const int c = replicas_of(opt, ranks);
    const int q = layer_grid_side(ranks, c);
    if (q == 0) {
      std::string ok;
      for (int x : replica_choices(ranks)) ok += (ok.empty() ? "" : ", ") + std::to_string(x);
      return {"--replicas " + std::to_string(c) + " does not fit p = " + std::to_string(ranks) +
              " (p = q^2 x c with whole q); allowed c: " + ok};
    }
    if (double(block_size(pb.m, q, 0)) * double(block_size(pb.n, q, 0)) > 2147483647.0 ||
        double(block_size(pb.m, q, 0)) * double(block_size(pb.k, q, 0)) > 2147483647.0 ||
        double(block_size(pb.k, q, 0)) * double(block_size(pb.n, q, 0)) > 2147483647.0)
      return {"a block exceeds one MPI message (2^31 elements); use more ranks or fewer replicas"};
    return {};
  }
  // Every grid position holds the same on every layer: layer 0 its A, B, C
  // blocks, a layer above it copies of them (replicas) and its partial C;
  // every rank two SUMMA panels; for c > 1, layer 0 (and any layer that
  // receives in the reduction's tree) one more C block to receive into.
  // Written with a layer above 0's parts, so that the replicas show where
  // c > 1, plus that receive buffer: the total of the rank that holds the
  // most. Position (0, 0) holds the most.
  MemoryEstimate plan_memory(const Problem& pb, const Options& opt, int ranks) const override {
    const int c = replicas_of(opt, ranks), q = layer_grid_side(ranks, c);
    const double bm = double(block_size(pb.m, q, 0)), bn = double(block_size(pb.n, q, 0)),
                 bk = double(block_size(pb.k, q, 0));
    MemoryEstimate m;
    add_buffers(m, c > 1 ? &MemoryEstimate::replicas : &MemoryEstimate::a, bm * bk);
    add_buffers(m, c > 1 ? &MemoryEstimate::replicas : &MemoryEstimate::b, bk * bn);
    add_buffers(m, c > 1 ? &MemoryEstimate::replicas : &MemoryEstimate::c, bm * bn);
    // The A and B panels, as wide as the widest k-block.
    add_buffers(m, &MemoryEstimate::comm, bm * bk);
    add_buffers(m, &MemoryEstimate::comm, bk * bn);
    // The partial C received while summing over the layers.
    if (c > 1) add_buffers(m, &MemoryEstimate::comm, bm * bn);
    return m;
  }
  std::unique_ptr<Plan> plan_on_ranks(const Problem& pb, const Options& opt, const Comm& comm) const override {
    return std::make_unique<TwoPointFiveDPlan>(pb, opt, comm);
  }
  const model::AlgorithmModel& models() const override {
    static const model::AlgorithmModel m{.paper = paper_time, .refined = refined_time};
    return m;
  }
};

}  // namespace

const Algorithm& two_point_five_d_algorithm() {
  static const TwoPointFiveD a;
  return a;
}

}  // namespace mmbench::algos
