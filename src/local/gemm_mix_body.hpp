// The body of the GEMM-mix loops (peak_loop.hpp gemm_mix_loop), written
// once for every vector type: included by peak_loop_<isa>.cpp, each compiled
// for its ISA.
//
// V provides, besides the peak loops' members: load(const double*) (an
// unaligned vector load) and fmadd(a, b, acc) = a * b + acc (one FMA, or a
// multiply and an add). One step is a DGEMM micro-kernel's k step on a
// 2-vector x NR tile: two vector loads of the A sliver, NR broadcasts from
// the B sliver (a load each), 2 x NR multiply-adds. The accumulators start
// at 0 and grow by a * b per step: with the operands the caller gives
// (0.5 .. 1) they stay far from overflow for any run mmbench times.
#pragma once

#include <cstdint>
#include <utility>

#include "local/peak_loop.hpp"

namespace mmbench::local::mix_body {

template <class V, std::size_t... J>
[[gnu::always_inline]] inline void step(typename V::vec (&c0)[sizeof...(J)], typename V::vec (&c1)[sizeof...(J)],
                                        const double* pa, const double* pb, std::index_sequence<J...>) {
  const typename V::vec a0 = V::load(pa);
  const typename V::vec a1 = V::load(pa + doubles_per_vector(V::isa));
  ((c0[J] = V::fmadd(a0, V::set1(pb[J]), c0[J]), c1[J] = V::fmadd(a1, V::set1(pb[J]), c1[J])), ...);
}

// passes x slivers x kc steps: sliver s of A (2 x W x kc doubles from a +
// s * 2 W kc) against the one B sliver (NR x kc doubles from b).
template <class V, int NR>
double run(const double* a, std::int64_t slivers, const double* b, std::int64_t kc, std::int64_t passes) {
  using vec = typename V::vec;
  constexpr int W = doubles_per_vector(V::isa);
  vec c0[NR], c1[NR];
  for (int j = 0; j < NR; ++j) c0[j] = c1[j] = V::set1(0.0);
  for (std::int64_t p = 0; p < passes; ++p)
    for (std::int64_t s = 0; s < slivers; ++s) {
      const double* pa = a + s * 2 * W * kc;
      const double* pb = b;
      for (std::int64_t k = 0; k < kc; ++k, pa += 2 * W, pb += NR)
        step<V>(c0, c1, pa, pb, std::make_index_sequence<NR>{});
    }
  double total = 0;
  for (int j = 0; j < NR; ++j) total += V::sum(c0[j]) + V::sum(c1[j]);
  return total;
}

}  // namespace mmbench::local::mix_body
