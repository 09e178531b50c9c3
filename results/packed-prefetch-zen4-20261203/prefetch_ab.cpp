// The packed GEMM as built (new) against the same at commit 27d00a5 (old: the C tile asked for
// all at once when a micro-kernel call starts, nothing of the next B micro-panel) and OpenBLAS
// DGEMM, C = A B, n x n x n, one thread, the three rotated in every round; per-round ratios,
// median [min, max]. Prints the largest difference between new and old first (the same sums in
// the same order, so 0 is expected).
// Build (repository root), three lines:
//   git show 27d00a5:src/local/packed_gemm_blocked.hpp | sed -e 's/^namespace mmbench::local {/namespace old {\n
//     namespace packed_kernels = mmbench::local::packed_kernels;\nusing mmbench::local::PackedTerm, mmbench::local::
//     PackedDestination, mmbench::local::PackedBlocking, mmbench::local::kPackedMaxDestinations;/'
//     -e 's|^}  // namespace mmbench::local|}  // namespace old|' > /tmp/old_blocked.hpp
//   g++ -std=c++20 -O3 -mavx512f -mfma -Isrc -I/tmp results/packed-prefetch-zen4-20261203/prefetch_ab.cpp
//     -o /tmp/prefetch_ab -lopenblas
// Run: OPENBLAS_NUM_THREADS=1 /tmp/prefetch_ab N ROUNDS MC KC NC [avx2]
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "local/packed_gemm_blocked.hpp"
#include "local/packed_simd.hpp"
#include "old_blocked.hpp"

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
using mmbench::local::PackedBlocking;
using mmbench::local::PackedDestination;
using mmbench::local::PackedTerm;
namespace pk = mmbench::local::packed_kernels;
template <class New, class Old>
int run(long n, int rounds, PackedBlocking bl) {
  auto* ws = static_cast<double*>(
      std::aligned_alloc(64, (std::max(New::workspace_doubles(bl), Old::workspace_doubles(bl)) * 8 + 63) / 64 * 64));
  std::vector<double> A(n * n), B(n * n), C(n * n), R(n * n);
  for (long i = 0; i < n * n; ++i) {
    A[i] = (i % 7) * 0.1 - 0.3;
    B[i] = (i % 5) * 0.2 - 0.4;
  }
  PackedTerm at{A.data(), n, 1.0}, bt{B.data(), n, 1.0};
  PackedDestination ct{C.data(), n, 1.0, true}, rt{R.data(), n, 1.0, true};
  Old::gemm(n, n, n, &at, 1, &bt, 1, &rt, 1, ws, bl);
  New::gemm(n, n, n, &at, 1, &bt, 1, &ct, 1, ws, bl);
  double md = 0;
  for (long i = 0; i < n * n; ++i) md = std::max(md, std::abs(C[i] - R[i]));
  std::printf("# n=%ld %ldx%ldx%ld max|new-old| %.3g\n", n, bl.mc, bl.kc, bl.nc, md);
  const char* names[] = {"new", "old", "dgemm"};
  std::vector<double> t[3];
  for (int r = 0; r < rounds; ++r)
    for (int q = 0; q < 3; ++q) {
      const int j = (q + r) % 3;
      const double t0 = now();
      if (j == 0)
        New::gemm(n, n, n, &at, 1, &bt, 1, &ct, 1, ws, bl);
      else if (j == 1)
        Old::gemm(n, n, n, &at, 1, &bt, 1, &ct, 1, ws, bl);
      else
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A.data(), n, B.data(), n, 0.0, C.data(),
                    n);
      t[j].push_back(now() - t0);
    }
  for (int j = 0; j < 3; ++j) {
    std::vector<double> vs_dgemm, vs_old, v = t[j];
    for (int r = 0; r < rounds; ++r) {
      vs_dgemm.push_back(t[2][r] / t[j][r]);
      vs_old.push_back(t[1][r] / t[j][r]);
    }
    std::sort(vs_dgemm.begin(), vs_dgemm.end());
    std::sort(vs_old.begin(), vs_old.end());
    std::sort(v.begin(), v.end());
    std::printf("%-6s %.1f GF/s  vs dgemm %.3f [%.3f,%.3f]  vs old %.3f [%.3f,%.3f]\n", names[j],
                2.0 * n * n * n / v[v.size() / 2] / 1e9, vs_dgemm[rounds / 2], vs_dgemm.front(), vs_dgemm.back(),
                vs_old[rounds / 2], vs_old.front(), vs_old.back());
  }
  std::free(ws);
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: %s N ROUNDS MC KC NC [avx2]\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int rounds = std::atoi(argv[2]);
  const PackedBlocking bl{std::atol(argv[3]), std::atol(argv[4]), std::atol(argv[5])};
  openblas_set_num_threads(1);
  if (argc == 7 && std::strcmp(argv[6], "avx2") == 0)
    return run<mmbench::local::Blocked<pk::Avx2, 2, 6>, old::Blocked<pk::Avx2, 2, 6>>(n, rounds, bl);
  return run<mmbench::local::Blocked<pk::Avx512, 2, 12>, old::Blocked<pk::Avx512, 2, 12>>(n, rounds, bl);
}
