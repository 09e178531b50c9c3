#include "core/blas.hpp"

#include <cblas.h>

#include <climits>
#include <stdexcept>

#include "core/simulation.hpp"

namespace mmbench {

// Simulated ranks (SMPI) share one process and its OpenBLAS, which always
// runs one thread there; the count asked for is only remembered, so that
// charged DGEMMs of the dgemm peer (p cores on rank 0) cost 1/threads.
#ifdef MMBENCH_SMPI
void set_blas_threads(int threads) {
  openblas_set_num_threads(1);
  sim::set_rank_threads(threads);
}
int blas_threads() { return sim::rank_threads(); }
#else
void set_blas_threads(int threads) { openblas_set_num_threads(threads); }
int blas_threads() { return openblas_get_num_threads(); }
#endif
std::string blas_config() { return openblas_get_config(); }

ScopedBlasThreads::ScopedBlasThreads(int threads) : previous_(blas_threads()) { set_blas_threads(threads); }
ScopedBlasThreads::~ScopedBlasThreads() { set_blas_threads(previous_); }

void dgemm(Index m, Index n, Index k, const double* A, Index lda, const double* B, Index ldb,
           double beta, double* C, Index ldc) {
  if (m == 0 || n == 0) return;
  if (sim::charged()) return sim::charge_dgemm(m, n, k);  // simulated: costs time, computes nothing
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
    throw std::invalid_argument("dgemm: dimension beyond the 32-bit BLAS interface");
  if (k == 0) {  // BLAS would still scale C by beta; do the same explicitly.
    for (Index j = 0; j < n; ++j)
      for (Index i = 0; i < m; ++i) C[i + j * ldc] *= beta;
    return;
  }
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), 1.0, A, static_cast<int>(lda), B, static_cast<int>(ldb), beta, C,
              static_cast<int>(ldc));
}

}  // namespace mmbench
