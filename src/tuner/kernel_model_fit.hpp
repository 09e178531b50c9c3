// The kernel model's fits (core/kernel_time_model.hpp) from timed calls:
// DGEMM(m, n, k) as t = a + b·mnk + c·mn + d·mk + e·nk, an elementwise pass
// as t = a + b·bytes, each by the non-negative relative-error fit of
// tuner/lsq_fit.hpp, then
//  - its level set so that the median of ln(measured / fitted) is 0: the
//    relative-error fit sits slightly below the median of multiplicative
//    noise (it weighs the fast calls more), and a charged simulation's
//    noise has median 1 (core/stats/lognormal_noise.hpp), so without this the
//    median of simulated rounds would sit below the fit's own data;
//  - its spread: log_sd, the standard deviation of ln(measured / fitted)
//    over every call (divided by calls − coefficients used), which holds
//    both the timing noise and what the model's form misses; and
//    repeat_log_sd, the pooled standard deviation of ln(measured / median of
//    the same shape), the timing noise alone (0 where no shape has two calls).
#pragma once

#include <cstdint>
#include <vector>

#include "core/kernel_time_model.hpp"

namespace mmbench::tuner {

struct DgemmSample {
  std::int64_t m = 0, n = 0, k = 0;
  double seconds = 0;
};

struct PassSample {
  double bytes = 0;
  double seconds = 0;
};

// Throws std::invalid_argument naming the value for a sample with a
// dimension < 1, bytes < 1 or a time that is not finite and > 0, and for
// fewer than 2 distinct shapes (sizes). The result may be unfitted
// (fitted() false: no positive flop or byte term), which callers report.
DgemmTimeFit fit_dgemm_time(const std::vector<DgemmSample>& samples);
BytesTimeFit fit_pass_time(const std::vector<PassSample>& samples);

}  // namespace mmbench::tuner
