// The measured price of local work on one core: what `mmbench tune`'s
// kernel-model step fitted (tuner/kernel_timings.hpp, tuner/kernel_model_fit.hpp)
// and what a charged simulation charges (core/simulation.hpp). Plain data,
// so that core can price with it without reading a profile (the profile key
// "kernel_model", docs/machine-profile.md).
//
// DGEMM(m, n, k) on one thread, all cores of the node busy:
//   t = a + b·mnk + c·mn + d·mk + e·nk                 (seconds)
// b is the flop term (2 flops per mnk at the asymptotic rate); c, d, e are
// the surface terms: writing C (mn) and packing A (mk) and B (nk), which
// are what a thin k, m or n makes visible; a is the per-call overhead.
// Every coefficient is >= 0 (a non-negative least-squares fit), so a
// price never falls below zero outside the fitted shapes.
//
// An elementwise pass (an addition C = A ± B, a contiguous copy, a pack of
// a sub-block into contiguous storage) over `bytes` bytes moved:
//   t = a + b·bytes                                     (seconds)
// with bytes = 8 × (loads + stores) per element × elements (C = A + B: 24).
//
// log_sd is the spread of the measurements around the fit: the standard
// deviation of ln(measured / fitted) over every timed call. The noise of a
// charged simulation is multiplicative with that spread (exp(log_sd · Z),
// Z standard normal): its median is 1, and the fit's level is set so that
// the median of ln(measured / fitted) is 0, so the median of many priced
// calls is the fitted time.
#pragma once

#include <cstdint>

namespace mmbench {

struct DgemmTimeFit {
  double a_s = 0;            // per call
  double b_s_per_mnk = 0;    // flop term
  double c_s_per_mn = 0;     // C's surface
  double d_s_per_mk = 0;     // A's surface
  double e_s_per_nk = 0;     // B's surface
  double log_sd = 0;         // sd of ln(measured / fitted), all calls
  double repeat_log_sd = 0;  // sd of ln(measured / median of its shape): timing noise alone (0: one rep)
  int shapes = 0;            // distinct (m, n, k) timed
  int points = 0;            // timed calls fitted

  bool fitted() const { return b_s_per_mnk > 0; }
  double seconds(double m, double n, double k) const {
    return a_s + b_s_per_mnk * m * n * k + c_s_per_mn * m * n + d_s_per_mk * m * k + e_s_per_nk * n * k;
  }
};

struct BytesTimeFit {
  double a_s = 0;            // per call
  double b_s_per_byte = 0;   // 1 / effective bandwidth
  double log_sd = 0;
  double repeat_log_sd = 0;
  int sizes = 0;             // distinct sizes timed
  int points = 0;

  bool fitted() const { return b_s_per_byte > 0; }
  double seconds(double bytes) const { return a_s + b_s_per_byte * bytes; }
};

// measured = false: no model (profiles written before it, `tune
// --no-kernel-model`): charged simulations keep their flat prices.
struct KernelTimeModel {
  bool measured = false;
  std::int64_t max_dim = 0;  // the largest dimension of the timed DGEMMs (larger ones are extrapolated)
  int rounds = 0;            // interleaved rounds
  int ranks = 0;             // ranks timing at once (one thread each)
  DgemmTimeFit dgemm;
  BytesTimeFit add;   // C = A + B: 24 bytes per element
  BytesTimeFit copy;  // contiguous copy: 16 bytes per element
  BytesTimeFit pack;  // a sub-block's columns into contiguous storage: 16 bytes per element
};

}  // namespace mmbench
