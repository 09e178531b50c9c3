#include "algos/one_d_algorithm.hpp"

#include <algorithm>

#include "core/mpi/mpi_check.hpp"

namespace mmbench::algos {

OneDPlan::OneDPlan(const Problem& pb, const Options& opt, const Comm& comm)
    : pb_(pb), comm_(comm), local_(opt.local, opt.threads), l_(one_d_layouts(pb, comm.size())) {
  const Index widest = block_size(pb.n, comm.size(), 0);
  if (comm.size() > 1)
    for (auto& buf : buf_) buf.assign(static_cast<std::size_t>(widest * pb.k), 0.0);
  // The widest block is the largest local multiply (ring's chunks are narrower).
  local_.prepare(block_size(pb.m, comm.size(), comm.rank()), widest, pb.k);
}

Index OneDPlan::workspace_doubles() const {
  return static_cast<Index>(buf_[0].size() + buf_[1].size()) + local_.workspace_doubles();
}

void OneDPlan::Shifts::start(Index send_cols, int to, Index recv_cols, int from, int tag) {
  const Index k = plan_.pb_.k;
  incoming_ = plan_.buf_[spare_].data();
  MMBENCH_MPI(MPI_Irecv(incoming_, static_cast<int>(k * recv_cols), MPI_DOUBLE, from, tag, plan_.comm_.get(),
                        &req_[0]));
  MMBENCH_MPI(MPI_Isend(cur_, static_cast<int>(k * send_cols), MPI_DOUBLE, to, tag, plan_.comm_.get(), &req_[1]));
}

void OneDPlan::Shifts::progress() {
  int done = 0;
  MMBENCH_MPI(MPI_Testall(2, req_, &done, MPI_STATUSES_IGNORE));
}

void OneDPlan::Shifts::finish() {
  MMBENCH_MPI(MPI_Waitall(2, req_, MPI_STATUSES_IGNORE));
  cur_ = incoming_;
  spare_ = 1 - spare_;
}

void OneDPlan::multiply_block(const DistMatrix& A, const double* b, int owner, Index c0, Index cols,
                              DistMatrix& C) {
  const int p = comm_.size(), me = comm_.rank();
  const Index my_rows = block_size(pb_.m, p, me), k = pb_.k;
  const Index lda = std::max<Index>(1, my_rows), ldb = std::max<Index>(1, k);
  double* cblock = C.data() + block_start(pb_.n, p, owner) * lda;
  local_(my_rows, cols, k, A.data(), lda, b + c0 * ldb, ldb, cblock + c0 * lda, lda);
}

MemoryEstimate OneDAlgorithm::plan_memory(const Problem& pb, const Options& o, int ranks) const {
  // Rank 0 holds the most: the first ranks take the remainders.
  const double rows = double(block_size(pb.m, ranks, 0)), widest = double(block_size(pb.n, ranks, 0));
  MemoryEstimate m;
  add_buffers(m, &MemoryEstimate::a, rows * double(pb.k));
  add_buffers(m, &MemoryEstimate::b, double(pb.k) * widest);
  add_buffers(m, &MemoryEstimate::c, rows * double(pb.n));
  add_buffers(m, &MemoryEstimate::comm, one_d_buffer_doubles(pb, ranks) / 2, 2);
  add_buffers(m, &MemoryEstimate::local, one_d_local_workspace_doubles(pb, o, ranks));
  return m;
}

}  // namespace mmbench::algos
