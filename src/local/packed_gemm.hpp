// mmbench's own packed GEMM, written so that Strassen's operand sums and
// result updates cost no memory pass of their own (Huang, Smith, Henry and
// van de Geijn, "Strassen's algorithm reloaded", SC16: the "ABC" variant).
//
// It computes, for up to four destinations d,
//   C_d = (overwrite_d ? 0 : C_d) + coef_d · (Σ_t α_t A_t) · (Σ_s β_s B_s)
// with up to four terms on each side (all m×k on the left, k×n on the
// right, column-major). One term on each side and one destination with
// coefficient 1 and overwrite is the plain product C = A·B.
//
// The loops are the five of Goto's algorithm as BLIS writes them:
//   for jc in n by NC        (B's block of NC columns; NC and KC blocks are
//                            evened out: k = 1024, KC = 768 -> 512 + 512)
//     for pc in k by KC      pack Σβ_s B_s[pc:pc+KC, jc:jc+NC] into NR-wide row panels
//       for ic in m by MC    pack Σα_t A_t[ic:ic+MC, pc:pc+KC] into MR-tall column panels
//         for jr, ir         micro-kernel: an MR×NR tile of the product in registers,
//                            then added into every destination's tile
// Packing reads every operand element once per (jc, pc) or (ic, pc) block
// anyway, so summing two or four quadrants there costs reads it would do
// for one, and no write; the tile is added to two destinations from
// registers instead of being written to a temporary and added in a pass.
// That is what lets the deepest Strassen level run without any memory pass
// (fast_gemm.cpp, packed_strassen_level).
//
// Kernels: an AVX-512 one (MR×NR = 16×12, 24 accumulators of 32 registers),
// an AVX2+FMA one (8×6, 12 of 16) and a portable C++ one, chosen at run time
// (packed_isa()). How fast they run against OpenBLAS 0.3.21's DGEMM, paired
// in the same rounds (`run --local-strassen 0 --local-gemm blas,packed`):
// docs/results.md, "Local Strassen–Winograd vs DGEMM" (packed_kernel_*.cpp
// say why the block sizes are what they are).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mmbench::local {

// One term of an operand sum: coef · X, X column-major with leading dimension ld.
struct PackedTerm {
  const double* data;
  std::int64_t ld;
  double coef;
};

// One destination of the product: C = (overwrite ? 0 : C) + coef · product.
struct PackedDestination {
  double* data;
  std::int64_t ld;
  double coef;
  bool overwrite;
};

inline constexpr int kPackedMaxTerms = 4;
inline constexpr int kPackedMaxDestinations = 4;

// The micro-kernel's instruction set.
enum class PackedIsa { avx512, avx2, portable };
std::string_view to_string(PackedIsa isa);

// The instruction set packed_gemm uses in this process, decided once:
// MMBENCH_PACKED_ISA=avx512|avx2|portable where set (an unknown value, or
// one this CPU lacks, throws std::runtime_error on the first call: a
// benchmark must not silently run another kernel than it was asked for);
// otherwise AVX-512 where the CPU has it *and* OpenBLAS runs an AVX-512 core
// (blas_uses_avx512(): the packed GEMM then uses the vector width its DGEMM
// peer uses, so a comparison between them is not a comparison of
// instruction sets — with OPENBLAS_CORETYPE=Haswell pinned it is AVX2), else
// AVX2+FMA where the CPU has them, else portable.
PackedIsa packed_isa();
// The rule above for a given MMBENCH_PACKED_ISA value (nullptr or empty:
// unset) and whether OpenBLAS runs an AVX-512 core.
PackedIsa choose_packed_isa(const char* forced, bool blas_avx512);
// Whether this build has the kernel and this CPU can run it.
bool packed_isa_available(PackedIsa isa);

// Doubles of workspace one packed_gemm call needs (its packing buffers) for
// `isa`; a call never allocates. 64-byte alignment is the caller's, as for
// FastGemm's workspace.
std::size_t packed_workspace_doubles(PackedIsa isa);

// The sum-of-products above. m, n, k >= 0; na, nb in 1..kPackedMaxTerms;
// nc in 1..kPackedMaxDestinations; every ld at least the rows of its
// matrix. Destinations must not overlap one another or any operand. With
// k = 0, overwriting destinations are set to zero and the others are left.
// Single-threaded. Throws std::invalid_argument for counts out of range.
void packed_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const PackedTerm* a, int na,
                 const PackedTerm* b, int nb, const PackedDestination* c, int nc, double* workspace,
                 PackedIsa isa);

}  // namespace mmbench::local
