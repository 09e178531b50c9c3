// The machine's peak and the BLAS checked against it: the loops' flop
// counts, the peak fraction's arithmetic and the warning rule, on recorded
// facts (nothing here depends on this CPU's instruction sets).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "local/peak_loop.hpp"
#include "tuner/blas_check.hpp"
#include "tuner/peak_record.hpp"

using namespace mmbench;
using namespace mmbench::tuner;

TEST(PeakLoop, FlopsPerIterationPerIsa) {
  // doubles per vector x 2 flops per FMA x independent accumulators.
  EXPECT_EQ(local::peak_flops_per_iteration(VectorIsa::avx512), 8 * 2 * local::kPeakAccumulators);
  EXPECT_EQ(local::peak_flops_per_iteration(VectorIsa::avx2_fma), 4 * 2 * local::kPeakAccumulators);
  EXPECT_EQ(local::peak_flops_per_iteration(VectorIsa::sse2), 2 * 2 * local::kPeakAccumulators);
  // Enough chains to hide FMA latency (4-5 cycles) on two FMA pipes.
  EXPECT_GE(local::kPeakAccumulators, 10);
}

// Each ISA's loop computes the fixed point of x -> 0.75 x + 0.25 (1), where
// the CPU has the ISA (cpuid); elsewhere the test is skipped -- running
// AVX-512 code on a CPU without it would end in SIGILL. Each is a ctest
// entry of its own (unit.test_peak.<isa>), so ctest reports the skip.
void expect_fixed_point(VectorIsa isa) {
  const std::vector<VectorIsa> here = vector_isas(detect_cpu().flags);
  if (std::find(here.begin(), here.end(), isa) == here.end())
    GTEST_SKIP() << isa_name(isa) << " not on this CPU";
  const local::PeakLoop loop = local::peak_loop(isa);
  if (loop == nullptr) GTEST_SKIP() << isa_name(isa) << " not in this build";
  EXPECT_NEAR(loop(200), 1.0, 1e-9);
}

TEST(PeakLoopOnThisCpu, Avx512) { expect_fixed_point(VectorIsa::avx512); }
TEST(PeakLoopOnThisCpu, Avx2Fma) { expect_fixed_point(VectorIsa::avx2_fma); }
TEST(PeakLoopOnThisCpu, Sse2) { expect_fixed_point(VectorIsa::sse2); }

namespace {
PeakRecord record() {
  PeakRecord r;
  r.cores = 2;
  r.one_core_gflops = 60;
  r.all_cores_gflops_per_core = 50;
  return r;
}
}  // namespace

TEST(PeakFraction, UsesTheAllCorePeakForSeveralCores) {
  const PeakRecord r = record();
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 1), 60);
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 2), 50);
  // 45000 MFLOPS per core on 2 cores against 50 GFLOP/s per core.
  EXPECT_NEAR(*peak_fraction(45000, r, 2), 0.9, 1e-12);
  // One core: against the one-core peak.
  EXPECT_NEAR(*peak_fraction(45000, r, 1), 0.75, 1e-12);
  // A Strassen row's effective rate may exceed the peak.
  EXPECT_GT(*peak_fraction(70000, r, 1), 1.0);
  EXPECT_FALSE(peak_fraction(45000, r, 0).has_value());
  EXPECT_FALSE(peak_fraction(0, r, 1).has_value());
  PeakRecord none;
  EXPECT_FALSE(peak_fraction(45000, none, 1).has_value());
}

namespace {
BlasKernelFacts facts(const std::string& core, const std::string& pinned, double fraction) {
  BlasKernelFacts f;
  f.flags.sse2 = f.flags.avx = f.flags.fma = f.flags.avx2 = f.flags.avx512f = true;
  f.vendor = "GenuineIntel";
  f.core = core;
  f.pinned = pinned;
  f.dgemm_fraction = fraction;
  return f;
}
}  // namespace

TEST(BlasWarning, DetectedSlowCoreNamesCauseAndFix) {
  const std::string w = blas_kernel_warning(facts("Prescott", "", 0.19));
  ASSERT_FALSE(w.empty());
  EXPECT_NE(w.find("Prescott"), std::string::npos) << w;
  EXPECT_NE(w.find("OPENBLAS_CORETYPE="), std::string::npos) << w;
}

TEST(BlasWarning, PinnedSlowCoreIsReportedNotOverridden) {
  const std::string w = blas_kernel_warning(facts("Haswell", "Haswell", 0.45));
  ASSERT_FALSE(w.empty());
  EXPECT_NE(w.find("pins"), std::string::npos) << w;
}

TEST(BlasWarning, FineOrUnmeasuredSaysNothing) {
  EXPECT_TRUE(blas_kernel_warning(facts("SkylakeX", "", 0.92)).empty());
  EXPECT_TRUE(blas_kernel_warning(facts("Haswell", "", 0)).empty());  // not measured
}
