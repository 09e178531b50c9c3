// old (commit 115aa11's packed_gemm_blocked.hpp) vs new (working tree) on one 1024^3 product on quadrants
// of 2048x2048 matrices, 1-1-1 and 2-2-2 terms/terms/destinations, interleaved; per-round ratios.
// Build (repository root), with the old kernel taken from commit 115aa11 (before this change):
//   git show 115aa11:src/local/packed_gemm_blocked.hpp | sed -e 's/^namespace mmbench::local {/namespace old {\n
//     namespace packed_kernels = mmbench::local::packed_kernels;\nusing mmbench::local::PackedTerm, mmbench::local::
//     PackedDestination, mmbench::local::PackedBlocking, mmbench::local::kPackedMaxDestinations;/'
//     -e 's|^}  // namespace mmbench::local|}  // namespace old|' > /tmp/old_blocked.hpp
//   g++ -std=c++20 -O3 -mavx512f -mfma -Isrc -I/tmp results/packb-transpose-zen4-20261203/fused_product_ab.cpp -o
//   /tmp/fused_product_ab -lopenblas
// Run: OPENBLAS_NUM_THREADS=1 /tmp/fused_product_ab N ROUNDS [MCxKCxNC [MCxKCxNC]]
// With a second blocking Y, "old" is the new kernel with blocking Y (the first, X, runs "new"):
// e.g. 2048 21 96x768x1024 96x1024x1024 compares KC = 768 with KC = 1024.
#include <cblas.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "local/packed_gemm_blocked.hpp"
#include "local/packed_simd.hpp"
#include "old_blocked.hpp"
using namespace mmbench::local;
namespace pk = mmbench::local::packed_kernels;
using New = Blocked<pk::Avx512, 2, 12>;
using Old = old::Blocked<pk::Avx512, 2, 12>;
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 2048, h = n / 2;
  const int rounds = argc > 2 ? atoi(argv[2]) : 15;
  PackedBlocking bl{96, 768, 1024}, bl2{};
  if (argc > 3) sscanf(argv[3], "%ldx%ldx%ld", &bl.mc, &bl.kc, &bl.nc);
  const bool two_blockings = argc > 4;
  if (two_blockings) sscanf(argv[4], "%ldx%ldx%ld", &bl2.mc, &bl2.kc, &bl2.nc);
  std::vector<double> A(n * n), B(n * n), C(n * n), R(n * n);
  for (long i = 0; i < n * n; ++i) {
    A[i] = (i % 7) * 0.1 - 0.3;
    B[i] = (i % 5) * 0.2 - 0.4;
  }
  double* ws = (double*)aligned_alloc(
      64, (std::max(New::workspace_doubles(bl), two_blockings ? New::workspace_doubles(bl2) : 0) * 8 + 63) / 64 * 64 +
              4096);
  auto q = [&](std::vector<double>& M, int i, int j) { return M.data() + i * h + j * h * n; };
  PackedTerm at[2] = {{q(A, 0, 0), n, 1.0}, {q(A, 1, 1), n, -1.0}};
  PackedTerm bt[2] = {{q(B, 0, 0), n, 1.0}, {q(B, 1, 1), n, 1.0}};
  PackedDestination ct[2] = {{q(C, 0, 0), n, 1.0, true}, {q(C, 1, 1), n, -1.0, true}};
  PackedDestination rt[2] = {{q(R, 0, 0), n, 1.0, true}, {q(R, 1, 1), n, -1.0, true}};
  Old::gemm(h, h, h, at, 2, bt, 2, rt, 2, ws, bl);
  New::gemm(h, h, h, at, 2, bt, 2, ct, 2, ws, bl);
  double md = 0;
  for (long i = 0; i < n * n; ++i) md = std::max(md, std::abs(C[i] - R[i]));
  printf("# n=%ld quadrants %ld, %ldx%ldx%ld, max|new-old| %g\n", n, h, bl.mc, bl.kc, bl.nc, md);
  if (two_blockings)
    printf("# new with %ldx%ldx%ld (X) against new with %ldx%ldx%ld (Y, the lines \"old\")\n", bl.mc, bl.kc, bl.nc,
           bl2.mc, bl2.kc, bl2.nc);
  const char* names[] = {"new 1-1-1", "old 1-1-1", "new 2-2-2", "old 2-2-2", "dgemm"};
  std::vector<double> t[5];
  for (int r = -1; r < rounds; ++r)
    for (int i0 = 0; i0 < 5; ++i0) {
      const int j = (i0 + std::max(r, 0)) % 5;
      const int terms = j < 2 ? 1 : 2;
      const double t0 = now();
      if (j == 4)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, h, h, h, 1.0, q(A, 0, 0), n, q(B, 0, 0), n, 0.0,
                    q(C, 0, 0), n);
      else if (j % 2 == 0)
        New::gemm(h, h, h, at, terms, bt, terms, ct, terms, ws, bl);
      else if (two_blockings)
        New::gemm(h, h, h, at, terms, bt, terms, ct, terms, ws, bl2);
      else
        Old::gemm(h, h, h, at, terms, bt, terms, ct, terms, ws, bl);
      if (r >= 0) t[j].push_back(now() - t0);
    }
  auto ratio = [&](int a, int b) {
    std::vector<double> v;
    for (int r = 0; r < rounds; ++r) v.push_back(t[b][r] / t[a][r]);
    std::sort(v.begin(), v.end());
    return std::vector<double>{v[rounds / 2], v[0], v[rounds - 1]};
  };
  for (int i = 0; i < 5; ++i) {
    auto d = ratio(i, 4);
    std::vector<double> s = t[i];
    std::sort(s.begin(), s.end());
    printf("%-10s %.2f ms  vs dgemm %.3f [%.3f, %.3f]\n", names[i], s[rounds / 2] * 1e3, d[0], d[1], d[2]);
  }
  for (int i : {0, 2}) {
    auto d = ratio(i, i + 1);
    printf("%s: new speed / old %.3f [%.3f, %.3f]\n", i == 0 ? "1-1-1" : "2-2-2", d[0], d[1], d[2]);
  }
}
