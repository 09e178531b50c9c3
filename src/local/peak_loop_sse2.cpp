// The SSE2 peak loop (peak_loop.hpp): the x86-64 baseline, compiled with
// the default flags. SSE2 has no FMA, so a step is a multiply and an add.
#include "local/peak_loop.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>

#include "local/gemm_mix_body.hpp"
#include "local/peak_loop_body.hpp"

namespace mmbench::local {
namespace {
struct Sse2 {
  using vec = __m128d;
  static constexpr VectorIsa isa = VectorIsa::sse2;
  static vec set1(double x) { return _mm_set1_pd(x); }
  static vec madd(vec acc, vec a, vec b) { return _mm_add_pd(_mm_mul_pd(acc, a), b); }
  static vec load(const double* p) { return _mm_loadu_pd(p); }
  static vec fmadd(vec a, vec b, vec acc) { return _mm_add_pd(_mm_mul_pd(a, b), acc); }
  static double sum(vec v) {
    alignas(16) double d[2];
    _mm_store_pd(d, v);
    return d[0] + d[1];
  }
};
[[gnu::noinline]] double loop(std::int64_t iterations) { return peak_body::run<Sse2>(iterations); }
[[gnu::noinline]] double mix(const double* a, std::int64_t slivers, const double* b, std::int64_t kc,
                             std::int64_t passes) {
  return mix_body::run<Sse2, mix_columns(Sse2::isa)>(a, slivers, b, kc, passes);
}
}  // namespace
PeakLoop sse2_peak_loop() { return &loop; }
MixLoop sse2_gemm_mix_loop() { return &mix; }
}  // namespace mmbench::local
#else
namespace mmbench::local {
PeakLoop sse2_peak_loop() { return nullptr; }
MixLoop sse2_gemm_mix_loop() { return nullptr; }
}  // namespace mmbench::local
#endif
