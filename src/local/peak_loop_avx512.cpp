// The AVX-512 peak loop (peak_loop.hpp); compiled with -mavx512f -mfma
// (CMakeLists.txt) and only called where the CPU has them.
#include "local/peak_loop.hpp"

#if defined(__AVX512F__) && defined(__FMA__)
#include <immintrin.h>

#include "local/gemm_mix_body.hpp"
#include "local/peak_loop_body.hpp"

namespace mmbench::local {
namespace {
struct Avx512 {
  using vec = __m512d;
  static constexpr VectorIsa isa = VectorIsa::avx512;
  static vec set1(double x) { return _mm512_set1_pd(x); }
  static vec madd(vec acc, vec a, vec b) { return _mm512_fmadd_pd(acc, a, b); }
  static vec load(const double* p) { return _mm512_loadu_pd(p); }
  static vec fmadd(vec a, vec b, vec acc) { return _mm512_fmadd_pd(a, b, acc); }
  // Through memory, not _mm512_reduce_add_pd: GCC 12's version of that
  // intrinsic trips -Wuninitialized; this runs once per measurement.
  static double sum(vec v) {
    alignas(64) double lanes[8];
    _mm512_store_pd(lanes, v);
    double s = 0;
    for (double x : lanes) s += x;
    return s;
  }
};
[[gnu::noinline]] double loop(std::int64_t iterations) { return peak_body::run<Avx512>(iterations); }
[[gnu::noinline]] double mix(const double* a, std::int64_t slivers, const double* b, std::int64_t kc,
                             std::int64_t passes) {
  return mix_body::run<Avx512, mix_columns(Avx512::isa)>(a, slivers, b, kc, passes);
}
}  // namespace
PeakLoop avx512_peak_loop() { return &loop; }
MixLoop avx512_gemm_mix_loop() { return &mix; }
}  // namespace mmbench::local
#else
namespace mmbench::local {
PeakLoop avx512_peak_loop() { return nullptr; }
MixLoop avx512_gemm_mix_loop() { return nullptr; }
}  // namespace mmbench::local
#endif
