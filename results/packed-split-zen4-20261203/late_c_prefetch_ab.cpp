// The packed GEMM as built (base) against late_c_prefetch.hpp (alt) and OpenBLAS DGEMM, C = A B,
// n x n x n, one thread, the three rotated in every round; ratios per round, median [min, max].
// Prints alt's largest difference from base first (the same product).
// late_c_prefetch.hpp is src/local/packed_gemm_blocked.hpp with late_c_prefetch.diff applied:
// the same templates in namespace alt, whose micro-kernel asks for the C tile LATE k steps
// before the end of its k loop instead of at its start.
// Build (repository root), three lines:
//   cp src/local/packed_gemm_blocked.hpp /tmp/late_c_prefetch.hpp
//   patch -s /tmp/late_c_prefetch.hpp results/packed-split-zen4-20261203/late_c_prefetch.diff
//   g++ -std=c++20 -O3 -mavx512f -mfma -mprfchw -DLATE=64 -Isrc -I/tmp
//     results/packed-split-zen4-20261203/late_c_prefetch_ab.cpp -o /tmp/late_ab -lopenblas
// Run: OPENBLAS_NUM_THREADS=1 /tmp/late_ab N ROUNDS MC KC NC
#include <cblas.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "local/packed_gemm_blocked.hpp"
#include "local/packed_simd.hpp"
#include "late_c_prefetch.hpp"
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
using mmbench::local::PackedBlocking;
using mmbench::local::PackedDestination;
using mmbench::local::PackedTerm;
namespace packed_kernels = mmbench::local::packed_kernels;
using Base = mmbench::local::Blocked<packed_kernels::Avx512, 2, 12>;
using Alt = alt::Blocked<packed_kernels::Avx512, 2, 12>;
int main(int argc, char** argv) {
  long n = atol(argv[1]);
  int rounds = atoi(argv[2]);
  PackedBlocking bl{atol(argv[3]), atol(argv[4]), atol(argv[5])};
  openblas_set_num_threads(1);
  auto* ws = static_cast<double*>(
      std::aligned_alloc(64, (std::max(Base::workspace_doubles(bl), Alt::workspace_doubles(bl)) * 8 + 63) / 64 * 64));
  std::vector<double> A(n * n), B(n * n), C(n * n), R(n * n);
  for (long i = 0; i < n * n; ++i) {
    A[i] = (i % 7) * 0.1 - 0.3;
    B[i] = (i % 5) * 0.2 - 0.4;
  }
  PackedTerm at{A.data(), n, 1.0}, bt{B.data(), n, 1.0};
  PackedDestination ct{C.data(), n, 1.0, true}, rt{R.data(), n, 1.0, true};
  Base::gemm(n, n, n, &at, 1, &bt, 1, &rt, 1, ws, bl);
  Alt::gemm(n, n, n, &at, 1, &bt, 1, &ct, 1, ws, bl);
  double md = 0;
  for (long i = 0; i < n * n; ++i) md = std::max(md, std::abs(C[i] - R[i]));
  printf("# n=%ld %ldx%ldx%ld max|alt-base| %.3g\n", n, bl.mc, bl.kc, bl.nc, md);
  const char* names[] = {"base", "alt", "dgemm"};
  std::vector<double> t[3];
  for (int r = 0; r < rounds; ++r)
    for (int q = 0; q < 3; ++q) {
      int j = (q + r) % 3;
      double t0 = now();
      if (j == 0)
        Base::gemm(n, n, n, &at, 1, &bt, 1, &ct, 1, ws, bl);
      else if (j == 1)
        Alt::gemm(n, n, n, &at, 1, &bt, 1, &ct, 1, ws, bl);
      else
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A.data(), n, B.data(), n, 0.0, C.data(),
                    n);
      t[j].push_back(now() - t0);
    }
  for (int j = 0; j < 3; ++j) {
    std::vector<double> ra, rb;
    for (int r = 0; r < rounds; ++r) {
      ra.push_back(t[2][r] / t[j][r]);
      rb.push_back(t[0][r] / t[j][r]);
    }
    std::sort(ra.begin(), ra.end());
    std::sort(rb.begin(), rb.end());
    std::vector<double> v = t[j];
    std::sort(v.begin(), v.end());
    printf("%-6s %.1f GF/s  vs dgemm %.3f [%.3f,%.3f]  vs base %.3f [%.3f,%.3f]\n", names[j],
           2.0 * n * n * n / v[v.size() / 2] / 1e9, ra[rounds / 2], ra.front(), ra.back(), rb[rounds / 2], rb.front(),
           rb.back());
  }
}
