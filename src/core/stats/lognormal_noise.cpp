#include "core/stats/lognormal_noise.hpp"

#include <cmath>

#include "core/stats/splitmix.hpp"

namespace mmbench {

namespace {
constexpr double kTwoPi = 6.283185307179586476925;
}  // namespace

// The stream enters through its own mix, so that (seed, stream) and
// (seed + 1, stream - 1) do not start on the same state.
LognormalNoise::LognormalNoise(std::uint64_t seed, std::uint64_t stream)
    : state_(splitmix64_mix(seed + kSplitmixGolden) ^ splitmix64_mix(splitmix64_mix(stream) + 2 * kSplitmixGolden)) {}

std::uint64_t LognormalNoise::next() {
  state_ += kSplitmixGolden;
  return splitmix64_mix(state_);
}

double LognormalNoise::uniform() {
  // 53 random bits, shifted into (0, 1] so that log() never sees 0.
  return (static_cast<double>(next() >> 11) + 1.0) * 0x1.0p-53;
}

double LognormalNoise::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Box-Muller: two uniforms give two independent standard normals.
  const double r = std::sqrt(-2.0 * std::log(uniform()));
  const double phi = kTwoPi * uniform();
  spare_ = r * std::sin(phi);
  has_spare_ = true;
  return r * std::cos(phi);
}

double LognormalNoise::factor(double sigma) {
  if (!(sigma > 0) || !std::isfinite(sigma)) return 1.0;
  return std::exp(sigma * normal());
}

}  // namespace mmbench
