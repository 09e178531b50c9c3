// Verification by a normwise residual (docs/method.md §6), computed from the
// distributed data without gathering any matrix:
//
//   y1 = C x,  y2 = A (B x),
//   residual = ||y1 - y2||_inf / (||A||_inf ||B||_inf ||x||_inf * k * eps)
//
// with x a deterministic random vector and eps = 2^-52 (DBL_EPSILON). For a
// classical algorithm each entry of C carries an error of at most about
// k * eps * sum|a||b|, so the residual is O(1) (the HPL / SLATE convention
// accepts up to 16). Each rank forms partial products from the rectangles it
// owns; two vector reductions finish them.
#pragma once

#include <cstdint>

#include "core/comm.hpp"
#include "core/dist_matrix.hpp"

namespace mmbench {

double normwise_residual(const DistMatrix& A, const DistMatrix& B, const DistMatrix& C,
                         const Comm& comm, std::uint64_t seed = 0x5eedULL);

// The residual limit: 16 for classical algorithms, multiplied by
// `error_growth` for fast (Strassen-type) algorithms.
constexpr double kClassicalResidualLimit = 16.0;

// Gather a distributed matrix to `root` as a dense column-major array
// (rows x cols, ld = rows); other ranks get an empty vector. For tests and
// small matrices only.
std::vector<double> gather(const DistMatrix& M, const Comm& comm, int root = 0);

}  // namespace mmbench
