// The packed GEMM with AVX2 and FMA (packed_gemm_blocked.hpp); compiled
// with -mavx2 -mfma (CMakeLists.txt) and only called where the CPU has them.
//
// MR×NR = 8×6: 12 accumulators, two A vectors and a broadcast in 15 of the
// 16 registers. Default blocks (packed_kernels.hpp; `mmbench tune` measures
// others on the machine at hand) MC = 48, KC = 768, NC = 1024: in a one-run-each prototype
// sweep at n = 3072 (not kept), 8×6 ran at 97-99 % of OpenBLAS's Haswell
// DGEMM (62-63 GF/s), 12×4 at 93-97 %, 8×4 at 89-92 %; then, in paired runs
// against it at n = 4096 (outputs not kept), NC = 1024 ran at
// 0.96-0.98 of OpenBLAS against 0.91-0.97 with NC = 4096, and KC = 768
// (one k block for the fused level's 768-deep products, as in the AVX-512
// kernel) ran the fused level within 1-4 % of the other choices.
#include "local/packed_kernels.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include "local/packed_gemm_blocked.hpp"
#include "local/packed_simd.hpp"

namespace mmbench::local::packed_kernels {
const Kernel* avx2() { return kernel_of<Blocked<Avx2, 2, 6>, kAvx2Shape.mr, kAvx2Shape.nr>(); }
}  // namespace mmbench::local::packed_kernels

#else
namespace mmbench::local::packed_kernels {
const Kernel* avx2() { return nullptr; }
}  // namespace mmbench::local::packed_kernels
#endif
