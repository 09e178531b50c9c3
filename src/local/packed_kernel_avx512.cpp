// The packed GEMM with AVX-512 (packed_gemm_blocked.hpp); compiled with
// -mavx512f -mfma (CMakeLists.txt) and only called where the CPU has them.
//
// MR×NR = 16×12: 24 accumulators, two A vectors and a broadcast in 27 of
// the 32 registers; per k step 2 vector loads, 12 broadcasts, 24 FMAs.
// Default blocks (packed_kernels.hpp; `mmbench tune` measures others on the
// machine at hand) MC = 96, KC = 768, NC = 1024 (the A block 576 KiB in the
// 1 MiB L2, the B block 6 MiB): NC was 4096 until a paired sweep against OpenBLAS's
// AVX-512 DGEMM at n = 4096 and 8192 (outputs not kept; the committed runs:
// docs/results.md, "Local Strassen–Winograd vs DGEMM") showed a 16 MiB B
// block costing ~10 %, with NC anywhere in {768, 1024, 1536, 2048} and
// MC × KC anywhere in {64..240} × {256..768} about equal. KC = 768 takes the
// 768-deep products of the fused Strassen level at n = 12288, L = 4 in one
// k block, so each C quadrant is updated once per product (with MC = 96
// or 64 the fused level ran 3-5 % faster than with MC × KC = 192 × 512 in
// the same runs). An earlier sweep
// at n = 3072 picked 16×12 over 24×8, 16×14 and 8×24.
// Packing B of a 768³ product with two terms per side (a fused product at
// n = 12288, L = 4) took 0.67-0.68 ms of the product's 7.96-8.10 ms when
// pack_b spread one whole column after another, 0.46-0.48 ms of 7.75-7.97
// ms in 64-row blocks (three alternating runs each, 31 repetitions, a
// scratch harness around these templates; not kept).
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
