// The body of the peak loops (peak_loop.hpp), written once for every vector
// type: included by peak_loop_<isa>.cpp, each compiled for its ISA.
//
// V provides: vec, set1(double), madd(acc, a, b) = acc * a + b (one FMA, or
// a multiply and an add), and sum(vec). Each step maps every accumulator to
// acc * 0.75 + 0.25, which converges to 1 from any start: the values stay
// normal numbers (no denormal slow path, no overflow) however long it runs.
#pragma once

#include <cstdint>
#include <utility>

#include "local/peak_loop.hpp"

namespace mmbench::local::peak_body {

// One step on every accumulator, unrolled by the fold so that each
// accumulator is a named register, not an array in memory.
template <class V, std::size_t... J>
[[gnu::always_inline]] inline void step(typename V::vec (&acc)[sizeof...(J)], typename V::vec a, typename V::vec b,
                                        std::index_sequence<J...>) {
  ((acc[J] = V::madd(acc[J], a, b)), ...);
}

template <class V>
double run(std::int64_t iterations) {
  using vec = typename V::vec;
  vec acc[kPeakAccumulators];
  for (int j = 0; j < kPeakAccumulators; ++j) acc[j] = V::set1(1.0 + j);
  const vec a = V::set1(0.75), b = V::set1(0.25);
  for (std::int64_t i = 0; i < iterations; ++i)
    step<V>(acc, a, b, std::make_index_sequence<kPeakAccumulators>{});
  double total = 0;
  for (int j = 0; j < kPeakAccumulators; ++j) total += V::sum(acc[j]);
  return total / (kPeakAccumulators * doubles_per_vector(V::isa));
}

}  // namespace mmbench::local::peak_body
