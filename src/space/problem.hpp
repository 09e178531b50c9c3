// The problem every algorithm and model is asked about: its three sizes.
#pragma once

#include "core/matrix/layout.hpp"

namespace mmbench::space {

// C (m x n) = A (m x k) * B (k x n).
struct Problem {
  Index m = 0, n = 0, k = 0;
  double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
};

}  // namespace mmbench::space
