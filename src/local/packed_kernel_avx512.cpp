// The packed GEMM with AVX-512 (packed_gemm_blocked.hpp); compiled with
// -mavx512f -mfma (CMakeLists.txt) and only called where the CPU has them.
//
// MR×NR = 16×12: 24 accumulators, two A vectors and a broadcast in 27 of
// the 32 registers; per k step 2 vector loads, 12 broadcasts, 24 FMAs.
// MC = 192, KC = 512 (the A block 768 KiB in the 1 MiB L2, a B panel 48 KiB),
// NC = 4096: the best of MC in {96, 144, 192, 288} × KC in {256, 384, 512}
// in a one-run-each prototype sweep at n = 3072 on the Zen 5 VM (99-118
// GF/s, noise included; not kept), where 16×12 also beat 24×8 (101 GF/s),
// 16×14 and 8×24 (47). KC = 384 measured no better on the fused level's
// 768³ products (results/packed-kc-vm-20261124T2131Z.txt).
#include "local/packed_kernels.hpp"

#if defined(__AVX512F__) && defined(__FMA__)
#include <immintrin.h>

#include "local/packed_gemm_blocked.hpp"

namespace mmbench::local::packed_kernels {
namespace {
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
}  // namespace
const Kernel* avx512() { return kernel_of<Blocked<Avx512, 2, 12, 192, 512, 4096>>(); }
}  // namespace mmbench::local::packed_kernels

#else
namespace mmbench::local::packed_kernels {
const Kernel* avx512() { return nullptr; }
}  // namespace mmbench::local::packed_kernels
#endif
