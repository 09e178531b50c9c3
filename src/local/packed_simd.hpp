// The vector types packed_gemm_blocked.hpp is written over, one per x86
// instruction set. Each exists only where the translation unit is compiled
// with its flags (packed_kernel_avx512.cpp, packed_kernel_avx2.cpp), and has
// internal linkage like everything of packed_gemm_blocked.hpp (which says
// why). The portable type lives in packed_kernel_portable.cpp.
//
// Besides loads, stores, broadcasts and FMAs, each type has the two
// operations pack_b uses to turn W rows of NR columns into W rows of the
// packed panel with whole-vector stores:
//   transpose(r)            r[0..W-1] in place: r[i][j] <- r[j][i]
//   storeu_first(p, v, n)   the first n (< W) lanes of v to p[0..n-1]
#pragma once

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace mmbench::local::packed_kernels {
namespace {

#if defined(__AVX512F__) && defined(__FMA__)
struct Avx512 {
  using vec = __m512d;
  static constexpr int W = 8;
  static vec zero() { return _mm512_setzero_pd(); }
  static vec load(const double* p) { return _mm512_load_pd(p); }
  static vec loadu(const double* p) { return _mm512_loadu_pd(p); }
  static void store(double* p, vec v) { _mm512_store_pd(p, v); }
  static void storeu(double* p, vec v) { _mm512_storeu_pd(p, v); }
  static vec set1(double x) { return _mm512_set1_pd(x); }
  static vec fma(vec a, vec b, vec c) { return _mm512_fmadd_pd(a, b, c); }
  static void storeu_first(double* p, vec v, int n) { _mm512_mask_storeu_pd(p, __mmask8((1u << n) - 1), v); }
  // 8x8: pairs of rows interleaved (unpack), then 128-bit lanes exchanged
  // twice (shuffle_f64x2 0x88 takes lanes 0 and 2 of each source, 0xdd lanes
  // 1 and 3). Zero-masked forms with every lane kept: GCC 12's plain ones
  // start from an "undefined" vector that -Wmaybe-uninitialized reports.
  static void transpose(vec r[8]) {
    const vec t0 = _mm512_maskz_unpacklo_pd(0xff, r[0], r[1]), t1 = _mm512_maskz_unpackhi_pd(0xff, r[0], r[1]);
    const vec t2 = _mm512_maskz_unpacklo_pd(0xff, r[2], r[3]), t3 = _mm512_maskz_unpackhi_pd(0xff, r[2], r[3]);
    const vec t4 = _mm512_maskz_unpacklo_pd(0xff, r[4], r[5]), t5 = _mm512_maskz_unpackhi_pd(0xff, r[4], r[5]);
    const vec t6 = _mm512_maskz_unpacklo_pd(0xff, r[6], r[7]), t7 = _mm512_maskz_unpackhi_pd(0xff, r[6], r[7]);
    const vec u0 = _mm512_maskz_shuffle_f64x2(0xff, t0, t2, 0x88), u1 = _mm512_maskz_shuffle_f64x2(0xff, t1, t3, 0x88);
    const vec u2 = _mm512_maskz_shuffle_f64x2(0xff, t0, t2, 0xdd), u3 = _mm512_maskz_shuffle_f64x2(0xff, t1, t3, 0xdd);
    const vec u4 = _mm512_maskz_shuffle_f64x2(0xff, t4, t6, 0x88), u5 = _mm512_maskz_shuffle_f64x2(0xff, t5, t7, 0x88);
    const vec u6 = _mm512_maskz_shuffle_f64x2(0xff, t4, t6, 0xdd), u7 = _mm512_maskz_shuffle_f64x2(0xff, t5, t7, 0xdd);
    r[0] = _mm512_maskz_shuffle_f64x2(0xff, u0, u4, 0x88), r[1] = _mm512_maskz_shuffle_f64x2(0xff, u1, u5, 0x88);
    r[2] = _mm512_maskz_shuffle_f64x2(0xff, u2, u6, 0x88), r[3] = _mm512_maskz_shuffle_f64x2(0xff, u3, u7, 0x88);
    r[4] = _mm512_maskz_shuffle_f64x2(0xff, u0, u4, 0xdd), r[5] = _mm512_maskz_shuffle_f64x2(0xff, u1, u5, 0xdd);
    r[6] = _mm512_maskz_shuffle_f64x2(0xff, u2, u6, 0xdd), r[7] = _mm512_maskz_shuffle_f64x2(0xff, u3, u7, 0xdd);
  }
};
#endif

#if defined(__AVX2__) && defined(__FMA__)
struct Avx2 {
  using vec = __m256d;
  static constexpr int W = 4;
  static vec zero() { return _mm256_setzero_pd(); }
  static vec load(const double* p) { return _mm256_load_pd(p); }
  static vec loadu(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, vec v) { _mm256_store_pd(p, v); }
  static void storeu(double* p, vec v) { _mm256_storeu_pd(p, v); }
  static vec set1(double x) { return _mm256_set1_pd(x); }
  static vec fma(vec a, vec b, vec c) { return _mm256_fmadd_pd(a, b, c); }
  static void storeu_first(double* p, vec v, int n) {
    if (n >= 2) _mm_storeu_pd(p, _mm256_castpd256_pd128(v));
    if (n == 1) _mm_store_sd(p, _mm256_castpd256_pd128(v));
    if (n == 3) _mm_store_sd(p + 2, _mm256_extractf128_pd(v, 1));
  }
  // 4x4: pairs of rows interleaved (unpack), then 128-bit halves exchanged.
  static void transpose(vec r[4]) {
    const vec t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
    const vec t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
    r[0] = _mm256_permute2f128_pd(t0, t2, 0x20), r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    r[2] = _mm256_permute2f128_pd(t0, t2, 0x31), r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
  }
};
#endif

}  // namespace
}  // namespace mmbench::local::packed_kernels
