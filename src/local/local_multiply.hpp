// The local multiplication each algorithm performs on its blocks: plain
// BLAS DGEMM, or L levels of Strassen–Winograd on top of it (fast_gemm.hpp),
// chosen by one LocalKernelSpec (Options::local). Algorithms call this
// instead of dgemm() where their blocks are large (dgemm, ring, tpmm, the
// Strassen leaves); PDGEMM cannot, its DGEMM is inside ScaLAPACK.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/matrix/layout.hpp"
#include "local/fast_gemm.hpp"
#include "local/local_kernel_spec.hpp"

namespace mmbench::local {

class LocalMultiply {
 public:
  // spec: the kernel (local_kernel_spec.hpp; the default is plain BLAS
  // DGEMM). threads: BLAS threads of this rank (also the task count of the
  // fast kernel's top level). Throws std::invalid_argument for a bad
  // variant, gemm or blocking.
  explicit LocalMultiply(const LocalKernelSpec& spec, int threads = 1);

  // C = A * B (C overwritten), column-major.
  void operator()(Index m, Index n, Index k, const double* A, Index lda, const double* B, Index ldb, double* C,
                  Index ldc);

  // Allocate the kernel's workspace for the largest call this caller will
  // make (plans call it when built: allocation stays out of the timing).
  void prepare(Index m, Index n, Index k) {
    if (fast_.config().levels > 0 || fast_.config().leaf == LeafGemm::packed) fast_.prepare(m, n, k);
  }
  // The kernel's settings (levels, variant, cut-off min_dim with its default resolved).
  const FastGemmConfig& config() const { return fast_.config(); }
  Index workspace_doubles() const { return static_cast<Index>(fast_.workspace_bytes() / sizeof(double)); }
  // Workspace one m×n×k call of such a kernel allocates (0 for plain DGEMM),
  // for memory estimates before anything is allocated. It grows with the
  // threads: the parallel top level gives each product task its own
  // temporaries (n = 12288, 2 to 4 levels: 0.75 GiB on 1 thread, 3.5 GiB on 2).
  static Index workspace_doubles_needed(Index m, Index n, Index k, const LocalKernelSpec& spec, int threads);
  // Factor by which the error bound grows: that of the levels the calls so
  // far really did (1 for plain DGEMM or before the first call).
  double error_growth() const;
  // CSV columns local_gemm (blas or packed), with the packed GEMM
  // packed_isa (its micro-kernel: avx512, avx2, portable) and
  // packed_blocking (MCxKCxNC as it ran), local_levels_applied (the most levels one call did),
  // local_variant and local_cutoff (when levels > 0), and where the time of
  // the calls so far went: local_add_share, local_add_share_by_level,
  // local_passes_by_level (when a level was done).
  std::map<std::string, std::string> describe() const;
  // Every key describe() may write (what an algorithm with local levels
  // declares as its CSV columns, Algorithm::columns()).
  static std::vector<std::string> columns();

 private:
  FastGemm fast_;
};

}  // namespace mmbench::local
