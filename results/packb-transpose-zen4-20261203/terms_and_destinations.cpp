// One 1024^3 packed_gemm call on quadrants of 2048x2048 matrices with 1 or 2 A terms, B terms and
// destinations (the fused Strassen level's products have up to 2-2-2), and OpenBLAS DGEMM on the same
// quadrants, interleaved rounds; time over the plain 1-1-1 call of the same round, median [min, max].
// Build (repository root, after cmake --build build):
//   g++ -std=c++20 -O2 -Isrc results/packb-transpose-zen4-20261203/terms_and_destinations.cpp build/libmmbench_local.a
//   build/libmmbench_core.a
//     -lopenblas -lfmt -o /tmp/terms_and_destinations
// Run: OPENBLAS_NUM_THREADS=1 /tmp/terms_and_destinations N ROUNDS [MCxKCxNC [CONFIG,...]]
#include <cblas.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>
#include "local/packed_gemm.hpp"
using namespace mmbench::local;
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 2048, h = n / 2;
  const int rounds = argc > 2 ? atoi(argv[2]) : 9;
  PackedBlocking blk{};
  if (argc > 3) sscanf(argv[3], "%ldx%ldx%ld", &blk.mc, &blk.kc, &blk.nc);
  std::vector<double> A(n * n), B(n * n), C(n * n);
  for (long i = 0; i < n * n; ++i) {
    A[i] = (i % 7) * 0.1 - 0.3;
    B[i] = (i % 5) * 0.2 - 0.4;
    C[i] = 0;
  }
  const PackedIsa isa = packed_isa();
  std::vector<double> ws(packed_workspace_doubles(isa, blk) + 64);
  double* w = (double*)(((uintptr_t)ws.data() + 63) & ~uintptr_t(63));
  auto q = [&](std::vector<double>& M, int i, int j) { return M.data() + i * h + j * h * n; };
  struct Cfg {
    const char* name;
    int na, nb, nc;
  };
  std::vector<Cfg> cfgs = {{"1-1-1", 1, 1, 1}, {"2-1-1", 2, 1, 1}, {"1-2-1", 1, 2, 1},
                           {"1-1-2", 1, 1, 2}, {"2-2-2", 2, 2, 2}, {"dgemm", 0, 0, 0}};
  if (argc > 4) {  // keep only the named configurations (comma list); the first is the ratio's base
    std::vector<Cfg> keep;
    std::string list = argv[4];
    for (const Cfg& c : cfgs)
      if (("," + list + ",").find("," + std::string(c.name) + ",") != std::string::npos) keep.push_back(c);
    cfgs = keep;
  }
  std::vector<std::vector<double>> t(cfgs.size());
  for (int r = -1; r < rounds; ++r)
    for (size_t i0 = 0; i0 < cfgs.size(); ++i0) {
      size_t i = (i0 + std::max(r, 0)) % cfgs.size();
      const Cfg& c = cfgs[i];
      double t0 = now();
      if (c.na == 0) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, h, h, h, 1.0, q(A, 0, 0), n, q(B, 0, 0), n, 0.0,
                    q(C, 0, 0), n);
      } else {
        PackedTerm at[2] = {{q(A, 0, 0), n, 1.0}, {q(A, 1, 1), n, 1.0}};
        PackedTerm bt[2] = {{q(B, 0, 0), n, 1.0}, {q(B, 1, 1), n, 1.0}};
        PackedDestination ct[2] = {{q(C, 0, 0), n, 1.0, true}, {q(C, 1, 1), n, 1.0, true}};
        packed_gemm(h, h, h, at, c.na, bt, c.nb, ct, c.nc, w, isa, blk);
      }
      double dt = now() - t0;
      if (r >= 0) t[i].push_back(dt);
    }
  for (size_t i = 0; i < cfgs.size(); ++i) {
    std::vector<double> ratio;
    for (int r = 0; r < rounds; ++r) ratio.push_back(t[i][r] / t[0][r]);
    std::sort(ratio.begin(), ratio.end());
    std::sort(t[i].begin(), t[i].end());
    printf("%-6s t_med %.4f s  %.1f GF/s  time/plain %.3f [%.3f, %.3f]\n", cfgs[i].name, t[i][rounds / 2],
           2.0 * h * h * h / t[i][rounds / 2] / 1e9, ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
  }
}
