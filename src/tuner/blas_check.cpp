#include "tuner/blas_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "core/machine/blas.hpp"
#include "core/matrix/generate.hpp"

namespace mmbench::tuner {

std::string_view width_label(KernelWidth w) {
  switch (w) {
    case KernelWidth::sse: return "SSE";
    case KernelWidth::avx: return "AVX";
    case KernelWidth::avx2: return "AVX2";
    case KernelWidth::avx512: return "AVX-512";
  }
  return "";
}

KernelWidth cpu_width(const CpuFlags& f) {
  if (f.avx512f) return KernelWidth::avx512;
  if (f.avx2 && f.fma) return KernelWidth::avx2;
  if (f.avx) return KernelWidth::avx;
  return KernelWidth::sse;
}

std::string suggested_coretype(const CpuFlags& f, std::string_view vendor) {
  switch (cpu_width(f)) {
    case KernelWidth::avx512: return f.avx512bf16 ? "Cooperlake" : "SkylakeX";
    case KernelWidth::avx2: return vendor == "AuthenticAMD" ? "Zen" : "Haswell";
    case KernelWidth::avx: return "Sandybridge";
    case KernelWidth::sse: return "";
  }
  return "";
}

std::string blas_kernel_warning(const BlasKernelFacts& f) {
  const double ceiling = f.ceiling_fraction > 0 ? std::min(1.0, f.ceiling_fraction) : 1.0;
  if (!(f.dgemm_fraction > 0) || f.dgemm_fraction >= kBlasSlowFraction * ceiling) return "";
  const std::string reached =
      f.ceiling_fraction > 0
          ? fmt::format(
                "its one-thread DGEMM reached {:.0f} % of this core's GEMM ceiling (below {:.0f} %; the "
                "ceiling, the FMA rate under a GEMM micro-kernel's loads, is {:.0f} % of the FMA peak)",
                100 * f.dgemm_fraction / ceiling, 100 * kBlasSlowFraction, 100 * f.ceiling_fraction)
          : fmt::format("its one-thread DGEMM reached {:.0f} % of the measured peak (below {:.0f} %)",
                        100 * f.dgemm_fraction, 100 * kBlasSlowFraction);
  const KernelWidth cpu = cpu_width(f.flags);
  const std::string suggestion = suggested_coretype(f.flags, f.vendor);
  const std::string on_cpu = fmt::format("on a CPU with {}", width_label(cpu));
  const OpenblasCore* kernel = find_openblas_core(f.core);

  if (f.core.empty())
    return fmt::format("warning: the BLAS's kernel is unknown (not an OpenBLAS that names its core) and {}: "
                       "use a BLAS built for this CPU ({}), e.g. OpenBLAS with DYNAMIC_ARCH, BLIS or MKL",
                       reached, width_label(cpu));
  const std::string set_it = suggestion.empty() ? std::string("a BLAS built for this CPU")
                                                : fmt::format("OPENBLAS_CORETYPE={} (for an MPI job: mpirun -x "
                                                              "OPENBLAS_CORETYPE={} ...)",
                                                              suggestion, suggestion);
  if (kernel && kernel->width < cpu) {
    if (!f.pinned.empty())
      return fmt::format("warning: OPENBLAS_CORETYPE={} pins OpenBLAS to its {} kernel ({}) {}: {}. mmbench leaves "
                         "the pin alone; to change it, unset OPENBLAS_CORETYPE (OpenBLAS then detects the CPU) or "
                         "set {}",
                         f.pinned, f.core, kernel->isa, on_cpu, reached, set_it);
    return fmt::format("warning: OpenBLAS runs its {} kernel ({}) {}: {}; this OpenBLAS does not recognise the CPU "
                       "(newer versions may). Fix: set {}",
                       f.core, kernel->isa, on_cpu, reached, set_it);
  }
  const std::string pin_note = f.pinned.empty() ? "" : fmt::format(" (pinned by OPENBLAS_CORETYPE={})", f.pinned);
  if (!kernel)
    return fmt::format("warning: OpenBLAS runs its {} kernel{}, whose width mmbench does not know, {}: {}. Try {}",
                       f.core, pin_note, on_cpu, reached, set_it);
  return fmt::format("warning: OpenBLAS's {} kernel ({}){} fits this CPU, yet {}: look for other load on the "
                     "machine, a CPU frequency limit, or more BLAS threads than cores (OPENBLAS_NUM_THREADS)",
                     f.core, kernel->isa, pin_note, reached);
}

std::string recorded_blas_warning(const profile::PeakRecord& r, const std::string& running_core) {
  if (r.dgemm_n <= 0 || !(r.dgemm_fraction > 0) || r.blas_core != running_core) return "";
  BlasKernelFacts f;
  f.flags = parse_cpu_flags(r.flags);
  f.vendor = r.vendor;
  f.core = r.blas_core;
  f.pinned = r.blas_pin;
  f.dgemm_fraction = r.dgemm_fraction;
  const double peak = profile::one_core_peak_gflops(r);
  f.ceiling_fraction = peak > 0 ? profile::gemm_ceiling_gflops(r) / peak : 0;
  return blas_kernel_warning(f);
}

double measure_dgemm_gflops(std::int64_t n) {
  if (n < 1) throw std::invalid_argument(fmt::format("DGEMM check: n = {} must be >= 1", static_cast<long long>(n)));
  const std::size_t size = static_cast<std::size_t>(n * n);
  std::vector<double> a(size), b(size), c(size, 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      a[static_cast<std::size_t>(i + j * n)] = matrix_entry(i, j, 21);
      b[static_cast<std::size_t>(i + j * n)] = matrix_entry(i, j, 22);
    }
  const ScopedBlasThreads one(1);
  auto seconds = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    dgemm(n, n, n, a.data(), n, b.data(), n, 0.0, c.data(), n);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  double spent = seconds();  // untimed: first touch of C, the BLAS's buffers
  double best = 0;
  for (int call = 0; call < 3 && (call == 0 || spent < 1.0); ++call) {
    const double t = seconds();
    spent += t;
    best = std::max(best, 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / t / 1e9);
  }
  return best;
}

}  // namespace mmbench::tuner
