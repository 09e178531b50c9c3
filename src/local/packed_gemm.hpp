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
// (fast_gemm_packed_strassen.cpp, packed_strassen_level).
//
// Kernels: an AVX-512 one (MR×NR = 16×12, 24 accumulators of 32 registers),
// an AVX2+FMA one (8×6, 12 of 16) and a portable C++ one, chosen at run time
// from what the CPU runs (packed_isa()). Their block sizes MC, KC, NC are
// run-time values (PackedBlocking): each kernel has defaults, and `mmbench
// tune` measures a short ladder of them on the machine at hand and records
// the fastest in the profile. How fast they run against OpenBLAS 0.3.21's
// DGEMM, paired in the same rounds (`run --local-strassen 0 --local-gemm
// blas,packed`): docs/results.md, "Local Strassen–Winograd vs DGEMM"
// (packed_kernel_*.cpp say why the default block sizes are what they are).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
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

// The kernels this build has that this CPU runs (cpuid), besides the
// portable one, which runs everywhere.
struct PackedIsaSupport {
  bool avx512 = false;  // AVX-512F and FMA
  bool avx2 = false;    // AVX2 and FMA
};
PackedIsaSupport packed_isa_support();

// The value of MMBENCH_PACKED_ISA that keeps the packed GEMM at the vector
// width of the running BLAS (a like-for-like comparison with a DGEMM that
// runs narrower kernels than the CPU offers).
inline constexpr std::string_view kPackedIsaMatchBlas = "match-blas";

// The rule packed_isa() applies, a pure function of its inputs:
//   forced empty        the widest kernel `can` has: avx512, else avx2,
//                       else portable (the CPU decides, not any library)
//   "avx512" | "avx2" | "portable"
//                       that kernel; one `can` lacks throws
//                       std::runtime_error naming the ones it has (a
//                       benchmark must not silently run another kernel
//                       than it was asked for)
//   "match-blas"        AVX-512 where `can` has it *and* the BLAS runs an
//                       AVX-512 core (blas_avx512), else AVX2 where `can`
//                       has it, else portable: with OPENBLAS_CORETYPE=Haswell
//                       pinned the packed GEMM then runs AVX2 like its DGEMM
//                       peer. (A BLAS core below AVX2, e.g. Prescott, still
//                       gets AVX2 here; ask for portable by name for an
//                       SSE2-wide comparison.)
//   anything else       std::runtime_error naming the allowed values.
// Examples: ("", {avx512, avx2}, false) -> avx512;
// ("match-blas", {avx512, avx2}, false) -> avx2; ("", {}, true) -> portable.
PackedIsa choose_packed_isa(std::string_view forced, PackedIsaSupport can, bool blas_avx512);

// The instruction set packed_gemm uses in this process, decided once by
// choose_packed_isa(MMBENCH_PACKED_ISA, packed_isa_support(),
// blas_uses_avx512()); the BLAS is asked only for "match-blas". Throws
// what choose_packed_isa throws (on every call: nothing is remembered then).
PackedIsa packed_isa();
// packed_isa() and how it was chosen, for the run's sidecar and messages:
// "avx512 (the widest this CPU runs)", "avx2 (MMBENCH_PACKED_ISA=match-blas,
// OpenBLAS core Haswell)", "portable (MMBENCH_PACKED_ISA=portable)"; the
// error's text where packed_isa() throws.
std::string describe_packed_isa();
// Whether this build has the kernel and this CPU can run it.
bool packed_isa_available(PackedIsa isa);

// The micro-kernel's register tile of `isa`: MR rows by NR columns.
struct PackedTile {
  int mr = 0, nr = 0;
};
PackedTile packed_tile(PackedIsa isa);

// The kernel's block sizes (the loops above): MC rows of A per packed A
// block, KC of the inner dimension per block, NC columns of B per packed B
// block. 0 in a field: that kernel's default (default_packed_blocking).
// Rules (validate_packed_blocking), with the tile of the kernel:
//   MC a multiple of MR in [MR, 8192]   (the A block is whole MR panels)
//   KC in [8, 8192]
//   NC in [NR, 65536]
// KC and NC are caps: a dimension is cut into the fewest blocks of at most
// the cap, all of about one length (k = 1024 with KC = 768: 512 + 512).
struct PackedBlocking {
  std::int64_t mc = 0, kc = 0, nc = 0;
  bool is_default() const { return mc == 0 && kc == 0 && nc == 0; }
  friend bool operator==(const PackedBlocking&, const PackedBlocking&) = default;
};
// Each kernel's defaults: avx512 96, 768, 1024; avx2 48, 768, 1024;
// portable 128, 256, 2048 (packed_kernel_*.cpp say where they come from).
PackedBlocking default_packed_blocking(PackedIsa isa);
// "" when `b` (zeros resolved first) is valid for `isa`, else the first
// broken rule, e.g. "MC = 100 is not a multiple of the avx512 kernel's
// MR = 16".
std::string packed_blocking_problem(const PackedBlocking& b, PackedIsa isa);
// The zeros of `b` replaced by the kernel's defaults, then checked: throws
// std::invalid_argument with packed_blocking_problem's text.
PackedBlocking resolve_packed_blocking(const PackedBlocking& b, PackedIsa isa);
// "MCxKCxNC", e.g. "96x768x1024" (zeros as 0), the CSV's packed_blocking.
std::string to_string(const PackedBlocking& b);

// Doubles of workspace one packed_gemm call needs (its packing buffers) for
// `isa` and `blocking` (zeros: the defaults); a call never allocates.
// 64-byte alignment is the caller's, as for FastGemm's workspace. Throws
// std::invalid_argument for a blocking that is not valid for `isa`.
std::size_t packed_workspace_doubles(PackedIsa isa, const PackedBlocking& blocking = {});

// The sum-of-products above. m, n, k >= 0; na, nb in 1..kPackedMaxTerms;
// nc in 1..kPackedMaxDestinations; every ld at least the rows of its
// matrix. Destinations must not overlap one another or any operand. With
// k = 0, overwriting destinations are set to zero and the others are left.
// Single-threaded. `workspace` holds packed_workspace_doubles(isa, blocking).
// Throws std::invalid_argument for counts out of range or a blocking that is
// not valid for `isa`.
void packed_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const PackedTerm* a, int na,
                 const PackedTerm* b, int nb, const PackedDestination* c, int nc, double* workspace,
                 PackedIsa isa, const PackedBlocking& blocking = {});

}  // namespace mmbench::local
