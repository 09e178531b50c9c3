// core/blas: ScopedBlasThreads (the BLAS thread count of a scope, restored
// on leaving it normally or by an exception, and when scopes nest), and how
// a core pinned by OPENBLAS_CORETYPE is recorded and reported.
#include "core/machine/blas.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <thread>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmbench {
namespace {

TEST(ScopedBlasThreads, RestoresOnEveryPath) {
  set_blas_threads(1);
  {
    const ScopedBlasThreads two(2);
    EXPECT_EQ(blas_threads(), 2);
    {
      const ScopedBlasThreads one(1);
      EXPECT_EQ(blas_threads(), 1);
    }
    EXPECT_EQ(blas_threads(), 2);
  }
  EXPECT_EQ(blas_threads(), 1);
  EXPECT_THROW(
      {
        const ScopedBlasThreads two(2);
        throw std::runtime_error("inside");
      },
      std::runtime_error);
  EXPECT_EQ(blas_threads(), 1);
}

// The threads of this process (/proc/self/task): the test's, OpenBLAS's
// workers, and any a library started before.
int process_threads() {
  int n = 0;
  for ([[maybe_unused]] const auto& task : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

// process_threads() once it reads `expected`, or after a second. A worker
// that OpenBLAS has joined can still be listed in /proc/self/task for a
// moment: the kernel wakes the joiner before it removes the thread (one CI
// run read 2 threads against 1 right after the join). A worker that was
// never ended stays listed for the whole second.
int process_threads_settled(int expected) {
  int n = process_threads();
  for (int waited_ms = 0; n != expected && waited_ms < 1000; ++waited_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    n = process_threads();
  }
  return n;
}

// C = A B at n = 256 with `threads` BLAS threads, and whether every entry
// is right (A = 1, B = 2: each is 2 n).
bool threaded_product_right(int threads) {
  constexpr Index n = 256;
  const std::vector<double> a(n * n, 1.0), b(n * n, 2.0);
  std::vector<double> c(n * n, -1.0);
  const ScopedBlasThreads scope(threads);
  dgemm(n, n, n, a.data(), n, b.data(), n, 0.0, c.data(), n);
  for (double x : c)
    if (x != 2.0 * n) return false;
  return true;
}

// A hybrid's computing rank ends OpenBLAS's workers after its multiply
// (algos/hybrid_plan.cpp), so that they do not spin on the idle ranks'
// cores: after end_blas_workers() none is left, and the next call of
// several threads starts them again and is right.
TEST(EndBlasWorkers, LeavesNoWorkerAndTheNextCallStartsThem) {
  ASSERT_TRUE(end_blas_workers()) << "this OpenBLAS has no blas_thread_shutdown_";
  // The main thread alone, unless a library started others (then the count
  // a second later, when any worker just ended is gone).
  const int alone = process_threads_settled(1);
  ASSERT_TRUE(threaded_product_right(2));
  ASSERT_GT(process_threads(), alone) << "a 2-thread DGEMM at n = 256 started no worker: nothing to end";
  EXPECT_TRUE(end_blas_workers());
  EXPECT_EQ(process_threads_settled(alone), alone);
  EXPECT_TRUE(threaded_product_right(2));
  EXPECT_GT(process_threads(), alone);
  EXPECT_TRUE(end_blas_workers());
  EXPECT_EQ(process_threads_settled(alone), alone);
}

// Sets OPENBLAS_CORETYPE for a scope (nullptr: unset) and restores the
// value the test started with. OpenBLAS read it at load time already, so
// only mmbench's own reading of it changes.
class CoretypeEnv {
 public:
  explicit CoretypeEnv(const char* value) {
    if (const char* old = std::getenv("OPENBLAS_CORETYPE")) old_ = old;
    set(value);
  }
  ~CoretypeEnv() { set(old_ ? old_->c_str() : nullptr); }
  CoretypeEnv(const CoretypeEnv&) = delete;
  CoretypeEnv& operator=(const CoretypeEnv&) = delete;

 private:
  static void set(const char* value) {
    if (value) setenv("OPENBLAS_CORETYPE", value, 1);
    else unsetenv("OPENBLAS_CORETYPE");
  }
  std::optional<std::string> old_;
};

TEST(BlasConfig, RecordsAPinnedCore) {
  {
    const CoretypeEnv unset(nullptr);
    EXPECT_NE(blas_config().find("OpenBLAS"), std::string::npos) << blas_config();
    EXPECT_EQ(blas_config().find("OPENBLAS_CORETYPE"), std::string::npos) << blas_config();
  }
  const CoretypeEnv haswell("Haswell");
  const std::string c = blas_config();
  const std::string suffix = " (OPENBLAS_CORETYPE=Haswell)";
  ASSERT_GT(c.size(), suffix.size()) << c;
  EXPECT_EQ(c.substr(c.size() - suffix.size()), suffix) << c;
}

TEST(BlasCoreNote, OnlyWhereAPinLeavesOutTheCpusAvx512) {
  {
    const CoretypeEnv unset(nullptr);
    EXPECT_EQ(blas_core_note(), "");
  }
  for (const char* avx512 : {"SkylakeX", "cooperlake", "SAPPHIRERAPIDS"}) {
    const CoretypeEnv pinned(avx512);
    EXPECT_EQ(blas_core_note(), "") << avx512;
  }
  const CoretypeEnv haswell("Haswell");
  const std::string note = blas_core_note();
#if defined(__x86_64__) && defined(__GNUC__)
  const bool cpu_has_avx512 = __builtin_cpu_supports("avx512f");
#else
  const bool cpu_has_avx512 = false;
#endif
  if (cpu_has_avx512)
    EXPECT_NE(note.find("OPENBLAS_CORETYPE=Haswell"), std::string::npos) << note;
  else
    EXPECT_EQ(note, "");
}

TEST(BlasCoreName, TheWordBeforeMaxThreads) {
  EXPECT_EQ(blas_core_name("OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64"), "Haswell");
  EXPECT_EQ(blas_core_name("OpenBLAS 0.3.21 DYNAMIC_ARCH Cooperlake MAX_THREADS=64 (OPENBLAS_CORETYPE=Cooperlake)"),
            "Cooperlake");
  EXPECT_EQ(blas_core_name("Zen MAX_THREADS=8"), "Zen");
  EXPECT_EQ(blas_core_name(" MAX_THREADS=8"), "");
  EXPECT_EQ(blas_core_name(""), "");
  EXPECT_EQ(blas_core_name("reference BLAS"), "");
}

TEST(ProfileCoreNote, OnlyWhenTwoNamedCoresDiffer) {
  const std::string haswell = "OpenBLAS 0.3.21 DYNAMIC_ARCH Haswell MAX_THREADS=64 (OPENBLAS_CORETYPE=Haswell)";
  const std::string cooperlake = "OpenBLAS 0.3.21 DYNAMIC_ARCH Cooperlake MAX_THREADS=64";
  EXPECT_EQ(profile_core_note("p.json", haswell, haswell), "");
  EXPECT_EQ(profile_core_note("p.json", "OpenBLAS 0.3.21 Haswell MAX_THREADS=64", haswell), "");  // older profile, same core
  EXPECT_EQ(profile_core_note("p.json", "", cooperlake), "");  // a profile that names no BLAS
  const std::string note = profile_core_note("configs/vm.json", haswell, cooperlake);
  EXPECT_NE(note.find("configs/vm.json was tuned with OpenBLAS core Haswell, this run uses Cooperlake"),
            std::string::npos)
      << note;
}

}  // namespace
}  // namespace mmbench
