#include "core/machine/blas.hpp"

#include <cblas.h>
#include <dlfcn.h>

#include <cctype>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "core/machine/openblas_cores.hpp"
#include "core/simulation.hpp"

namespace mmbench {

// Simulated ranks (SMPI) share one process and its OpenBLAS, which always
// runs one thread there; the count asked for is only remembered, so that
// charged DGEMMs of the dgemm peer (p cores on rank 0) cost 1/threads.
#ifdef MMBENCH_SMPI
void set_blas_threads(int threads) {
  openblas_set_num_threads(1);
  sim::set_rank_threads(threads);
}
int blas_threads() { return sim::rank_threads(); }
#else
void set_blas_threads(int threads) { openblas_set_num_threads(threads); }
int blas_threads() { return openblas_get_num_threads(); }
#endif

#ifdef MMBENCH_SMPI
bool end_blas_workers() { return true; }  // one thread there: no workers
#else
bool end_blas_workers() {
  // OpenBLAS's pthread server exports it (for fork handlers); an OpenMP
  // build or another BLAS may not, so it is looked up, not linked.
  using Shutdown = int (*)();
  static const auto shutdown = reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_"));
  if (shutdown == nullptr) return false;
  shutdown();
  return true;
}
#endif
void let_blas_workers_stop_spinning() { std::this_thread::sleep_for(std::chrono::milliseconds(200)); }
// openblas_get_config() names the core whose kernels run (a DYNAMIC_ARCH
// build picks it at load time). OPENBLAS_CORETYPE overrides that choice, and
// a pinned core can be far slower than the detected one: the AVX2 kernels a
// pin selects on an AVX-512 CPU run DGEMM at a fraction of the detected
// core's speed (docs/results.md, "DGEMM under the two OpenBLAS cores"). So
// the override is recorded with the core.
std::string pinned_blas_core() {
  const char* pinned = std::getenv("OPENBLAS_CORETYPE");
  return pinned != nullptr ? pinned : "";
}

std::string blas_config() {
  std::string config = openblas_get_config();
  if (const std::string pinned = pinned_blas_core(); !pinned.empty()) config += " (OPENBLAS_CORETYPE=" + pinned + ")";
  return config;
}

namespace {
// A core with AVX-512 DGEMM kernels (core/machine/openblas_cores.hpp); an unknown
// name counts as without.
bool avx512_core(const std::string& core) {
  const OpenblasCore* c = find_openblas_core(core);
  return c && c->width == KernelWidth::avx512;
}
}  // namespace

bool blas_uses_avx512() { return avx512_core(blas_core_name(openblas_get_config())); }

std::string blas_core_note() {
  const std::string pinned = pinned_blas_core();
  if (pinned.empty()) return "";
  if (avx512_core(pinned)) return "";
#if defined(__x86_64__) && defined(__GNUC__)
  if (!__builtin_cpu_supports("avx512f")) return "";
#else
  return "";
#endif
  return "note: OPENBLAS_CORETYPE=" + pinned +
         " pins OpenBLAS to kernels without AVX-512 on a CPU that has it; every DGEMM here runs "
         "them (unset it to let OpenBLAS choose; `mmbench tune` measures each kernel this CPU runs)";
}

std::string blas_core_name(const std::string& config) {
  const std::size_t end = config.find(" MAX_THREADS");
  if (end == std::string::npos || end == 0) return "";
  const std::size_t space = config.rfind(' ', end - 1);  // before the core's name, if anything is
  const std::size_t begin = space == std::string::npos ? 0 : space + 1;
  return config.substr(begin, end - begin);
}

std::string profile_core_note(const std::string& profile_path, const std::string& profile_blas,
                              const std::string& running_blas) {
  const std::string tuned = blas_core_name(profile_blas), running = blas_core_name(running_blas);
  if (tuned.empty() || running.empty() || tuned == running) return "";
  return "note: " + profile_path + " was tuned with OpenBLAS core " + tuned + ", this run uses " + running +
         ": its DGEMM rates do not describe this run (tune again under this core)";
}

ScopedBlasThreads::ScopedBlasThreads(int threads) : previous_(blas_threads()) { set_blas_threads(threads); }
ScopedBlasThreads::~ScopedBlasThreads() { set_blas_threads(previous_); }

void dgemm(Index m, Index n, Index k, const double* A, Index lda, const double* B, Index ldb, double beta, double* C,
           Index ldc) {
  if (m == 0 || n == 0) return;
  if (sim::charged()) return sim::charge_dgemm(m, n, k);  // simulated: costs time, computes nothing
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
    throw std::invalid_argument("dgemm: dimension beyond the 32-bit BLAS interface");
  if (k == 0) {  // BLAS would still scale C by beta; do the same explicitly.
    for (Index j = 0; j < n; ++j)
      for (Index i = 0; i < m; ++i) C[i + j * ldc] *= beta;
    return;
  }
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
              1.0, A, static_cast<int>(lda), B, static_cast<int>(ldb), beta, C, static_cast<int>(ldc));
}

}  // namespace mmbench
