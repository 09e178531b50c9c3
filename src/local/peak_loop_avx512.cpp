// The AVX-512 peak loop (peak_loop.hpp); compiled with -mavx512f -mfma
// (CMakeLists.txt) and only called where the CPU has them.
#include "local/peak_loop.hpp"

#if defined(__AVX512F__) && defined(__FMA__)
#include <immintrin.h>

#include "local/peak_loop_body.hpp"

namespace mmbench::local {
namespace {
struct Avx512 {
  using vec = __m512d;
  static constexpr VectorIsa isa = VectorIsa::avx512;
  static vec set1(double x) { return _mm512_set1_pd(x); }
  static vec madd(vec acc, vec a, vec b) { return _mm512_fmadd_pd(acc, a, b); }
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
}  // namespace
PeakLoop avx512_peak_loop() { return &loop; }
}  // namespace mmbench::local
#else
namespace mmbench::local {
PeakLoop avx512_peak_loop() { return nullptr; }
}  // namespace mmbench::local
#endif
