// Register-only loops that run a core's double-precision arithmetic at its
// peak, one per vector width (core/cpu_features.hpp): no memory traffic,
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

#include "core/cpu_features.hpp"

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

}  // namespace mmbench::local
