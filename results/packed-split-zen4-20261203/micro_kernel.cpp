// The packed GEMM's micro-kernel alone (src/local/packed_gemm_blocked.hpp),
// one thread: for each of MPANELS A panels (MR x KC) and NPANELS B panels
// (KC x NR) packed once, jr outer and ir inner as Blocked::gemm runs them,
// the tile added into C; best of 20 repetitions over the FMA loop's rate
// measured once at the start. LDC (default: the panels' rows + 8) sets C's
// leading dimension; CROWS x CCOLS (default: the panels' extent) sets C's
// size, and each repetition moves to other rows/columns of it, so a C of
// 2048 x 2048 comes from memory as in a real product. Tiles: 16x12 (the
// product's), 16x14, 24x8, 8x24, 32x6, 16x12 again.
// Build (repository root, after make build), one line:
//   g++ -std=c++20 -O3 -mavx512f -mfma -Isrc results/packed-split-zen4-20261203/micro_kernel.cpp
//   -o /tmp/micro_kernel build/libmmbench_local.a
// Run: /tmp/micro_kernel KC MPANELS NPANELS, e.g. 768 6 86 (MC 96, NC 1032)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "local/packed_gemm_blocked.hpp"
#include "local/packed_simd.hpp"
#include "local/peak_loop.hpp"
using namespace mmbench::local;
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
template <int V, int NR>
double run(long kc, long mpanels, long npanels, int reps) {
  using K = Blocked<packed_kernels::Avx512, V, NR>;
  constexpr int MR = K::MR;
  double* a = (double*)aligned_alloc(64, sizeof(double) * MR * kc * mpanels + 64);
  double* b = (double*)aligned_alloc(64, sizeof(double) * NR * kc * npanels + 64);
  for (long i = 0; i < MR * kc * mpanels; ++i) a[i] = 1e-3 * (i % 7);
  for (long i = 0; i < NR * kc * npanels; ++i) b[i] = 1e-3 * (i % 5);
  long ldc = getenv("LDC") ? atol(getenv("LDC")) : MR * mpanels + 8;
  long ccols = getenv("CCOLS") ? atol(getenv("CCOLS")) : NR * npanels;
  long crows = getenv("CROWS") ? atol(getenv("CROWS")) : MR * mpanels;
  if (ccols < NR * npanels || crows < MR * mpanels) {
    fprintf(stderr, "C of %ld x %ld is smaller than the tiles' extent\n", crows, ccols);
    exit(2);
  }
  double* c = (double*)aligned_alloc(64, sizeof(double) * ldc * ccols + 64);
  for (long i = 0; i < ldc * ccols; ++i) c[i] = 0;
  double best = 0;
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
    for (long jr = 0; jr < npanels; ++jr)
      for (long ir = 0; ir < mpanels; ++ir) {
        long roff = (r * MR * mpanels) % (crows - MR * mpanels + 1);
        long coff = ((r * 7) % (ccols / (NR * npanels))) * NR * npanels;
        PackedDestination d{c + roff + ir * MR + (coff + jr * NR) * ldc, ldc, 1.0, false};
        K::micro_kernel(kc, a + ir * MR * kc, b + jr * NR * kc, &d, 1, MR, NR, false);
      }
    double t = now() - t0;
    double g = 2.0 * MR * NR * kc * mpanels * npanels / t / 1e9;
    if (g > best) best = g;
  }
  free(a);
  free(b);
  free(c);
  return best;
}
int main(int argc, char** argv) {
  long kc = atol(argv[1]), mp = atol(argv[2]), np = atol(argv[3]);
  auto loop = avx512_peak_loop();
  double t0 = now();
  volatile double sink = loop(20000000);
  (void)sink;
  double fma = 20000000.0 * kAvx512FlopsPerIteration / (now() - t0) / 1e9;
  printf("# KC %ld, %ld A panels, %ld B panels; FMA loop %.1f GFLOP/s; tile, best rate over it\n", kc, mp, np, fma);
  printf("16x12 %.3f\n", run<2, 12>(kc, mp, np, 20) / fma);
  printf("16x14 %.3f\n", run<2, 14>(kc, mp, np, 20) / fma);
  printf("24x8  %.3f\n", run<3, 8>(kc, (mp * 16) / 24, np, 20) / fma);
  printf("8x24  %.3f\n", run<1, 24>(kc, mp * 2, np / 2, 20) / fma);
  printf("32x6  %.3f\n", run<4, 6>(kc, mp / 2, np * 2, 20) / fma);
  printf("16x12 %.3f\n", run<2, 12>(kc, mp, np, 20) / fma);
}
