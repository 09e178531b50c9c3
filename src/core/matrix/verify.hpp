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
//
// The normwise limit grows with the error bound of fast algorithms (12 per
// parallel Strassen level, 18 per local Winograd level), and faster than
// the residual of a wrong answer, which falls as 1/n: an all-zero C has
// residual ||A B x|| / (||A|| ||B|| ||x|| k eps), 1.9e8 at n = 8192 on
// mmbench's matrices (entries uniform in [-1, 1)) -- just above the limit
// 16 12^3 18^3 = 1.6e8 of r = 3, L = 3, below it from n of about 9500, and
// below the 2.9e9 of r = 3, L = 4 already (tests/unit/test_verify.cpp). So
// a second test that no wrong answer passes:
//
//   relative = ||y1 - y2||_inf / ||y2||_inf <= kRelativeResidualLimit,
//
// which is 1 for an all-zero C and of order 1 for a C with misplaced or
// missing blocks at any n, r, L, while the legitimate error stays many
// orders of magnitude below it (docs/method.md, verification).
#pragma once

#include <cstdint>

#include "core/mpi/comm.hpp"
#include "core/matrix/dist_matrix.hpp"

namespace mmbench {

struct Residuals {
  double normwise = 0;  // ||y1 - y2|| / (||A|| ||B|| ||x|| k eps)
  double relative = 0;  // ||y1 - y2|| / ||y2||
};

// Collective over comm.
Residuals residuals(const DistMatrix& A, const DistMatrix& B, const DistMatrix& C, const Comm& comm,
                    std::uint64_t seed = 0x5eedULL);
inline double normwise_residual(const DistMatrix& A, const DistMatrix& B, const DistMatrix& C, const Comm& comm,
                                std::uint64_t seed = 0x5eedULL) {
  return residuals(A, B, C, comm, seed).normwise;
}

// The residual limit: 16 for classical algorithms, multiplied by
// `error_growth` for fast (Strassen-type) algorithms.
constexpr double kClassicalResidualLimit = 16.0;
// The relative residual's limit, for every algorithm: far below the 1 of a
// wrong answer, far above any legitimate error (about 1e-12 at most in
// mmbench's own runs, docs/method.md).
constexpr double kRelativeResidualLimit = 1e-6;

// Both tests passed (false for a NaN): normwise <= normwise_limit and
// relative <= kRelativeResidualLimit.
inline bool verified(const Residuals& r, double normwise_limit) {
  return r.normwise <= normwise_limit && r.relative <= kRelativeResidualLimit;
}

// The residuals of the C with Cx = y1 against y2 = A (B x), and the norms
// they divide by (the arithmetic of residuals(), for callers that form the
// vectors themselves).
Residuals residuals_of(const std::vector<double>& y1, const std::vector<double>& y2, double normA, double normB,
                       double normx, Index k);

// Gather a distributed matrix to `root` as a dense column-major array
// (rows x cols, ld = rows); other ranks get an empty vector. For tests and
// small matrices only.
std::vector<double> gather(const DistMatrix& M, const Comm& comm, int root = 0);

}  // namespace mmbench
