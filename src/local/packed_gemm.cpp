// Dispatch of packed_gemm (packed_gemm.hpp) to the kernel of one
// instruction set (packed_kernels.hpp), and the choice of that set.
#include "local/packed_gemm.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/blas.hpp"
#include "local/packed_kernels.hpp"

namespace mmbench::local {

bool packed_isa_available(PackedIsa isa) {
#if defined(__x86_64__) && defined(__GNUC__)
  switch (isa) {
    case PackedIsa::avx512:
      return packed_kernels::avx512() != nullptr && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
    case PackedIsa::avx2:
      return packed_kernels::avx2() != nullptr && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case PackedIsa::portable:
      return true;
  }
  return false;
#else
  return isa == PackedIsa::portable;
#endif
}

PackedIsa choose_packed_isa(const char* forced, bool blas_avx512) {
  if (forced != nullptr && *forced != '\0') {
    const std::string name = forced;
    for (PackedIsa isa : {PackedIsa::avx512, PackedIsa::avx2, PackedIsa::portable})
      if (name == to_string(isa)) {
        if (!packed_isa_available(isa))
          throw std::runtime_error("MMBENCH_PACKED_ISA=" + name + ": this CPU (or build) has no " + name +
                                   " kernel (allowed here: " +
                                   std::string(packed_isa_available(PackedIsa::avx512) ? "avx512, " : "") +
                                   std::string(packed_isa_available(PackedIsa::avx2) ? "avx2, " : "") + "portable)");
        return isa;
      }
    throw std::runtime_error("MMBENCH_PACKED_ISA='" + name + "' is not a kernel (allowed: avx512, avx2, portable)");
  }
  if (packed_isa_available(PackedIsa::avx512) && blas_avx512) return PackedIsa::avx512;
  if (packed_isa_available(PackedIsa::avx2)) return PackedIsa::avx2;
  return PackedIsa::portable;
}

std::string_view to_string(PackedIsa isa) {
  switch (isa) {
    case PackedIsa::avx512: return "avx512";
    case PackedIsa::avx2: return "avx2";
    case PackedIsa::portable: return "portable";
  }
  return "?";
}

PackedIsa packed_isa() {
  // Initialised once, thread-safely; a throw leaves it to the next call.
  static const PackedIsa isa = choose_packed_isa(std::getenv("MMBENCH_PACKED_ISA"), blas_uses_avx512());
  return isa;
}

namespace {
// The kernel of `isa`; throws where the build has none (packed_isa() never
// picks such a one, a caller naming it directly may).
const packed_kernels::Kernel& kernel(PackedIsa isa) {
  const packed_kernels::Kernel* k = isa == PackedIsa::avx512 ? packed_kernels::avx512()
                                    : isa == PackedIsa::avx2 ? packed_kernels::avx2()
                                                             : packed_kernels::portable();
  if (k == nullptr) throw std::invalid_argument("packed_gemm: no " + std::string(to_string(isa)) + " kernel in this build");
  return *k;
}
}  // namespace

std::size_t packed_workspace_doubles(PackedIsa isa) { return kernel(isa).workspace_doubles; }

void packed_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const PackedTerm* a, int na, const PackedTerm* b,
                 int nb, const PackedDestination* c, int nc, double* workspace, PackedIsa isa) {
  if (na < 1 || na > kPackedMaxTerms || nb < 1 || nb > kPackedMaxTerms || nc < 1 || nc > kPackedMaxDestinations)
    throw std::invalid_argument("packed_gemm: " + std::to_string(na) + " A terms, " + std::to_string(nb) +
                                " B terms, " + std::to_string(nc) + " destinations (allowed 1.." +
                                std::to_string(kPackedMaxTerms) + " terms, 1.." +
                                std::to_string(kPackedMaxDestinations) + " destinations)");
  if (m < 0 || n < 0 || k < 0)
    throw std::invalid_argument("packed_gemm: negative shape " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                std::to_string(k));
  if (m == 0 || n == 0) return;
  if (k == 0) {  // no kc block runs: an overwriting destination is the empty sum, zero
    for (int d = 0; d < nc; ++d)
      if (c[d].overwrite)
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t i = 0; i < m; ++i) c[d].data[i + j * c[d].ld] = 0.0;
    return;
  }
  kernel(isa).gemm(m, n, k, a, na, b, nb, c, nc, workspace);
}

}  // namespace mmbench::local
