// results/packed-split-20261129/pack_split.cpp with its buffers on 2 MiB
// boundaries and, by HUGE (a bit mask), advised as transparent huge pages
// (madvise MADV_HUGEPAGE; this VM's THP mode is "madvise"): 1 the packed
// GEMM's workspace, 2 the matrices A, B, C. Same variants and ratios.
// Build: g++ -std=c++20 -O3 -mavx512f -mfma -Isrc results/huge-pages-20261129/split_huge.cpp
//        -o /tmp/split_huge build/libmmbench_local.a -lopenblas
// Run:   HUGE=0|1|3 OPENBLAS_CORETYPE=Cooperlake /tmp/split_huge N ROUNDS MC KC NC
// Where the packed GEMM's time goes against OpenBLAS's DGEMM, one thread:
// the packed GEMM's own blocked loops (src/local/packed_gemm_blocked.hpp,
// AVX-512 16x12 tile) run four ways in each round, rotated with DGEMM:
//   full       as mmbench runs it (pack B block, pack A block, kernels)
//   no_pack_b  B packed once before the timing, never again
//   no_pack_a  A packed once before the timing, never again
//   no_pack    neither packed again: the loops and micro-kernel alone
// The results of the no_pack* variants are wrong on purpose (stale panels);
// only their time is used. Each ratio is DGEMM's time over the variant's in
// the same round; median [min, max] over the rounds.
//
// Build (from the repository root, after `make build`), one line:
//   g++ -std=c++20 -O3 -mavx512f -mfma -Isrc results/packed-split-20261129/pack_split.cpp
//   -o /tmp/pack_split build/libmmbench_local.a -lopenblas
// Run: OPENBLAS_CORETYPE=Cooperlake /tmp/pack_split N ROUNDS MC KC NC
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <sys/mman.h>

#include "local/packed_gemm_blocked.hpp"
#include "local/packed_simd.hpp"
#include "local/peak_loop.hpp"

using namespace mmbench::local;
namespace {
using Kernel = Blocked<packed_kernels::Avx512, 2, 12>;
constexpr int MR = 16, NR = 12;
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Kernel::gemm's loops with packing switched off per operand (0 full,
// 1 no B packing, 2 no A packing, 3 neither).
void gemm(int mode, pi64 n, const PackedTerm* a, const PackedTerm* b, const PackedDestination* c, double* ws,
          const PackedBlocking& bl) {
  double* ap = ws;
  double* bp = ws + Kernel::ap_doubles(bl);
  double* col = bp + Kernel::bp_doubles(bl);
  const pi64 nstep = even_step(n, bl.nc), kstep = even_step(n, bl.kc);
  for (pi64 jc = 0; jc < n; jc += nstep) {
    const pi64 ncols = pmin(nstep, n - jc);
    for (pi64 pc = 0; pc < n; pc += kstep) {
      const pi64 kc = pmin(kstep, n - pc);
      if (mode == 0 || mode == 2) Kernel::pack_b(kc, ncols, b, 1, pc, jc, bp);
      for (pi64 ic = 0; ic < n; ic += bl.mc) {
        const pi64 mc = pmin(bl.mc, n - ic);
        if (mode == 0 || mode == 1) Kernel::pack_a(mc, kc, a, 1, ic, pc, ap, col);
        for (pi64 jr = 0; jr < ncols; jr += NR)
          for (pi64 ir = 0; ir < mc; ir += MR) {
            PackedDestination t{c->data + (ic + ir) + (jc + jr) * c->ld, c->ld, 1.0, false};
            Kernel::micro_kernel(kc, ap + ir * kc, bp + jr * kc, &t, 1, pmin(MR, mc - ir), pmin(NR, ncols - jr),
                                 pc == 0);
          }
      }
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s N ROUNDS MC KC NC\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int rounds = std::atoi(argv[2]);
  const PackedBlocking bl{std::atol(argv[3]), std::atol(argv[4]), std::atol(argv[5])};
  openblas_set_num_threads(1);
  const int huge = getenv("HUGE") ? atoi(getenv("HUGE")) : 0;
  const size_t wsb = (Kernel::workspace_doubles(bl) * 8 + (2 << 20) - 1) / (2 << 20) * (2 << 20);
  auto* ws = static_cast<double*>(std::aligned_alloc(2 << 20, wsb));
  if (huge & 1) madvise(ws, wsb, MADV_HUGEPAGE);
  const size_t mb = (n * n * 8 + (2 << 20) - 1) / (2 << 20) * (2 << 20);
  struct Buf {
    double* p;
    double* data() { return p; }
    double& operator[](long i) { return p[i]; }
  };
  Buf A{(double*)std::aligned_alloc(2 << 20, mb)}, B{(double*)std::aligned_alloc(2 << 20, mb)},
      C{(double*)std::aligned_alloc(2 << 20, mb)};
  if (huge & 2) {
    madvise(A.p, mb, MADV_HUGEPAGE);
    madvise(B.p, mb, MADV_HUGEPAGE);
    madvise(C.p, mb, MADV_HUGEPAGE);
  }
  for (long i = 0; i < n * n; ++i) C[i] = 0;
  for (long i = 0; i < n * n; ++i) {
    A[i] = (i % 7) * 0.1 - 0.3;
    B[i] = (i % 5) * 0.2 - 0.4;
  }
  const PackedTerm at{A.data(), n, 1.0}, bt{B.data(), n, 1.0};
  const PackedDestination ct{C.data(), n, 1.0, false};
  const char* names[] = {"full", "no_pack_b", "no_pack_a", "no_pack", "dgemm"};
  constexpr int kVariants = 5;
  std::vector<std::vector<double>> t(kVariants);
  std::vector<double> peak;
  gemm(0, n, &at, &bt, &ct, ws, bl);  // the panels the no_pack variants reuse
  for (int r = 0; r < rounds; ++r) {
    double t0 = now();
    volatile double sink = avx512_peak_loop()(20'000'000);
    (void)sink;
    peak.push_back(20'000'000.0 * kAvx512FlopsPerIteration / (now() - t0) / 1e9);
    for (int q = 0; q < kVariants; ++q) {
      const int j = (q + r) % kVariants;
      t0 = now();
      if (j == 4)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A.data(), n, B.data(), n, 1.0, C.data(),
                    n);
      else
        gemm(j, n, &at, &bt, &ct, ws, bl);
      t[j].push_back(now() - t0);
    }
  }
  std::sort(peak.begin(), peak.end());
  const double fma = peak[peak.size() / 2];
  std::printf("# huge=%d n=%ld %ldx%ldx%ld rounds=%d, FMA loop %.1f GFLOP/s (median)\n", huge, n, bl.mc, bl.kc, bl.nc,
              rounds, fma);
  std::printf("variant,gflops,of_fma,vs_dgemm_median,vs_dgemm_min,vs_dgemm_max\n");
  for (int j = 0; j < kVariants; ++j) {
    std::vector<double> ratio, v = t[j];
    for (int r = 0; r < rounds; ++r) ratio.push_back(t[4][r] / t[j][r]);
    std::sort(ratio.begin(), ratio.end());
    std::sort(v.begin(), v.end());
    const double g = 2.0 * n * n * n / v[v.size() / 2] / 1e9;
    std::printf("%s,%.1f,%.3f,%.3f,%.3f,%.3f\n", names[j], g, g / fma, ratio[ratio.size() / 2], ratio.front(),
                ratio.back());
  }
  std::free(ws);
}
