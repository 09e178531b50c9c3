// The packed GEMM's pack_a and pack_b (src/local/packed_gemm_blocked.hpp,
// AVX-512 16x12 tile, one term) timed alone over the blocks of an n x n
// product with the default blocking, against scratch versions: pack_a
// copying straight into the panels (no column buffer), pack_b loading 8
// rows of each of the 12 columns and transposing them in registers. Checks
// first that both give the same panels on odd shapes. Not in the product.
// Build: g++ -std=c++20 -O3 -mavx512f -mfma -Isrc results/huge-pages-20261129/pack_b_transpose.cpp -o /tmp/packbench2
// Run:   /tmp/packbench2 N ROUNDS
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <immintrin.h>
#include "local/packed_gemm_blocked.hpp"
#include "local/packed_simd.hpp"
using namespace mmbench::local;
using Kernel = Blocked<packed_kernels::Avx512, 2, 12>;
constexpr int MR = 16, NR = 12;
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

static int PFD = 8;  // prefetch distance in columns for pack_a
// pack_a direct: nt==1
void pack_a2(pi64 mc, pi64 kc, const PackedTerm* t, pi64 ic, pi64 pc, double* __restrict ap) {
  const pi64 panels = (mc + MR - 1) / MR;
  const double c0 = t->coef;
  const pi64 ld = t->ld;
  const __m512d g = _mm512_set1_pd(c0);
  const pi64 full = mc / MR;
  for (pi64 p = 0; p < kc; ++p) {
    const double* s = t->data + ic + (pc + p) * ld;
    if (p + PFD < kc) {
      const double* q = s + PFD * ld;
      for (pi64 i = 0; i < mc; i += 8) __builtin_prefetch(q + i);
    }
    for (pi64 r = 0; r < full; ++r) {
      double* dst = ap + r * MR * kc + p * MR;
      _mm512_store_pd(dst, _mm512_mul_pd(g, _mm512_loadu_pd(s + r * MR)));
      _mm512_store_pd(dst + 8, _mm512_mul_pd(g, _mm512_loadu_pd(s + r * MR + 8)));
    }
    if (full < panels) {
      double* dst = ap + full * MR * kc + p * MR;
      for (int i = 0; i < MR; ++i) dst[i] = full * MR + i < mc ? c0 * s[full * MR + i] : 0.0;
    }
  }
}

static inline void tr8x8(__m512d r[8]) {
  __m512d t0 = _mm512_unpacklo_pd(r[0], r[1]), t1 = _mm512_unpackhi_pd(r[0], r[1]);
  __m512d t2 = _mm512_unpacklo_pd(r[2], r[3]), t3 = _mm512_unpackhi_pd(r[2], r[3]);
  __m512d t4 = _mm512_unpacklo_pd(r[4], r[5]), t5 = _mm512_unpackhi_pd(r[4], r[5]);
  __m512d t6 = _mm512_unpacklo_pd(r[6], r[7]), t7 = _mm512_unpackhi_pd(r[6], r[7]);
  // 128-bit lanes: t0 = [a0b0 | a2b2 | a4b4 | a6b6], t1 = [a1b1| a3b3|...]
  __m512d u0 = _mm512_shuffle_f64x2(t0, t2, 0x88), u1 = _mm512_shuffle_f64x2(t0, t2, 0xdd);
  __m512d u2 = _mm512_shuffle_f64x2(t1, t3, 0x88), u3 = _mm512_shuffle_f64x2(t1, t3, 0xdd);
  __m512d u4 = _mm512_shuffle_f64x2(t4, t6, 0x88), u5 = _mm512_shuffle_f64x2(t4, t6, 0xdd);
  __m512d u6 = _mm512_shuffle_f64x2(t5, t7, 0x88), u7 = _mm512_shuffle_f64x2(t5, t7, 0xdd);
  // u0 = [a0b0 a4b4 c0d0 c4d4], u1=[a2b2 a6b6 c2d2 c6d6], u2=[a1b1 a5b5 c1d1 c5d5], u3=[a3b3 a7b7 c3d3 c7d7]
  r[0] = _mm512_shuffle_f64x2(u0, u4, 0x88);  // a0b0 c0d0 e0f0 g0h0
  r[4] = _mm512_shuffle_f64x2(u0, u4, 0xdd);  // a4b4 ...
  r[2] = _mm512_shuffle_f64x2(u1, u5, 0x88);
  r[6] = _mm512_shuffle_f64x2(u1, u5, 0xdd);
  r[1] = _mm512_shuffle_f64x2(u2, u6, 0x88);
  r[5] = _mm512_shuffle_f64x2(u2, u6, 0xdd);
  r[3] = _mm512_shuffle_f64x2(u3, u7, 0x88);
  r[7] = _mm512_shuffle_f64x2(u3, u7, 0xdd);
}

static int PFB = 64;  // prefetch distance in rows for pack_b
void pack_b2(pi64 kc, pi64 nc, const PackedTerm* t, pi64 pc, pi64 jc, double* __restrict bp) {
  const double c0 = t->coef;
  const pi64 ld = t->ld;
  const __m512d g = _mm512_set1_pd(c0);
  for (pi64 jr = 0; jr < nc; jr += NR) {
    const pi64 nr = pmin(NR, nc - jr);
    double* __restrict panel = bp + jr * kc;
    const double* s = t->data + pc + (jc + jr) * ld;
    if (nr < NR) {  // edge: scalar
      for (pi64 p = 0; p < kc; ++p)
        for (int j = 0; j < NR; ++j) panel[p * NR + j] = j < nr ? c0 * s[p + j * ld] : 0.0;
      continue;
    }
    pi64 p = 0;
    for (; p + 8 <= kc; p += 8) {
      __m512d r[8], q[8];
      for (int j = 0; j < 8; ++j) {
        r[j] = _mm512_mul_pd(g, _mm512_loadu_pd(s + p + j * ld));
        __builtin_prefetch(s + p + PFB + j * ld);
      }
      for (int j = 0; j < 4; ++j) {
        q[j] = _mm512_mul_pd(g, _mm512_loadu_pd(s + p + (8 + j) * ld));
        __builtin_prefetch(s + p + PFB + (8 + j) * ld);
      }
      for (int j = 4; j < 8; ++j) q[j] = _mm512_setzero_pd();
      tr8x8(r);
      tr8x8(q);
      for (int i = 0; i < 8; ++i) {
        _mm512_storeu_pd(panel + (p + i) * NR, r[i]);
        _mm256_storeu_pd(panel + (p + i) * NR + 8, _mm512_castpd512_pd256(q[i]));
      }
    }
    for (; p < kc; ++p)
      for (int j = 0; j < NR; ++j) panel[p * NR + j] = c0 * s[p + j * ld];
  }
}

int main(int argc, char** argv) {
  long n = atol(argv[1]);
  int rounds = atoi(argv[2]);
  if (argc > 3) PFD = atoi(argv[3]);
  if (argc > 4) PFB = atoi(argv[4]);
  PackedBlocking bl{96, 768, 1024};
  auto* ws = static_cast<double*>(std::aligned_alloc(64, (Kernel::workspace_doubles(bl) * 8 + 63) / 64 * 64));
  auto* ws2 = static_cast<double*>(std::aligned_alloc(64, (Kernel::workspace_doubles(bl) * 8 + 63) / 64 * 64));
  std::vector<double> A(n * n), B(n * n);
  for (long i = 0; i < n * n; ++i) {
    A[i] = i % 7 + 0.5 * (i % 3);
    B[i] = i % 5 - 0.25 * (i % 11);
  }
  PackedTerm at{A.data(), n, 1.5}, bt{B.data(), n, -0.5};
  double* ap = ws;
  double* bp = ws + Kernel::ap_doubles(bl);
  double* col = bp + Kernel::bp_doubles(bl);
  double* ap2 = ws2;
  double* bp2 = ws2 + Kernel::ap_doubles(bl);
  // correctness on odd shapes
  for (pi64 mc : {96L, 93L, 7L})
    for (pi64 kc : {683L, 5L, 17L}) {
      Kernel::pack_a(mc, kc, &at, 1, 3, 1, ap, col);
      pack_a2(mc, kc, &at, 3, 1, ap2);
      if (memcmp(ap, ap2, ((mc + MR - 1) / MR) * MR * kc * 8)) {
        printf("pack_a mismatch %ld %ld\n", mc, kc);
        return 1;
      }
    }
  for (pi64 nc : {1024L, 1021L, 5L})
    for (pi64 kc : {683L, 5L, 17L}) {
      Kernel::pack_b(kc, nc, &bt, 1, 1, 3, bp);
      pack_b2(kc, nc, &bt, 1, 3, bp2);
      if (memcmp(bp, bp2, ((nc + NR - 1) / NR) * NR * kc * 8)) {
        printf("pack_b mismatch %ld %ld\n", nc, kc);
        return 1;
      }
    }
  const pi64 nstep = even_step(n, bl.nc), kstep = even_step(n, bl.kc);
  for (int r = 0; r < rounds; ++r)
    for (int v = 0; v < 2; ++v) {
      double ta = 0, tb = 0;
      long ea = 0, eb = 0;
      for (pi64 jc = 0; jc < n; jc += nstep) {
        pi64 ncols = pmin(nstep, n - jc);
        for (pi64 pc = 0; pc < n; pc += kstep) {
          pi64 kc = pmin(kstep, n - pc);
          double t0 = now();
          if (v == 0)
            Kernel::pack_b(kc, ncols, &bt, 1, pc, jc, bp);
          else
            pack_b2(kc, ncols, &bt, pc, jc, bp);
          tb += now() - t0;
          eb += kc * ncols;
          for (pi64 ic = 0; ic < n; ic += bl.mc) {
            pi64 mc = pmin(bl.mc, n - ic);
            t0 = now();
            if (v == 0)
              Kernel::pack_a(mc, kc, &at, 1, ic, pc, ap, col);
            else
              pack_a2(mc, kc, &at, ic, pc, ap);
            ta += now() - t0;
            ea += mc * kc;
          }
        }
      }
      double gemm = 2.0 * n * n * n / 75e9;
      printf("%s n=%ld pack_a %.2f ms (%.2f GB/s, %.1f%%)  pack_b %.2f ms (%.2f GB/s, %.1f%%)\n", v ? "new" : "old", n,
             ta * 1e3, ea * 8 / ta / 1e9, 100 * ta / gemm, tb * 1e3, eb * 8 / tb / 1e9, 100 * tb / gemm);
    }
}
