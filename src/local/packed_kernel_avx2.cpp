// The packed GEMM with AVX2 and FMA (packed_gemm_blocked.hpp); compiled
// with -mavx2 -mfma (CMakeLists.txt) and only called where the CPU has them.
//
// MR×NR = 8×6: 12 accumulators, two A vectors and a broadcast in 15 of the
// 16 registers. MC = 96, KC = 256, NC = 4096: in a one-run-each prototype
// sweep on the Zen 5 VM at n = 3072 (not kept), 8×6 with MC × KC = 96 × 256
// or 96 × 384 ran at 97-99 % of OpenBLAS's Haswell DGEMM (62-63 GF/s),
// 12×4 at 93-97 %, 8×4 at 89-92 %; in the committed paired runs this
// kernel ran at 0.905-0.966 of it (results/local-kernel-vm-20261124T204707Z.md).
#include "local/packed_kernels.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

#include "local/packed_gemm_blocked.hpp"

namespace mmbench::local::packed_kernels {
namespace {
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
}  // namespace
const Kernel* avx2() { return kernel_of<Blocked<Avx2, 2, 6, 96, 256, 4096>>(); }
}  // namespace mmbench::local::packed_kernels

#else
namespace mmbench::local::packed_kernels {
const Kernel* avx2() { return nullptr; }
}  // namespace mmbench::local::packed_kernels
#endif
