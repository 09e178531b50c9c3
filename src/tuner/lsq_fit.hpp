// Least-squares fits of the message cost model T(bytes) = latency + bytes / (8 tau)
// (eq. 2.8 with s = bytes / 8 doubles) to measured message timings.
//
// Why a fit and not two points: a sweep of sizes averages the noise of each
// single size and shows whether the line model holds at all (r2). Why
// *relative* error by default: message times span five orders of magnitude
// (0.2 us for 8 B, ~0.5 ms for 4 MiB); an ordinary least-squares fit is
// decided by the largest messages alone and returns a meaningless (even
// negative) latency. Minimising sum(((fit - t) / t)^2) weighs every size
// alike, so the intercept is set by the small messages and the slope by the
// large ones, as intended.
//
// MPI libraries switch protocol at an "eager limit" (Open MPI's shared-memory
// transport: 4 KiB): small messages are copied through a buffer, large ones
// use a rendezvous handshake first, so one line fits badly across it.
// fit_two_regimes() finds the split of the size-sorted points that explains
// the data best with two lines.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace mmbench::tuner {

struct LinearFit {
  double latency_s = 0;  // intercept; may come out negative from noisy data
  double tau = 0;        // doubles per second; 0 when the slope is not positive
  double r2 = 0;         // coefficient of determination (weighted the same way as the fit)
};

enum class FitError {
  relative,  // minimise sum(((fit - t) / t)^2)   (default, see above)
  absolute,  // minimise sum((fit - t)^2)
};

// Fits (bytes, seconds) points. Throws std::invalid_argument with the bad
// value if there are fewer than 2 distinct sizes, a size is negative or not
// finite, or a time is not finite and > 0.
LinearFit fit_latency_bandwidth(const std::vector<std::pair<double, double>>& points,
                                FitError error = FitError::relative);

// Sum of squared relative errors ((fit - t) / t)^2 of a fit over points.
double relative_sse(const LinearFit& fit, const std::vector<std::pair<double, double>>& points);

struct TwoRegimeFit {
  LinearFit eager, rendezvous;
  // Largest message size (bytes) of the eager regime: sizes <= break_bytes
  // use `eager`, larger ones `rendezvous`. 0 = one regime: eager and
  // rendezvous are then the same fit over all points.
  std::int64_t break_bytes = 0;
  double sse_one = 0;  // relative SSE of one line over all points
  double sse_two = 0;  // relative SSE of the best two-line split (= sse_one if none)
};

// Tries every split of the size-sorted points into a lower and an upper
// regime of at least 3 points each (a split never separates equal sizes) and
// keeps the one with the smallest total relative SSE, each side fitted with
// fit_latency_bandwidth(relative).
//
// Criterion for reporting one regime (break_bytes = 0): the single line is
// already good, root-mean-square relative error <= 2 %, or the two lines do
// not at least halve the single line's relative SSE. With fewer than 6
// points no split is tried. Throws like fit_latency_bandwidth.
TwoRegimeFit fit_two_regimes(const std::vector<std::pair<double, double>>& points);

// A linear model with non-negative coefficients, t = sum_j x_j f_j, fitted
// to points (features f, time t > 0) by minimising the relative error
// sum_i ((fit_i - t_i) / t_i)^2 subject to x >= 0 (same reason as above:
// the times span orders of magnitude). The kernel model's fits
// (tuner/kernel_model_fit.hpp) use it: a per-call overhead, a flop term and
// surface terms, none of which can be negative on a real machine, and a
// negative one would price some shape below zero.
//
// Exact for the few columns it is meant for (<= 8): the non-negative
// optimum is the unconstrained fit on the set of its non-zero coefficients,
// so every subset of columns is fitted (Householder QR on the relative-error
// rows, columns scaled to unit length) and the best subset whose fit is
// non-negative wins. A subset whose columns are linearly dependent on the
// points is skipped. The empty subset (all zero) always qualifies.
struct NonNegativeFit {
  std::vector<double> coefficients;  // one per feature, each >= 0
  double relative_sse = 0;           // sum ((fit - t) / t)^2
  int active = 0;                    // coefficients > 0
};

// Throws std::invalid_argument (naming the value) for no points, a point
// whose feature count differs from the first's, more than 8 features, a
// feature that is not finite and >= 0, or a time that is not finite and > 0.
NonNegativeFit fit_non_negative(const std::vector<std::vector<double>>& features, const std::vector<double>& times);

}  // namespace mmbench::tuner
