// What the CPU offers for double-precision arithmetic: its model, the
// instruction-set flags that decide how wide a vector of doubles is, and
// its cores. The flags come from cpuid (the compiler's
// __builtin_cpu_supports, which also checks that the OS saves the wide
// registers), never from a library's idea of the CPU: OpenBLAS 0.3.21, for
// one, does not know some AVX-512 CPUs and runs its SSE3 kernels there.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmbench {

// The flags that matter for DGEMM's speed; everything else is left out.
struct CpuFlags {
  bool sse2 = false;
  bool avx = false;
  bool fma = false;  // FMA3
  bool avx2 = false;
  bool avx512f = false;
  bool avx512bf16 = false;  // marks a Cooper Lake-or-later AVX-512 core (OpenBLAS's "Cooperlake")
};

// The flags present, widest first, space-separated: "avx512f avx512bf16
// avx2 fma avx sse2"; "" when none is.
std::string to_string(const CpuFlags& flags);
// The inverse of to_string; unknown words are ignored (a newer writer may
// record more), so parse_cpu_flags(to_string(f)) == f.
CpuFlags parse_cpu_flags(std::string_view text);

// The vector widths of double-precision arithmetic mmbench measures a peak
// for. SSE2 has no FMA: its loop counts a multiply and an add.
enum class VectorIsa { avx512, avx2_fma, sse2 };

constexpr int doubles_per_vector(VectorIsa isa) {
  return isa == VectorIsa::avx512 ? 8 : isa == VectorIsa::avx2_fma ? 4 : 2;
}
// "avx512", "avx2+fma", "sse2".
std::string_view isa_name(VectorIsa isa);
std::optional<VectorIsa> parse_isa(std::string_view name);
// The ISAs the flags allow, widest first (AVX-512 needs avx512f, AVX2 needs
// avx2 and fma, SSE2 needs sse2).
std::vector<VectorIsa> vector_isas(const CpuFlags& flags);

struct CpuInfo {
  std::string model;      // /proc/cpuinfo "model name" ("unknown" without one)
  std::string vendor;     // "GenuineIntel", "AuthenticAMD", "" if unknown
  int family = -1;        // "cpu family", -1 if unknown
  int model_number = -1;  // "model", -1 if unknown
  CpuFlags flags;         // from cpuid
  int cores = 0;          // online logical CPUs (what mmbench counts as cores everywhere)
};

// This machine's CPU. Reads /proc/cpuinfo once per call; the flags are all
// false on a CPU that is not x86-64 (no vector ISA mmbench measures).
CpuInfo detect_cpu();

// "AMD EPYC 9R14 (AuthenticAMD family 25 model 17)": the model, and the
// vendor, family and model number where known.
std::string describe_cpu(const CpuInfo& cpu);

}  // namespace mmbench
