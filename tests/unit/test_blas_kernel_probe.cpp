// The BLAS kernel probe: which cores are candidates, what the recorded
// outcomes decide, and how the parent treats children that misbehave.
// Every child here runs the core that already runs (never another: the
// environment may pin one on purpose).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <cblas.h>

#include <cstdlib>

#include "core/machine/blas.hpp"
#include "core/machine/openblas_cores.hpp"
#include "tuner/blas_kernel_probe.hpp"
#include "profile/blas_kernel_record.hpp"
#include "profile/profile_error.hpp"

using namespace mmbench;
using namespace mmbench::tuner;
using namespace mmbench::profile;

TEST(OpenblasCores, CandidatesFollowTheCpuFlags) {
  EXPECT_TRUE(candidate_cores({}).empty());
  EXPECT_EQ(candidate_cores({"pni"}), (std::vector<std::string>{"Prescott"}));
  const std::set<std::string> avx2 = {"pni", "ssse3", "sse4_1", "sse4_2", "avx", "avx2", "fma"};
  EXPECT_EQ(candidate_cores(avx2),
            (std::vector<std::string>{"Prescott", "Nehalem", "Sandybridge", "Haswell", "Zen"}));
  std::set<std::string> avx512 = avx2;
  for (const char* f : {"avx512f", "avx512bw", "avx512dq", "avx512vl"}) avx512.insert(f);
  EXPECT_EQ(candidate_cores(avx512).back(), "SkylakeX");
  avx512.insert("avx512_bf16");
  EXPECT_EQ(candidate_cores(avx512).back(), "Cooperlake");
  // AVX-512F alone (no BW/DQ/VL) is not enough for SkylakeX's kernels.
  std::set<std::string> f_only = avx2;
  f_only.insert("avx512f");
  EXPECT_EQ(candidate_cores(f_only).back(), "Zen");
}

namespace {
KernelProbe ok(const std::string& asked, const std::string& ran, double mflops) {
  KernelProbe p;
  p.asked = asked;
  p.ran = ran;
  p.verified = true;
  p.mflops = mflops;
  return p;
}
KernelProbe bad(const std::string& asked, const std::string& reason) {
  KernelProbe p;
  p.asked = asked;
  p.reason = reason;
  return p;
}
}  // namespace

TEST(ChooseKernel, PinnedSlowCoreGetsTheSettingNotAnOverride) {
  const KernelChoice c = choose_kernel({ok("", "Cooperlake", 85000), ok("Haswell", "Haswell", 50000),
                                        ok("Cooperlake", "Cooperlake", 86000)},
                                       "Haswell", true);
  EXPECT_EQ(c.fastest, "Cooperlake");
  EXPECT_DOUBLE_EQ(c.running_mflops, 50000);
  EXPECT_TRUE(c.switch_pays);
  EXPECT_NE(c.advice.find("pinned"), std::string::npos);
  EXPECT_NE(c.advice.find("mpirun -x OPENBLAS_CORETYPE=Cooperlake"), std::string::npos);
}

TEST(ChooseKernel, DetectedSlowCore) {
  // OpenBLAS 0.3.21 on a CPU it does not know: Prescott detected.
  const KernelChoice c = choose_kernel({ok("", "Prescott", 15800), ok("Prescott", "Prescott", 15700),
                                        ok("Haswell", "Haswell", 60000), ok("SkylakeX", "SkylakeX", 82500)},
                                       "Prescott", false);
  EXPECT_EQ(c.fastest, "SkylakeX");
  EXPECT_TRUE(c.switch_pays);
  EXPECT_NE(c.advice.find("5.22x"), std::string::npos) << c.advice;
}

TEST(ChooseKernel, CrashingAndWrongCandidatesNeverWin) {
  const KernelChoice c = choose_kernel({ok("", "Haswell", 50000), ok("Haswell", "Haswell", 50000),
                                        bad("SkylakeX", "killed by signal 4 (Illegal instruction)"),
                                        bad("Cooperlake", "wrong results (relative error 0.02)")},
                                       "Haswell", false);
  EXPECT_EQ(c.fastest, "Haswell");
  EXPECT_FALSE(c.switch_pays);
  EXPECT_TRUE(c.advice.empty());
}

TEST(ChooseKernel, AllEqualWithinNoiseMeansNoAdvice) {
  const KernelChoice c =
      choose_kernel({ok("", "Haswell", 50000), ok("Haswell", "Haswell", 50000), ok("Zen", "Zen", 51000)}, "Haswell",
                    false);
  EXPECT_EQ(c.fastest, "Zen");
  EXPECT_FALSE(c.switch_pays);  // 1.02x < kWorthSwitching
  EXPECT_TRUE(c.advice.empty());
}

TEST(ChooseKernel, ANameOpenblasIgnoredIsNoChoice) {
  // OPENBLAS_CORETYPE=Foo runs the detected core: it must not be advised.
  const KernelChoice c = choose_kernel({ok("", "Haswell", 50000), ok("Foo", "Haswell", 90000)}, "Haswell", false);
  EXPECT_EQ(c.fastest, "Haswell");
  EXPECT_TRUE(c.advice.empty());
}

TEST(BlasKernelRecord, RoundTrip) {
  BlasKernelRecord r;
  r.probed = true;
  r.n = 1536;
  r.probes = {ok("", "Haswell", 50000), bad("SkylakeX", "killed by signal 4 (Illegal instruction)")};
  r.choice = choose_kernel(r.probes, "Haswell", false);
  const BlasKernelRecord back = blas_kernels_from_json(blas_kernels_to_json(r), "x");
  EXPECT_EQ(back.n, 1536);
  ASSERT_EQ(back.probes.size(), 2u);
  EXPECT_EQ(back.probes[1].reason, r.probes[1].reason);
  EXPECT_EQ(back.choice.fastest, "Haswell");
}

// A core that computed garbage may have an infinite error, which JSON writes
// as null: the profile still loads. A malformed record names its field.
TEST(BlasKernelRecord, NullErrorReadsAsInfiniteAndBadFieldsAreNamed) {
  BlasKernelRecord r;
  r.probed = true;
  r.n = 1536;
  r.probes = {ok("", "Haswell", 50000), bad("Zen", "wrong result")};
  r.probes[1].max_rel_err = std::numeric_limits<double>::infinity();
  r.choice = choose_kernel(r.probes, "Haswell", false);
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(blas_kernels_to_json(r).dump());
  ASSERT_TRUE(j["probes"][1]["max_rel_err"].is_null());
  EXPECT_TRUE(std::isinf(blas_kernels_from_json(j, "x").probes[1].max_rel_err));
  const auto error_of = [](nlohmann::ordered_json bad) {
    try {
      blas_kernels_from_json(bad, "p.json");
    } catch (const ProfileError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  nlohmann::ordered_json b = j;
  b["pinned"] = "no";
  EXPECT_EQ(error_of(b), "p.json: field 'blas_kernels.pinned' must be true or false, got string");
  b = j;
  b["probes"][0].erase("ran");
  EXPECT_EQ(error_of(b), "p.json: field 'blas_kernels.probes[0].ran' is missing");
}

// ---- real children, always with the core that runs now ----

namespace {
ProbeOptions quick() {
  ProbeOptions o;
  o.executable = MMBENCH_EXE;
  o.n = 256;
  o.timeout_s = 20;
  return o;
}
std::string running_core() { return openblas_get_corename(); }
}  // namespace

TEST(ProbeChild, TheRunningCoreVerifies) {
  unsetenv("MMBENCH_BLAS_PROBE_FAULT");
  const KernelProbe p = probe_kernel(running_core(), quick());
  EXPECT_TRUE(p.verified) << p.reason;
  EXPECT_EQ(p.ran, running_core());
  EXPECT_GT(p.mflops, 0);
  EXPECT_LT(p.max_rel_err, 1e-12);
}

TEST(ProbeChild, MisbehavingChildrenAreRejectedNotFatal) {
  const struct {
    const char* fault;
    const char* reason;
  } cases[] = {{"abort", "killed by signal"}, {"wrong", "wrong results"}, {"garbage", "unreadable answer"},
               {"hang", "no answer within"}};
  for (const auto& c : cases) {
    setenv("MMBENCH_BLAS_PROBE_FAULT", c.fault, 1);
    ProbeOptions o = quick();
    o.timeout_s = 2;
    const KernelProbe p = probe_kernel(running_core(), o);
    EXPECT_FALSE(p.verified) << c.fault;
    EXPECT_NE(p.reason.find(c.reason), std::string::npos) << c.fault << ": " << p.reason;
  }
  unsetenv("MMBENCH_BLAS_PROBE_FAULT");
  ProbeOptions missing = quick();
  missing.executable = "/nonexistent/mmbench";
  EXPECT_FALSE(probe_kernel(running_core(), missing).verified);
}
