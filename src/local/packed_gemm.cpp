// Dispatch of packed_gemm (packed_gemm.hpp) to the kernel of one
// instruction set (packed_kernels.hpp), the choice of that set, and the
// checks of a blocking.
#include "local/packed_gemm.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/machine/blas.hpp"
#include "local/packed_kernels.hpp"

namespace mmbench::local {

namespace {

const packed_kernels::Shape& shape_of(PackedIsa isa) {
  switch (isa) {
    case PackedIsa::avx512: return packed_kernels::kAvx512Shape;
    case PackedIsa::avx2: return packed_kernels::kAvx2Shape;
    case PackedIsa::portable: break;
  }
  return packed_kernels::kPortableShape;
}

std::string allowed_isas(PackedIsaSupport can) {
  return std::string(can.avx512 ? "avx512, " : "") + (can.avx2 ? "avx2, " : "") + "portable";
}

}  // namespace

PackedIsaSupport packed_isa_support() {
  PackedIsaSupport s;
#if defined(__x86_64__) && defined(__GNUC__)
  s.avx512 = packed_kernels::avx512() != nullptr && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  s.avx2 = packed_kernels::avx2() != nullptr && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  return s;
}

bool packed_isa_available(PackedIsa isa) {
  const PackedIsaSupport s = packed_isa_support();
  switch (isa) {
    case PackedIsa::avx512: return s.avx512;
    case PackedIsa::avx2: return s.avx2;
    case PackedIsa::portable: return true;
  }
  return false;
}

PackedIsa choose_packed_isa(std::string_view forced, PackedIsaSupport can, bool blas_avx512) {
  const auto widest = [&](bool avx512_allowed) {
    if (can.avx512 && avx512_allowed) return PackedIsa::avx512;
    if (can.avx2) return PackedIsa::avx2;
    return PackedIsa::portable;
  };
  if (forced.empty()) return widest(true);
  if (forced == kPackedIsaMatchBlas) return widest(blas_avx512);
  for (PackedIsa isa : {PackedIsa::avx512, PackedIsa::avx2, PackedIsa::portable})
    if (forced == to_string(isa)) {
      const bool runs = isa == PackedIsa::portable || (isa == PackedIsa::avx512 ? can.avx512 : can.avx2);
      if (!runs)
        throw std::runtime_error("MMBENCH_PACKED_ISA=" + std::string(forced) + ": this CPU (or build) has no " +
                                 std::string(forced) + " kernel (allowed here: " + allowed_isas(can) + ", " +
                                 std::string(kPackedIsaMatchBlas) + ")");
      return isa;
    }
  throw std::runtime_error("MMBENCH_PACKED_ISA='" + std::string(forced) +
                           "' is not a kernel (allowed: avx512, avx2, portable, " + std::string(kPackedIsaMatchBlas) +
                           "; unset: the widest this CPU runs)");
}

std::string_view to_string(PackedIsa isa) {
  switch (isa) {
    case PackedIsa::avx512: return "avx512";
    case PackedIsa::avx2: return "avx2";
    case PackedIsa::portable: return "portable";
  }
  return "?";
}

namespace {
std::string_view forced_isa() {
  const char* env = std::getenv("MMBENCH_PACKED_ISA");
  return env ? std::string_view(env) : std::string_view();
}
}  // namespace

PackedIsa packed_isa() {
  // Initialised once, thread-safely; a throw leaves it to the next call.
  // The BLAS is asked only where its core decides (match-blas).
  static const PackedIsa isa = [] {
    const std::string_view forced = forced_isa();
    return choose_packed_isa(forced, packed_isa_support(), forced == kPackedIsaMatchBlas && blas_uses_avx512());
  }();
  return isa;
}

std::string describe_packed_isa() {
  try {
    const std::string isa(to_string(packed_isa()));
    const std::string_view forced = forced_isa();
    if (forced.empty()) return isa + " (the widest this CPU runs)";
    if (forced == kPackedIsaMatchBlas) {
      const std::string core = blas_core_name(blas_config());
      return isa + " (MMBENCH_PACKED_ISA=" + std::string(forced) + ", OpenBLAS core " +
             (core.empty() ? std::string("unknown") : core) + ")";
    }
    return isa + " (MMBENCH_PACKED_ISA=" + std::string(forced) + ")";
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

PackedTile packed_tile(PackedIsa isa) { return {shape_of(isa).mr, shape_of(isa).nr}; }

PackedBlocking default_packed_blocking(PackedIsa isa) { return shape_of(isa).defaults; }

namespace {
PackedBlocking with_defaults(const PackedBlocking& b, PackedIsa isa) {
  const PackedBlocking d = default_packed_blocking(isa);
  return {b.mc != 0 ? b.mc : d.mc, b.kc != 0 ? b.kc : d.kc, b.nc != 0 ? b.nc : d.nc};
}
}  // namespace

std::string packed_blocking_problem(const PackedBlocking& given, PackedIsa isa) {
  const PackedBlocking b = with_defaults(given, isa);
  const PackedTile t = packed_tile(isa);
  const std::string kernel = "the " + std::string(to_string(isa)) + " kernel's ";
  if (b.mc < t.mr || b.mc > 8192)
    return "MC = " + std::to_string(b.mc) + " is outside [" + kernel + "MR = " + std::to_string(t.mr) + ", 8192]";
  if (b.mc % t.mr != 0)
    return "MC = " + std::to_string(b.mc) + " is not a multiple of " + kernel + "MR = " + std::to_string(t.mr);
  if (b.kc < 8 || b.kc > 8192) return "KC = " + std::to_string(b.kc) + " is outside [8, 8192]";
  if (b.nc < t.nr || b.nc > 65536)
    return "NC = " + std::to_string(b.nc) + " is outside [" + kernel + "NR = " + std::to_string(t.nr) + ", 65536]";
  return "";
}

PackedBlocking resolve_packed_blocking(const PackedBlocking& b, PackedIsa isa) {
  if (const std::string problem = packed_blocking_problem(b, isa); !problem.empty())
    throw std::invalid_argument("packed GEMM blocking " + to_string(b) + ": " + problem);
  return with_defaults(b, isa);
}

std::string to_string(const PackedBlocking& b) {
  return std::to_string(b.mc) + "x" + std::to_string(b.kc) + "x" + std::to_string(b.nc);
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

std::size_t packed_workspace_doubles(PackedIsa isa, const PackedBlocking& blocking) {
  return kernel(isa).workspace_doubles(resolve_packed_blocking(blocking, isa));
}

void packed_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const PackedTerm* a, int na, const PackedTerm* b,
                 int nb, const PackedDestination* c, int nc, double* workspace, PackedIsa isa,
                 const PackedBlocking& blocking) {
  if (na < 1 || na > kPackedMaxTerms || nb < 1 || nb > kPackedMaxTerms || nc < 1 || nc > kPackedMaxDestinations)
    throw std::invalid_argument("packed_gemm: " + std::to_string(na) + " A terms, " + std::to_string(nb) +
                                " B terms, " + std::to_string(nc) + " destinations (allowed 1.." +
                                std::to_string(kPackedMaxTerms) + " terms, 1.." +
                                std::to_string(kPackedMaxDestinations) + " destinations)");
  if (m < 0 || n < 0 || k < 0)
    throw std::invalid_argument("packed_gemm: negative shape " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                std::to_string(k));
  const PackedBlocking resolved = resolve_packed_blocking(blocking, isa);
  if (m == 0 || n == 0) return;
  if (k == 0) {  // no kc block runs: an overwriting destination is the empty sum, zero
    for (int d = 0; d < nc; ++d)
      if (c[d].overwrite)
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t i = 0; i < m; ++i) c[d].data[i + j * c[d].ld] = 0.0;
    return;
  }
  kernel(isa).gemm(m, n, k, a, na, b, nb, c, nc, workspace, resolved);
}

}  // namespace mmbench::local
