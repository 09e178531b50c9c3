// The local BLAS: thread control and the column-major DGEMM every algorithm
// calls, so that the local kernel can be swapped in one place (e.g. the
// local Strassen–Winograd kernel).
#pragma once

#include <string>

#include "core/layout.hpp"

namespace mmbench {

// OpenBLAS threads for this rank (openblas_set_num_threads).
void set_blas_threads(int threads);
int blas_threads();
std::string blas_config();  // openblas_get_config()

// C = A * B + beta * C, column-major, no transposes.
void dgemm(Index m, Index n, Index k, const double* A, Index lda, const double* B, Index ldb,
           double beta, double* C, Index ldc);

}  // namespace mmbench
