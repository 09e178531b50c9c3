// The AVX2 + FMA peak loop (peak_loop.hpp); compiled with -mavx2 -mfma
// (CMakeLists.txt) and only called where the CPU has them.
#include "local/peak_loop.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

#include "local/gemm_mix_body.hpp"
#include "local/peak_loop_body.hpp"

namespace mmbench::local {
namespace {
struct Avx2Fma {
  using vec = __m256d;
  static constexpr VectorIsa isa = VectorIsa::avx2_fma;
  static vec set1(double x) { return _mm256_set1_pd(x); }
  static vec madd(vec acc, vec a, vec b) { return _mm256_fmadd_pd(acc, a, b); }
  static vec load(const double* p) { return _mm256_loadu_pd(p); }
  static vec fmadd(vec a, vec b, vec acc) { return _mm256_fmadd_pd(a, b, acc); }
  static double sum(vec v) {
    alignas(32) double d[4];
    _mm256_store_pd(d, v);
    return d[0] + d[1] + d[2] + d[3];
  }
};
[[gnu::noinline]] double loop(std::int64_t iterations) { return peak_body::run<Avx2Fma>(iterations); }
[[gnu::noinline]] double mix(const double* a, std::int64_t slivers, const double* b, std::int64_t kc,
                             std::int64_t passes) {
  return mix_body::run<Avx2Fma, mix_columns(Avx2Fma::isa)>(a, slivers, b, kc, passes);
}
}  // namespace
PeakLoop avx2_fma_peak_loop() { return &loop; }
MixLoop avx2_fma_gemm_mix_loop() { return &mix; }
}  // namespace mmbench::local
#else
namespace mmbench::local {
PeakLoop avx2_fma_peak_loop() { return nullptr; }
MixLoop avx2_fma_gemm_mix_loop() { return nullptr; }
}  // namespace mmbench::local
#endif
