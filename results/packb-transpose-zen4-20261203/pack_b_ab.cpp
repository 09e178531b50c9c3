// pack_b alone, old (commit 115aa11) vs new, for both x86 kernels: 1024x1024 block of a 2048 matrix, 1 and 2 terms
// Build (repository root), with the old kernel taken from commit 115aa11 (before this change):
//   git show 115aa11:src/local/packed_gemm_blocked.hpp | sed -e 's/^namespace mmbench::local {/namespace old {\n
//     namespace packed_kernels = mmbench::local::packed_kernels;\nusing mmbench::local::PackedTerm, mmbench::local::
//     PackedDestination, mmbench::local::PackedBlocking, mmbench::local::kPackedMaxDestinations;/'
//     -e 's|^}  // namespace mmbench::local|}  // namespace old|' > /tmp/old_blocked.hpp
//   g++ -std=c++20 -O3 -mavx512f -mfma -mavx2 -Isrc -I/tmp results/packb-transpose-zen4-20261203/pack_b_ab.cpp -o
//   /tmp/pack_b_ab
// Run: /tmp/pack_b_ab
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
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
template <class New, class Old>
void run(const char* name) {
  const long n = 2048, h = 1024, KC = 512;
  std::vector<double> B(n * n), big(32 << 20), o1((h + 16) * KC), o2((h + 16) * KC);
  for (long i = 0; i < n * n; ++i) B[i] = (i % 5) * 0.2 + i * 1e-9;
  for (int nt : {1, 2}) {
    PackedTerm bt[2] = {{B.data(), n, 1.0}, {B.data() + h + h * n, n, -1.0}};
    New::pack_b(KC, h - 5, bt, nt, 3, 0, o1.data());
    Old::pack_b(KC, h - 5, bt, nt, 3, 0, o2.data());
    double md = 0;
    for (size_t i = 0; i < o1.size(); ++i) md = std::max(md, std::abs(o1[i] - o2[i]));
    std::vector<double> r;
    for (int rep = 0; rep < 15; ++rep) {
      double t[2];
      for (int v0 = 0; v0 < 2; ++v0) {
        const int v = (v0 + rep) % 2;
        for (auto& x : big) x += 1.0;
        const double t0 = now();
        for (long pc = 0; pc < h; pc += KC)
          v == 0 ? New::pack_b(KC, h, bt, nt, pc, 0, o1.data()) : Old::pack_b(KC, h, bt, nt, pc, 0, o2.data());
        t[v] = now() - t0;
      }
      r.push_back(t[1] / t[0]);
    }
    std::sort(r.begin(), r.end());
    printf("%s, %d term(s): max|new-old| %g, old time / new time %.2f [%.2f, %.2f]\n", name, nt, md, r[7], r[0], r[14]);
  }
}
int main() {
  run<Blocked<pk::Avx512, 2, 12>, old::Blocked<pk::Avx512, 2, 12>>("avx512 16x12");
  run<Blocked<pk::Avx2, 2, 6>, old::Blocked<pk::Avx2, 2, 6>>("avx2 8x6");
}
