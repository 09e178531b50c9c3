// Register-only loops that run a core's double-precision arithmetic at its
// peak, one per vector width (core/machine/cpu_features.hpp): no memory traffic,
// only independent multiply-add chains in registers. The machine's peak
// (tuner/peak.hpp) is the rate of the fastest of them.
//
// Why kPeakAccumulators = 12 independent chains: an FMA's result is ready
// only after its latency (4-5 cycles on Haswell through Zen 5), and a core
// starts up to 2 FMAs per cycle, so at least 4 x 2 = 8 (Haswell: 5 x 2 = 10)
// chains must be in flight to keep both units busy; 12 covers every x86
// core mmbench has met and still fits the 16 registers of AVX2 and SSE2
// with the two constants. SSE2 has no FMA: each step is a multiply then an
// add, so a chain waits for both latencies, and 12 chains keep the multiply
// and add units busy too.
//
// One iteration runs one step on every accumulator; the flops per iteration
// are below per ISA (an FMA or a multiply plus an add count 2 flops per
// double).
#pragma once

#include <cstdint>

#include "core/machine/cpu_features.hpp"

namespace mmbench::local {

inline constexpr int kPeakAccumulators = 12;
inline constexpr int kFlopsPerMultiplyAdd = 2;

inline constexpr std::int64_t kAvx512FlopsPerIteration =
    doubles_per_vector(VectorIsa::avx512) * kFlopsPerMultiplyAdd * kPeakAccumulators;  // 8 x 2 x 12 = 192
inline constexpr std::int64_t kAvx2FmaFlopsPerIteration =
    doubles_per_vector(VectorIsa::avx2_fma) * kFlopsPerMultiplyAdd * kPeakAccumulators;  // 4 x 2 x 12 = 96
inline constexpr std::int64_t kSse2FlopsPerIteration =
    doubles_per_vector(VectorIsa::sse2) * kFlopsPerMultiplyAdd * kPeakAccumulators;  // 2 x 2 x 12 = 48

constexpr std::int64_t peak_flops_per_iteration(VectorIsa isa) {
  return isa == VectorIsa::avx512     ? kAvx512FlopsPerIteration
         : isa == VectorIsa::avx2_fma ? kAvx2FmaFlopsPerIteration
                                      : kSse2FlopsPerIteration;
}

// Runs `iterations` iterations and returns a value computed from the
// accumulators (so that the compiler cannot drop the loop; it is finite and
// near 1 for any count).
using PeakLoop = double (*)(std::int64_t iterations);

// The ISA's loop, or nullptr where this build has none (a compiler without
// the ISA's flags, or not x86-64). Call it only where the CPU has the ISA
// (vector_isas(detect_cpu().flags)).
PeakLoop peak_loop(VectorIsa isa);

// Each ISA's loop, defined in peak_loop_<isa>.cpp, which is compiled for
// that ISA (CMakeLists.txt); nullptr where not built.
PeakLoop avx512_peak_loop();
PeakLoop avx2_fma_peak_loop();
PeakLoop sse2_peak_loop();

// ---- The peak under a GEMM's loads ----
//
// The register-only loop above says what the FMA units can do. A GEMM
// micro-kernel also loads: per k step it loads a column of its A sliver
// (mr doubles) and broadcasts a row of its B sliver (nr loads), then runs
// its mr x nr multiply-adds. The GEMM-mix loop is exactly that step,
// without packing, edges or stores, on a 2-vector x kMixColumns(isa) tile
// (local/packed_kernels.hpp's tiles: AVX-512 16 x 12, AVX2 8 x 6; SSE2 4 x
// 6): AVX2 does 8 loads per 12 FMAs, AVX-512 14 per 24. Timed with the
// slivers in L1 it is the core's ceiling for any GEMM micro-kernel of that
// tile; with A streamed from a panel in L2 (B in L1, as a packed GEMM
// keeps them) the ceiling of a blocked GEMM's inner loop. A BLAS whose
// DGEMM reaches the L2 ceiling is as fast as this core lets a GEMM be,
// whatever fraction of the FMA peak that is.
constexpr int mix_columns(VectorIsa isa) { return isa == VectorIsa::avx512 ? 12 : 6; }
constexpr std::int64_t mix_flops_per_step(VectorIsa isa) {
  return 2 * doubles_per_vector(isa) * mix_columns(isa) * kFlopsPerMultiplyAdd;  // AVX2: 2 x 4 x 6 x 2 = 96
}
// Runs passes x slivers x kc steps: A holds `slivers` slivers of 2 W kc
// doubles (W = doubles_per_vector) one after the other, B one sliver of
// mix_columns x kc doubles; returns a value of the accumulators (so that
// the compiler cannot drop the loop). Operands in [0.5, 1] keep it finite.
using MixLoop = double (*)(const double* a, std::int64_t slivers, const double* b, std::int64_t kc,
                           std::int64_t passes);
// The ISA's loop, or nullptr where this build has none (call it only where
// the CPU has the ISA).
MixLoop gemm_mix_loop(VectorIsa isa);
MixLoop avx512_gemm_mix_loop();
MixLoop avx2_fma_gemm_mix_loop();
MixLoop sse2_gemm_mix_loop();

}  // namespace mmbench::local
