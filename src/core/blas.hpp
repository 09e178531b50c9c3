// The local BLAS: thread control and the column-major DGEMM every algorithm
// calls, so that the local kernel can be swapped in one place (e.g. the
// local Strassen–Winograd kernel).
#pragma once

#include <string>

#include "core/layout.hpp"

namespace mmbench {

// OpenBLAS threads for this rank (openblas_set_num_threads). The count is
// process-global: change it for a stretch of code with ScopedBlasThreads.
void set_blas_threads(int threads);
int blas_threads();
std::string blas_config();  // openblas_get_config()

// Sets the BLAS thread count for a scope and restores the previous one on
// leaving it, also by an exception, so a count meant for one computation
// never leaks into the next.
class ScopedBlasThreads {
 public:
  explicit ScopedBlasThreads(int threads);
  ~ScopedBlasThreads();
  ScopedBlasThreads(const ScopedBlasThreads&) = delete;
  ScopedBlasThreads& operator=(const ScopedBlasThreads&) = delete;

 private:
  int previous_;
};

// C = A * B + beta * C, column-major, no transposes.
void dgemm(Index m, Index n, Index k, const double* A, Index lda, const double* B, Index ldb,
           double beta, double* C, Index ldc);

}  // namespace mmbench
