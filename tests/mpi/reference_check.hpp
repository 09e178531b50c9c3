// Comparison with one serial DGEMM of the gathered inputs (tests only).
#pragma once

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/matrix/layout.hpp"

namespace mmbench::testing {

// Max |C - C_ref| / (k^2 eps) over all entries. Two classical summation
// orders differ by at most about 2 k eps sum_l |a_il||b_lj| <= 2 k^2 eps
// (entries of A, B are in [-1, 1]), so a correct product stays below 2;
// a wrong block gives O(1) / (k^2 eps), i.e. millions. Fast algorithms may
// exceed 2 by their error growth.
inline double scaled_error(const std::vector<double>& C, const std::vector<double>& A, const std::vector<double>& B,
                           Index m, Index n, Index k) {
  std::vector<double> ref(static_cast<std::size_t>(m * n), 0.0);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0, A.data(),
              int(std::max<Index>(1, m)), B.data(), int(std::max<Index>(1, k)), 0.0, ref.data(),
              int(std::max<Index>(1, m)));
  double err = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) err = std::max(err, std::fabs(C[i] - ref[i]));
  return err / (double(k) * double(k) * std::numeric_limits<double>::epsilon());
}

}  // namespace mmbench::testing
