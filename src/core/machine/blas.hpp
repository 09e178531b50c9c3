// The local BLAS: thread control and the column-major DGEMM every algorithm
// calls, so that the local kernel can be swapped in one place (e.g. the
// local Strassen–Winograd kernel).
#pragma once

#include <string>

#include "core/matrix/layout.hpp"

namespace mmbench {

// OpenBLAS threads for this rank (openblas_set_num_threads). The count is
// process-global: change it for a stretch of code with ScopedBlasThreads.
void set_blas_threads(int threads);
int blas_threads();
// After a BLAS call of several threads OpenBLAS's workers spin for a while
// (about 0.1 s: OPENBLAS_THREAD_TIMEOUT) and take cores from whatever runs
// next. let_blas_workers_stop_spinning() waits them out (200 ms), before
// the next thing is timed; they then sleep until the next call wakes them.
// end_blas_workers() ends them now, by OpenBLAS's own blas_thread_shutdown_
// (looked up at run time); false, doing nothing, where the BLAS has no such
// entry. The next call of several threads starts them again: cheap for a
// hybrid's multiply, but a timed 2-thread DGEMM right after ran slower than
// after the wait (docs/results.md, "OpenBLAS's workers after a hybrid
// call"), so timed loops wait instead.
void let_blas_workers_stop_spinning();
bool end_blas_workers();
// openblas_get_config(), which names the running core, plus
// " (OPENBLAS_CORETYPE=X)" where the environment pins the core.
std::string blas_config();
// The core OPENBLAS_CORETYPE pins ("SkylakeX"), or "" where it is unset or
// empty: the one reading of the pin, for every choice that keeps it.
std::string pinned_blas_core();
// One line for the user where OPENBLAS_CORETYPE pins OpenBLAS to a core
// whose kernels leave out AVX-512 on a CPU that has it (the VM of our
// results: "Haswell" on an AMD EPYC with avx512f); empty otherwise. `run`
// and `tune` print it once: every DGEMM they time runs those kernels.
std::string blas_core_note();
// Whether the running OpenBLAS core has AVX-512 DGEMM kernels (the core
// openblas_get_config() names is SkylakeX, Cooperlake or SapphireRapids):
// the packed GEMM uses AVX-512 only then (local/packed_gemm.hpp).
bool blas_uses_avx512();
// The core a blas_config() text names: the word before " MAX_THREADS"
// ("OpenBLAS 0.3.21 ... Haswell MAX_THREADS=64" -> "Haswell"); "" if none.
std::string blas_core_name(const std::string& config);
// One line where a profile tuned under one OpenBLAS core is used by a run
// under another (its DGEMM rates then do not describe the run: 1.7x apart
// between Haswell and Cooperlake on our VM); "" when they agree or either
// text names no core.
std::string profile_core_note(const std::string& profile_path, const std::string& profile_blas,
                              const std::string& running_blas);

// Sets the BLAS thread count for a scope and restores the previous one on
// leaving it, also by an exception, so a count meant for one computation
// never leaks into the next.
class ScopedBlasThreads {
 public:
  explicit ScopedBlasThreads(int threads);
  ~ScopedBlasThreads();
  ScopedBlasThreads(const ScopedBlasThreads&) = delete;
  ScopedBlasThreads& operator=(const ScopedBlasThreads&) = delete;

 private:
  int previous_;
};

// C = A * B + beta * C, column-major, no transposes.
void dgemm(Index m, Index n, Index k, const double* A, Index lda, const double* B, Index ldb, double beta, double* C,
           Index ldc);

}  // namespace mmbench
