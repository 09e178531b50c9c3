#include "core/matrix/verify.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/matrix/generate.hpp"
#include "core/matrix/redistribution.hpp"

namespace mmbench {

namespace {
// y[r.row + i] += M(i, j) * x[r.col + j] over this rank's rectangles, and
// row sums of |M| into rowabs.
void partial_matvec(const DistMatrix& M, const std::vector<double>& x, double* y, double* rowabs) {
  for (std::size_t idx : M.layout.rects_of(M.rank)) {
    const Rect& r = M.layout.rects()[idx];
    for (Index j = 0; j < r.cols; ++j) {
      const double* col = M.local.data() + r.offset + j * r.ld;
      const double xj = x[static_cast<std::size_t>(r.col + j)];
      for (Index i = 0; i < r.rows; ++i) {
        y[r.row + i] += col[i] * xj;
        if (rowabs) rowabs[r.row + i] += std::fabs(col[i]);
      }
    }
  }
}
}  // namespace

Residuals residuals_of(const std::vector<double>& y1, const std::vector<double>& y2, double normA, double normB,
                       double normx, Index k) {
  double diff = 0, normy = 0;
  for (std::size_t i = 0; i < y1.size(); ++i) {
    diff = std::max(diff, std::fabs(y1[i] - y2[i]));
    normy = std::max(normy, std::fabs(y2[i]));
  }
  // A NaN anywhere fails both tests (max drops NaN: count it here).
  for (std::size_t i = 0; i < y1.size(); ++i)
    if (std::isnan(y1[i]) || std::isnan(y2[i])) diff = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double eps = std::numeric_limits<double>::epsilon();
  const double denom = normA * normB * normx * static_cast<double>(std::max<Index>(k, 1)) * eps;
  Residuals r;
  r.normwise = denom == 0 ? (diff == 0 ? 0.0 : inf) : diff / denom;
  r.relative = normy == 0 ? (diff == 0 ? 0.0 : inf) : diff / normy;
  return r;
}

Residuals residuals(const DistMatrix& A, const DistMatrix& B, const DistMatrix& C, const Comm& comm,
                    std::uint64_t seed) {
  const Index m = A.rows(), k = A.cols(), n = B.cols();
  std::vector<double> x(static_cast<std::size_t>(n));
  for (Index j = 0; j < n; ++j) x[static_cast<std::size_t>(j)] = matrix_entry(j, 0, seed);

  // One reduction for t = Bx, row sums of |A| and |B|, and y1 = Cx.
  std::vector<double> buf(static_cast<std::size_t>(k + m + k + m), 0.0);
  double* t = buf.data();
  double* rowA = t + k;
  double* rowB = rowA + m;
  double* y1 = rowB + k;
  partial_matvec(B, x, t, rowB);
  partial_matvec(C, x, y1, nullptr);
  // ||A||_inf needs |A| row sums; reuse partial_matvec with a zero vector
  // would waste flops, so accumulate them directly.
  for (std::size_t idx : A.layout.rects_of(A.rank)) {
    const Rect& r = A.layout.rects()[idx];
    for (Index j = 0; j < r.cols; ++j) {
      const double* col = A.local.data() + r.offset + j * r.ld;
      for (Index i = 0; i < r.rows; ++i) rowA[r.row + i] += std::fabs(col[i]);
    }
  }
  comm.sum_inplace(buf);

  std::vector<double> y2(static_cast<std::size_t>(m), 0.0);
  std::vector<double> tv(t, t + k);
  partial_matvec(A, tv, y2.data(), nullptr);
  comm.sum_inplace(y2);

  double normA = 0, normB = 0, normx = 0;
  for (Index i = 0; i < m; ++i) normA = std::max(normA, rowA[i]);
  for (Index i = 0; i < k; ++i) normB = std::max(normB, rowB[i]);
  for (double v : x) normx = std::max(normx, std::fabs(v));
  return residuals_of(std::vector<double>(y1, y1 + m), y2, normA, normB, normx, k);
}

std::vector<double> gather(const DistMatrix& M, const Comm& comm, int root) {
  Layout target = single_owner(M.rows(), M.cols(), comm.size(), root);
  Redistribution r({Transfer{&M.layout, &target, 0, 0}}, comm.rank());
  std::vector<double> out(comm.rank() == root ? static_cast<std::size_t>(M.rows() * M.cols()) : 0);
  r.execute(M.data(), out.data(), comm);
  return out;
}

}  // namespace mmbench
