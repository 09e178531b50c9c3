// The vector types packed_gemm_blocked.hpp is written over, one per x86
// instruction set. Each exists only where the translation unit is compiled
// with its flags (packed_kernel_avx512.cpp, packed_kernel_avx2.cpp), and has
// internal linkage like everything of packed_gemm_blocked.hpp (which says
// why). The portable type lives in packed_kernel_portable.cpp.
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
};
#endif

}  // namespace
}  // namespace mmbench::local::packed_kernels
