// The BLAS checked against the machine's peak: which kernel it runs, how
// fast its DGEMM is at a size where it should be at its best, and -- below
// kBlasSlowFraction of the one-core peak -- one warning that names the
// cause and the fix.
//
// The warning is a pure function of recorded facts (the CPU's flags, the
// OpenBLAS core, the pin, the measured fraction), so `tune` and `doctor`
// (which measure) and `run` (which reads the profile) give the same text,
// and the tests need no particular CPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/machine/cpu_features.hpp"
#include "core/machine/openblas_cores.hpp"
#include "profile/peak_record.hpp"

namespace mmbench::tuner {

// Below this fraction of the core's GEMM ceiling a one-thread DGEMM is slow
// enough to warn about. The ceiling is the GEMM-mix loop's rate with A in
// L2 (local/peak_loop.hpp: the FMA rate under a micro-kernel's loads),
// where it was measured, else the register-only FMA peak. A BLAS whose
// kernel fits the CPU runs DGEMM at this size close to the ceiling (the
// packing and the edges cost a few per cent); a kernel one vector width too
// narrow does half the work per instruction and, where the CPU's FMA units
// are full width, stays near half of it. 0.75 lies between the two, with
// room for a noisy measurement either way. Against the FMA peak alone the
// line flipped with the noise on an AVX-512 Xeon whose DGEMM ran at 69-79 %
// of it: that is why the ceiling is measured.
inline constexpr double kBlasSlowFraction = 0.75;
// The DGEMM size of the check: large enough for any BLAS to reach its best
// rate, small enough for a fraction of a second at a good one.
inline constexpr std::int64_t kBlasCheckN = 2048;

using mmbench::KernelWidth;                   // core/machine/openblas_cores.hpp
std::string_view width_label(KernelWidth w);  // "SSE", "AVX", "AVX2", "AVX-512"
// The widest the CPU runs: AVX-512 (avx512f), AVX2 (avx2 and fma), AVX, SSE.
KernelWidth cpu_width(const CpuFlags& flags);

// The OPENBLAS_CORETYPE for the widest kernel OpenBLAS 0.3.21 has for these
// flags: Cooperlake (avx512f with avx512bf16), SkylakeX (avx512f), Zen
// (AMD with AVX2), Haswell (AVX2 and FMA), Sandybridge (AVX); "" otherwise.
std::string suggested_coretype(const CpuFlags& flags, std::string_view vendor);

// The facts the warning is decided on.
struct BlasKernelFacts {
  CpuFlags flags;
  std::string vendor;     // "AuthenticAMD", "GenuineIntel", ...
  std::string core;       // OpenBLAS's core ("" = not OpenBLAS, or unnamed)
  std::string pinned;     // OPENBLAS_CORETYPE ("" = unset)
  double dgemm_fraction = 0;  // measured one-thread DGEMM / one-core peak; <= 0: not measured
  // The core's GEMM ceiling / one-core peak (the GEMM-mix loop with A in
  // L2); <= 0: not measured, the FMA peak is the ceiling then.
  double ceiling_fraction = 0;
};

// "" when the DGEMM was not measured or reached kBlasSlowFraction of the
// ceiling;
// otherwise one line starting "warning: " with the cause (the kernel
// narrower than the CPU -- pinned or detected --, a kernel of unknown
// width, an unnamed BLAS, or a fitting kernel that is slow anyway) and the
// fix (the OPENBLAS_CORETYPE to set, or to unset a pin).
std::string blas_kernel_warning(const BlasKernelFacts& facts);

// The same warning from a profile's record, for the BLAS that runs now:
// "" unless the record has a measured DGEMM and its core is running_core
// (a run under another core is not described by it; core/machine/blas.hpp's
// profile_core_note says so instead).
std::string recorded_blas_warning(const profile::PeakRecord& record, const std::string& running_core);

// One-thread DGEMM(n, n, n) in this process: the best rate (GFLOP/s) of up
// to 3 calls after an untimed first one, stopping once a second has been
// spent. The caller's BLAS thread count is restored. Throws
// std::invalid_argument for n < 1.
double measure_dgemm_gflops(std::int64_t n);

}  // namespace mmbench::tuner
