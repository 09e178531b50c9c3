// The packed GEMM with AVX-512 (packed_gemm_blocked.hpp); compiled with
// -mavx512f -mfma (CMakeLists.txt) and only called where the CPU has them.
//
// MR×NR = 16×12: 24 accumulators, two A vectors and a broadcast in 27 of
// the 32 registers; per k step 2 vector loads, 12 broadcasts, 24 FMAs.
// Default blocks (packed_kernels.hpp; `mmbench tune` measures others on the
// machine at hand, `build/bench/packed_blockings` compares any list against
// DGEMM): MC = 96, KC = 768, NC = 1024.
// - MC × KC: the A block, 576 KiB, stays in a 1-2 MiB L2.
// - NC = 1024: the B block, 6 MiB, stays in L3 between its uses by every A
//   block; on the Intel Xeon a B block as wide as n (NC = 4096 at n = 4096)
//   left the cache between uses and slowed the loops themselves
//   (docs/results.md, "Where the packed GEMM's time goes"); on Zen 4, with
//   the next B micro-panel asked for ahead, it did not ("The next B
//   micro-panel"), and `mmbench tune` picks per machine.
// - KC = 768 takes the 768-deep products of the fused Strassen level at
//   n = 12288, L = 4 in one k block, so each C quadrant is updated once per
//   product.
// Which blocking wins, and by how much, differs between CPUs: the measured
// sweeps are in docs/results.md (sections on the packed GEMM and local
// Strassen-Winograd), not here.
#include "local/packed_kernels.hpp"

#if defined(__AVX512F__) && defined(__FMA__)
#include "local/packed_gemm_blocked.hpp"
#include "local/packed_simd.hpp"

namespace mmbench::local::packed_kernels {
const Kernel* avx512() { return kernel_of<Blocked<Avx512, 2, 12>, kAvx512Shape.mr, kAvx512Shape.nr>(); }
}  // namespace mmbench::local::packed_kernels

#else
namespace mmbench::local::packed_kernels {
const Kernel* avx512() { return nullptr; }
}  // namespace mmbench::local::packed_kernels
#endif
