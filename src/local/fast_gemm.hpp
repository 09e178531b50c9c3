// Local fast matrix multiplication: L levels of Strassen–Winograd (7 products,
// 15 additions per level) or classic Strassen (7 products, 18 additions) on
// top of OpenBLAS DGEMM, for the per-rank multiply below the distributed
// algorithms (docs/method.md §4). Column-major, like BLAS.
//
// Usage:
//   FastGemm fg({.levels = 2});                       // Winograd, cut-off 256
//   fg.multiply(m, n, k, A, lda, B, ldb, C, ldc);     // C = A*B
//
// The object owns one workspace buffer that holds the temporaries of all
// levels; it grows only when a larger shape arrives, so repeated calls of the
// same (or a smaller) shape allocate nothing. One FastGemm must not be used by
// two threads at once (the workspace is shared); use one object per thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "local/packed_gemm.hpp"

namespace mmbench::local {

enum class FastVariant { winograd, strassen };

// "winograd" | "strassen"; anything else throws std::invalid_argument.
FastVariant parse_fast_variant(std::string_view name);
std::string_view to_string(FastVariant variant);

// What multiplies at the bottom of the recursion (FastGemmConfig::leaf):
//   blas    OpenBLAS's DGEMM, each level's sums in memory passes (as before)
//   packed  mmbench's own packed GEMM (packed_gemm.hpp), and the deepest
//           level fused into it: its operand sums are formed while packing
//           and its products are added into C's quadrants by the micro-
//           kernel, so that level makes no memory pass at all. With 0
//           levels: the packed GEMM alone, the fair baseline of the levels.
enum class LeafGemm { blas, packed };
// "blas" | "packed"; anything else throws std::invalid_argument.
LeafGemm parse_leaf_gemm(std::string_view name);
std::string_view to_string(LeafGemm leaf);

// The level rule, the one the kernel runs and the cost model prices: one
// more Strassen-Winograd level is done on an m x n x k block while levels
// remain and min(m, n, k) >= max(min_dim, 2). Odd sizes are halved down
// (the kernel peels the odd row/column). Example: min_dim = 256, levels = 3,
// 1000^3: 1000 >= 256 (level 1), 500 >= 256 (level 2), 250 < 256: two levels.
bool local_level_applies(std::int64_t m, std::int64_t n, std::int64_t k, int levels, std::int64_t min_dim);

struct FastGemmConfig {
  int levels = 0;                   // L: Strassen levels (0 = plain DGEMM); 0..30
  FastVariant variant = FastVariant::winograd;
  std::int64_t min_dim = 256;       // a level is done only if min(m, n, k) >= min_dim (and >= 2)
  int threads = 1;                  // > 1: the 7 products of the top level run on this many threads
  // Winograd's deepest level (whose products are DGEMM calls) lets DGEMM's
  // beta = 1 add two of its products into C and combines the rest in one
  // pass: 9 passes instead of 11, one more temporary (fast_gemm_winograd_accumulate.cpp,
  // "accumulate schedule"; a fused deepest level: 24 quadrant touches
  // instead of 27). false: no level uses DGEMM's beta; unfused
  // levels use the two-temporary schedule of Boyer et al. (kept for
  // comparison and tests).
  bool accumulate = true;
  // Which Winograd levels compute their eight operand sums in two fused
  // passes (S1..S4 from A's quadrants, T1..T4 from B's: 16 quadrant touches
  // instead of 24) into eight buffers instead of two, with the seven products
  // then reading their own buffers (fast_gemm_winograd_fused.cpp, "fused schedule"):
  //   none    every level reuses two temporaries (8 operand passes per level)
  //   deepest only the deepest level, whose buffers are the smallest (7^(L-1)
  //           instances of it carry the largest share of the passes)
  //   all     every level (the default: the fastest measured, see below;
  //           `run --local-fusion` chooses per run;
  //           sequential workspace about 2.7 n² doubles instead of 0.7 n²)
  // bench/fast_gemm_schedules pairs the schedules in one process, each round
  // against the same round's DGEMM: "all" was the fastest at n = 8192, L = 3
  // and n = 12288, L = 4, with the fewest seconds in addition passes
  // (docs/results.md, "Local Strassen–Winograd vs DGEMM", the schedules).
  enum class Fusion { none, deepest, all };
  Fusion fusion = Fusion::all;
  // Operand passes (the fused S/T sums and the parallel top's) write with
  // ordinary stores (false, the default) or with non-temporal ones (true),
  // which skip reading each written line first (fast_gemm_passes.hpp,
  // Stores): 8 line transfers per element of a fused pass instead of 12.
  // Ordinary stores by default: on an Intel Xeon VM the two tied within the
  // noise (bench/fast_gemm_schedules, paired), and on an AMD EPYC Zen 4 the
  // passes of the levels on DGEMM leaves took a third of the time with
  // ordinary stores, 1.06x -> 1.16x DGEMM at n = 4096, L = 2 (docs/results.md,
  // "Streaming stores slow the passes on Zen 4"), where the sums the
  // products read next stay in cache.
  bool streaming_stores = false;
  LeafGemm leaf = LeafGemm::blas;
  // The packed GEMM's block sizes (leaf = packed); zeros: the running
  // kernel's defaults. FastGemm's constructor fills them in and checks them
  // against that kernel (std::invalid_argument), so config() shows the
  // blocking that runs.
  PackedBlocking packed_blocking{};
};

// "none", "deepest", "all" (--local-fusion); parse throws
// std::invalid_argument naming the allowed values.
FastGemmConfig::Fusion parse_fusion(std::string_view name);
std::string_view to_string(FastGemmConfig::Fusion fusion);

// Whether a Winograd level runs the fused schedule under `fusion`; `deepest`:
// its products are DGEMM calls. The kernel and the refined cost model
// (model/refined_model.cpp) both ask this, so they cannot disagree.
constexpr bool fuses_level(FastGemmConfig::Fusion fusion, bool deepest) {
  using F = FastGemmConfig::Fusion;
  return fusion == F::all || (fusion == F::deepest && deepest);
}

// Where the time of multiply() calls went, summed over calls (and over the
// threads of a parallel top level: thread-seconds) until reset_account().
// Level 1 is the top level. An addition pass is one call of a function of
// fast_gemm_passes.hpp over a level's operands or results (one column share
// of it per thread at a parallel top level, counted once).
struct FastGemmAccount {
  static constexpr int kMaxDepth = 31;
  std::int64_t calls = 0;     // multiply() calls
  double leaf_seconds = 0;    // the DGEMM calls at the bottom of the recursion
  std::int64_t leaf_calls = 0;
  double fixup_seconds = 0;   // BLAS-2 border of odd sizes (all levels)
  std::array<double, kMaxDepth + 1> add_seconds{};        // [level], element-wise passes
  std::array<std::int64_t, kMaxDepth + 1> passes{};       // [level]
  double total_add_seconds() const;
  std::int64_t total_passes() const;
  FastGemmAccount& operator+=(const FastGemmAccount& other);
};

class FastGemm {
 public:
  // Throws std::invalid_argument for levels outside 0..30, min_dim < 1,
  // threads < 1 or (leaf = packed) a blocking the running kernel cannot take.
  explicit FastGemm(FastGemmConfig cfg);

  // C = A*B, C overwritten (never read, so it may hold garbage or NaN).
  // A is m×k (lda >= max(1, m)), B is k×n (ldb >= max(1, k)), C is m×n
  // (ldc >= max(1, m)), column-major. Sizes may be 0 (nothing to do; with
  // k = 0, C is set to zero as DGEMM does). Only the m×n part of C is written.
  //
  // threads > 1 changes OpenBLAS's global thread count to 1 while the top
  // level's products run and restores it afterwards; no other thread of the
  // process should call BLAS meanwhile. With threads = 1, or where the top
  // level does not apply (levels = 0 or a dimension below min_dim), the BLAS
  // thread count is left as the caller set it: DGEMM calls use OpenBLAS's own
  // threading, the additions run on the calling thread.
  void multiply(std::int64_t m, std::int64_t n, std::int64_t k, const double* A,
                std::int64_t lda, const double* B, std::int64_t ldb, double* C,
                std::int64_t ldc);

  std::size_t workspace_bytes() const { return capacity_ * sizeof(double); }  // currently held
  // How many times the workspace was (re)allocated.
  std::int64_t workspace_allocations() const { return allocations_; }
  // Allocate and touch the workspace an m×n×k multiply needs now, so that
  // the first timed multiply does not pay for it (touching fresh memory is
  // slow enough to dominate a first call: docs/method.md §4).
  void prepare(std::int64_t m, std::int64_t n, std::int64_t k);
  const FastGemmConfig& config() const { return cfg_; }
  // The most levels one multiply has done so far (0 before the first call):
  // levels stop at the configured count or where a dimension drops below
  // min_dim, whichever comes first.
  int deepest_levels() const { return deepest_; }
  const FastGemmAccount& account() const { return account_; }
  void reset_account() { account_ = {}; }

  // Levels a multiply of this shape does (on the path of the full-size
  // products; a column slice of the parallel top level may stop one earlier).
  // Example: levels = 3, min_dim = 1024, 4096^3 -> 3; 3000^3 -> 2
  // (3000 -> 1500 -> 750 < 1024).
  static int levels_applied(std::int64_t m, std::int64_t n, std::int64_t k, const FastGemmConfig& cfg);

  // Workspace a multiply of this shape needs (what workspace_bytes() becomes
  // after it, unless a larger shape came first).
  static std::size_t workspace_bytes_needed(std::int64_t m, std::int64_t n, std::int64_t k,
                                            const FastGemmConfig& cfg);

  // Floating-point operations actually performed for this shape, for the cost
  // model. Convention: a DGEMM of p×q×r counts 2·p·q·r (not 2pqr − pq), each
  // element of a matrix addition counts 1, the odd-size fix-ups count 2 per
  // multiply-add. One Winograd level on an even square n therefore counts
  // 7·2(n/2)³ + 15(n/2)², classic Strassen 7·2(n/2)³ + 18(n/2)².
  static double flops(std::int64_t m, std::int64_t n, std::int64_t k, const FastGemmConfig& cfg);

 private:
  // Gives the workspace back through core/matrix/large_buffer.hpp, which counts
  // it with the other buffers (core/machine/memory_account.hpp).
  struct WorkspaceDelete {
    WorkspaceDelete() noexcept : bytes(0) {}
    explicit WorkspaceDelete(std::size_t b) noexcept : bytes(b) {}
    std::size_t bytes;
    void operator()(double* p) const;
  };

  void reserve(std::size_t doubles);

  FastGemmConfig cfg_;
  std::unique_ptr<double[], WorkspaceDelete> workspace_;
  std::size_t capacity_ = 0;  // doubles
  std::int64_t allocations_ = 0;
  int deepest_ = 0;
  FastGemmAccount account_;
};

// Factor by which the normwise error bound of L fast levels exceeds that of
// plain DGEMM; verification multiplies its threshold by this. See
// fast_gemm.cpp for the reasoning behind the constants (12 per level for
// classic Strassen, 18 for Winograd). Throws std::invalid_argument for levels < 0.
double fast_gemm_error_growth(int levels, FastVariant variant);

}  // namespace mmbench::local
