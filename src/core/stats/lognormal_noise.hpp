// Seeded multiplicative noise for charged simulations (core/simulation.hpp):
// factor = exp(sigma · Z), Z standard normal, so ln(factor) has the spread
// sigma that tune measured around its fits (core/kernel_time_model.hpp) and
// the factor's median is 1.
//
// Reproducible by construction: the draws are a pure function of (seed,
// stream) and the number of draws before, computed with integer arithmetic
// (splitmix64) and Box-Muller, never with std::normal_distribution, whose
// output differs between standard libraries. A simulation gives each rank
// its own stream (its rank), so ranks draw independent sequences and the
// same seed replays every rank's draws.
#pragma once

#include <cstdint>

namespace mmbench {

class LognormalNoise {
 public:
  LognormalNoise(std::uint64_t seed, std::uint64_t stream);

  // exp(sigma · Z) with the next standard normal Z; sigma <= 0 (or not
  // finite) gives 1 and draws nothing.
  double factor(double sigma);
  // The next standard normal draw.
  double normal();

 private:
  double uniform();  // in (0, 1]
  std::uint64_t next();

  std::uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0;
};

}  // namespace mmbench
