// The packed GEMM in portable C++ (packed_gemm_blocked.hpp over GCC/Clang
// vector extensions of two doubles: SSE2 on x86-64, NEON elsewhere), for
// CPUs without AVX2 and to test the blocked loops with another MR×NR
// (8×4; default blocks MC = 128, KC = 256, NC = 2048, packed_kernels.hpp).
// Correct everywhere, not tuned.

#include "local/packed_kernels.hpp"
#include "local/packed_gemm_blocked.hpp"

namespace mmbench::local::packed_kernels {
namespace {
struct Portable {
  typedef double vec __attribute__((vector_size(16)));
  static constexpr int W = 2;
  static vec zero() { return vec{0.0, 0.0}; }
  static vec load(const double* p) { return vec{p[0], p[1]}; }
  static vec loadu(const double* p) { return vec{p[0], p[1]}; }
  static void store(double* p, vec v) { p[0] = v[0], p[1] = v[1]; }
  static void storeu(double* p, vec v) { p[0] = v[0], p[1] = v[1]; }
  static vec set1(double x) { return vec{x, x}; }
  static vec fma(vec a, vec b, vec c) { return a * b + c; }
  static void storeu_first(double* p, vec v, int n) {
    if (n > 0) p[0] = v[0];
  }
  static void transpose(vec r[2]) {
    const vec r0 = r[0];
    r[0] = vec{r0[0], r[1][0]};
    r[1] = vec{r0[1], r[1][1]};
  }
};
}  // namespace
const Kernel* portable() { return kernel_of<Blocked<Portable, 4, 4>, kPortableShape.mr, kPortableShape.nr>(); }
}  // namespace mmbench::local::packed_kernels
