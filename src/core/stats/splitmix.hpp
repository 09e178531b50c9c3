// splitmix64 (Steele, Lea and Flood), the one integer mixer of mmbench's
// reproducible streams: generated matrix entries (core/matrix/generate.hpp) and
// the charged simulation's noise (core/stats/lognormal_noise.hpp).
#pragma once

#include <cstdint>

namespace mmbench {

inline constexpr std::uint64_t kSplitmixGolden = 0x9E3779B97F4A7C15ULL;

// The finaliser: a bijection that scrambles every bit.
inline constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// One step of the generator from state x: the hash of x.
inline constexpr std::uint64_t splitmix64(std::uint64_t x) { return splitmix64_mix(x + kSplitmixGolden); }

}  // namespace mmbench
