// The machine's peak and the BLAS checked against it: the loops' flop
// counts, the peak fraction's arithmetic and the warning rule, on recorded
// facts (nothing here depends on this CPU's instruction sets).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/machine/cpu_topology.hpp"
#include "local/peak_loop.hpp"
#include "tuner/blas_check.hpp"
#include "tuner/machine_check.hpp"
#include "tuner/peak.hpp"
#include "profile/peak_record.hpp"

using namespace mmbench;
using namespace mmbench::tuner;
using namespace mmbench::profile;

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

// Each ISA's GEMM-mix loop computes what a micro-kernel's k steps would:
// the sum over passes, slivers and k of (the 2 W doubles of A's column) x
// (the NR doubles of B's row) -- so it loads every operand it claims to,
// in the documented layout (two slivers here, three passes).
void expect_gemm_mix(VectorIsa isa) {
  const std::vector<VectorIsa> here = vector_isas(detect_cpu().flags);
  if (std::find(here.begin(), here.end(), isa) == here.end()) GTEST_SKIP() << isa_name(isa) << " not on this CPU";
  const local::MixLoop loop = local::gemm_mix_loop(isa);
  if (loop == nullptr) GTEST_SKIP() << isa_name(isa) << " not in this build";
  const int w = doubles_per_vector(isa), nr = local::mix_columns(isa);
  const std::int64_t kc = 5, slivers = 2, passes = 3;
  std::vector<double> a(static_cast<std::size_t>(2 * w * kc * slivers)), b(static_cast<std::size_t>(nr * kc));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.5 + 0.01 * static_cast<double>(i % 37);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.5 + 0.02 * static_cast<double>(i % 23);
  double want = 0;
  for (std::int64_t s = 0; s < slivers; ++s)
    for (std::int64_t k = 0; k < kc; ++k) {
      double col = 0, row = 0;
      for (int i = 0; i < 2 * w; ++i) col += a[static_cast<std::size_t>((s * kc + k) * 2 * w + i)];
      for (int j = 0; j < nr; ++j) row += b[static_cast<std::size_t>(k * nr + j)];
      want += col * row;
    }
  want *= passes;
  EXPECT_NEAR(loop(a.data(), slivers, b.data(), kc, passes), want, 1e-9 * want);
  EXPECT_EQ(local::mix_flops_per_step(isa), 2 * w * nr * 2);
}

TEST(GemmMixLoopOnThisCpu, Avx512) { expect_gemm_mix(VectorIsa::avx512); }
TEST(GemmMixLoopOnThisCpu, Avx2Fma) { expect_gemm_mix(VectorIsa::avx2_fma); }
TEST(GemmMixLoopOnThisCpu, Sse2) { expect_gemm_mix(VectorIsa::sse2); }

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

// Topologies as the kernel reports them: one thread per physical core is
// what the peak's all-core measurement runs.
TEST(CpuTopology, OneCpuPerPhysicalCore) {
  // 2 cores x 2 threads, Linux's usual numbering (siblings n and n + cores).
  EXPECT_EQ(one_cpu_per_core({{0, 0, 0}, {1, 0, 1}, {2, 0, 0}, {3, 0, 1}}), (std::vector<int>{0, 1}));
  // The same with siblings adjacent (some BIOSes).
  EXPECT_EQ(one_cpu_per_core({{0, 0, 0}, {1, 0, 0}, {2, 0, 1}, {3, 0, 1}}), (std::vector<int>{0, 2}));
  // No SMT: every CPU is a core.
  EXPECT_EQ(one_cpu_per_core({{0, 0, 0}, {1, 0, 1}}), (std::vector<int>{0, 1}));
  // Two packages reuse core ids: (0, 0) and (1, 0) are different cores.
  EXPECT_EQ(one_cpu_per_core({{0, 0, 0}, {1, 1, 0}, {2, 0, 0}, {3, 1, 0}}), (std::vector<int>{0, 1}));
  // A CPU whose topology is unknown counts as a core of its own.
  EXPECT_EQ(one_cpu_per_core({{5, -1, 5}, {6, -1, 6}}), (std::vector<int>{5, 6}));
}

TEST(CpuTopology, ReadsThisMachine) {
  // Whatever this machine is: CPU 0 has a place, and one CPU per core is a
  // non-empty subset of the CPUs.
  const std::vector<CpuPlace> places = read_cpu_places({0});
  ASSERT_EQ(places.size(), 1u);
  EXPECT_EQ(places[0].cpu, 0);
  EXPECT_GE(places[0].core, 0);
  EXPECT_EQ(one_cpu_per_core(places), (std::vector<int>{0}));
}

TEST(PeakLadder, BusyCoreCounts) {
  EXPECT_EQ(busy_core_ladder(1), (std::vector<int>{}));
  EXPECT_EQ(busy_core_ladder(2), (std::vector<int>{2}));
  EXPECT_EQ(busy_core_ladder(6), (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(busy_core_ladder(16), (std::vector<int>{2, 4, 8, 16}));
}

namespace {
// A 16-core machine: 88.5 GFLOP/s on one core, falling to 43.7 per core with
// all 16 busy (the rates of the lent Xeon; the ladder's middle is invented).
PeakRecord sixteen_cores() {
  PeakRecord r;
  r.cores = 16;
  r.logical_cpus = 16;
  r.one_core_gflops = 88.5;
  r.all_cores_gflops_per_core = 43.7;
  r.by_busy_cores = {{2, 86.0}, {4, 80.0}, {8, 60.0}, {16, 43.7}};
  return r;
}
}  // namespace

TEST(PeakFraction, DividesByThePeakOfTheCoresUsed) {
  const PeakRecord r = sixteen_cores();
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 1), 88.5);
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 2), 86.0);   // 2 of 16 busy
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 4), 80.0);
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 6), 70.0);   // between 4 and 8
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 16), 43.7);
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 32), 43.7);  // two nodes' worth
  // A p = 4 row at 13.3 GFLOP/s per core ran at 0.166 of its cores' peak,
  // not 0.30 as against the all-core rate.
  EXPECT_NEAR(*peak_fraction(13300, r, 4), 13.3 / 80.0, 1e-12);
  // A profile from before the ladder: the all-core rate for any count > 1.
  PeakRecord old = r;
  old.by_busy_cores.clear();
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(old, 4), 43.7);
}

TEST(PeakRecordJson, LadderAndSmtViewRoundTrip) {
  PeakRecord r = sixteen_cores();
  r.logical_cpus = 32;
  r.all_threads_gflops_per_thread = 22.1;
  r.isas.push_back({"avx512", 192, 88.5, 43.7, r.by_busy_cores, 22.1, 86.0, 64.0});
  r.gemm_mix_l1_gflops = 86.0;
  r.gemm_mix_l2_gflops = 64.0;
  nlohmann::ordered_json profile = nlohmann::ordered_json::object();
  write_peak_record(r, profile);
  const std::optional<PeakRecord> back = read_peak_record(profile, "test");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->logical_cpus, 32);
  EXPECT_DOUBLE_EQ(back->all_threads_gflops_per_thread, 22.1);
  ASSERT_EQ(back->by_busy_cores.size(), 4u);
  EXPECT_EQ(back->by_busy_cores[2].cores, 8);
  EXPECT_DOUBLE_EQ(back->by_busy_cores[2].gflops_per_core, 60.0);
  ASSERT_EQ(back->isas.size(), 1u);
  EXPECT_EQ(back->isas[0].by_busy_cores.size(), 4u);
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(*back, 6), 70.0);
  EXPECT_DOUBLE_EQ(back->gemm_mix_l1_gflops, 86.0);
  EXPECT_DOUBLE_EQ(back->gemm_mix_l2_gflops, 64.0);
  EXPECT_DOUBLE_EQ(back->isas[0].gemm_mix_l2_gflops, 64.0);
  // Older profiles have no ladder: read as before.
  profile["cpu_peak"].erase("by_busy_cores");
  profile["cpu_peak"].erase("logical_cpus");
  profile["cpu_peak"].erase("gemm_mix_l1_gflops");
  profile["cpu_peak"].erase("gemm_mix_l2_gflops");
  const std::optional<PeakRecord> old = read_peak_record(profile, "test");
  ASSERT_TRUE(old.has_value());
  EXPECT_TRUE(old->by_busy_cores.empty());
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(*old, 6), 43.7);
  EXPECT_EQ(old->gemm_mix_l2_gflops, 0.0);  // not measured
  // A ladder out of order is refused, naming the field.
  profile["cpu_peak"]["by_busy_cores"] = {{{"cores", 4}, {"gflops_per_core", 80.0}},
                                          {{"cores", 2}, {"gflops_per_core", 86.0}}};
  try {
    read_peak_record(profile, "test");
    FAIL() << "an unordered ladder was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("cpu_peak.by_busy_cores[1].cores"), std::string::npos) << e.what();
  }
}

// The lent 16-core Intel machine (docs/results.md): its register-only FMA
// loop ran slower than its GEMMs. doctor there: the loop at 49.3 GFLOP/s on
// one core, 68.7 per core with 2 busy, DGEMM 51.1; a tune: the loop at
// 49.7, DGEMM 44.5 in its check, 68.66 in the packed step. A rate that was
// reached is not above the peak: the fractions divide by the fastest.
TEST(PeakRecord, OneCorePeakIsTheFastestRateMeasured) {
  PeakRecord doctor;
  doctor.cores = 16;
  doctor.one_core_gflops = 49.3;
  doctor.all_cores_gflops_per_core = 45.9;
  doctor.by_busy_cores = {{2, 68.7}, {4, 68.7}, {8, 65.0}, {16, 45.9}};
  doctor.dgemm_n = 2048;
  doctor.dgemm_gflops = 51.1;
  EXPECT_DOUBLE_EQ(one_core_peak_gflops(doctor), 68.7);
  EXPECT_EQ(one_core_peak_source(doctor), "the FMA loop with 2 cores busy");
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(doctor, 1), 68.7);
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(doctor, 16), 45.9);

  PeakRecord tune;
  tune.cores = 16;
  tune.one_core_gflops = 49.7;
  tune.by_busy_cores = {{2, 49.0}, {4, 44.3}, {8, 44.0}, {16, 39.0}};
  tune.gemm_mix_l2_gflops = 40.6;
  tune.dgemm_n = 2048;
  tune.dgemm_gflops = 44.5;
  tune.dgemm_fraction = 44.5 / 49.7;
  EXPECT_DOUBLE_EQ(one_core_peak_gflops(tune), 49.7);
  EXPECT_EQ(one_core_peak_source(tune), "");  // the loop itself
  record_gemm_rate(tune, 68.661, "the packed step's DGEMM at n = 2048");
  record_gemm_rate(tune, 65.733, "the packed GEMM at n = 2048");  // slower: kept out
  EXPECT_DOUBLE_EQ(one_core_peak_gflops(tune), 68.661);
  EXPECT_EQ(one_core_peak_source(tune), "the packed step's DGEMM at n = 2048");
  EXPECT_DOUBLE_EQ(tune.dgemm_fraction, 44.5 / 68.661);
  // The run's DGEMM at n = 2048 (63123 MFLOPS) was "1.27 of peak" against the loop.
  EXPECT_NEAR(*peak_fraction(63123, tune, 1), 63.123 / 68.661, 1e-12);
  // The GEMM ceiling rises with it, never above the peak.
  EXPECT_DOUBLE_EQ(gemm_ceiling_gflops(tune), 68.661);
  // Where the loop is the fastest (this project's Zen 1), nothing changes.
  PeakRecord zen;
  zen.one_core_gflops = 20.1;
  zen.by_busy_cores = {{2, 20.1}};
  zen.gemm_mix_l2_gflops = 19.8;
  zen.dgemm_n = 2048;
  zen.dgemm_gflops = 17.9;
  record_gemm_rate(zen, 17.8, "the packed step's DGEMM at n = 2048");
  EXPECT_DOUBLE_EQ(one_core_peak_gflops(zen), 20.1);
  EXPECT_EQ(one_core_peak_source(zen), "");
  EXPECT_DOUBLE_EQ(gemm_ceiling_gflops(zen), 19.8);
}

// doctor's and tune's words: a rate well above the loop is a finding with
// its likely cause; one within the loop's spread is taken without it.
// The Intel VM's make run: the all-core loop's two threads had one core
// between them (50.2 per core against 96.3 alone), while tune's DGEMM on 2
// threads reached 65.2 per core; its 2-core rows read peak 1.17-1.62.
TEST(PeakRecord, BusyCorePeakIsNeverBelowARateReachedWithAsManyCoresBusy) {
  PeakRecord r;
  r.cores = 2;
  r.one_core_gflops = 96.3;
  r.all_cores_gflops_per_core = 50.2;
  r.by_busy_cores = {{2, 50.2}};
  EXPECT_NEAR(*peak_fraction(81134, r, 2), 81.134 / 50.2, 1e-12);  // "1.62"
  record_busy_cores_rate(r, 2, 130.421 / 2);
  EXPECT_DOUBLE_EQ(r.by_busy_cores[0].gflops_per_core, 130.421 / 2);
  EXPECT_DOUBLE_EQ(r.all_cores_gflops_per_core, 130.421 / 2);
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 2), 130.421 / 2);
  record_busy_cores_rate(r, 2, 40.0);  // slower: kept out
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 2), 130.421 / 2);
  // Never above the one-core peak, and never its named source.
  record_busy_cores_rate(r, 2, 120.0);
  EXPECT_DOUBLE_EQ(peak_gflops_per_core(r, 2), 96.3);
  EXPECT_DOUBLE_EQ(one_core_peak_gflops(r), 96.3);
  EXPECT_EQ(one_core_peak_source(r), "");
  // A count the ladder does not hold changes nothing; one core is not a busy count.
  record_busy_cores_rate(r, 4, 90.0);
  record_busy_cores_rate(r, 1, 99.0);
  ASSERT_EQ(r.by_busy_cores.size(), 1u);
  EXPECT_DOUBLE_EQ(one_core_peak_gflops(r), 96.3);
}

TEST(PeakRecord, DescribedWithItsSourceAndACauseOnlyWhenFarAbove) {
  PeakRecord r;
  r.one_core_gflops = 20.0;
  r.isas.push_back({"avx2+fma", 96, 20.0, 20.0, {}, 0, 20.0, 20.1});
  record_gemm_rate(r, 20.4, "the packed GEMM at n = 2048");
  std::string s = describe_recorded_peak(r);
  EXPECT_NE(s.find("one-core peak taken as 20.4 GFLOP/s, reached by the packed GEMM at n = 2048 (within the loop's "
                   "spread)"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("lower clock"), std::string::npos) << s;
  record_gemm_rate(r, 26.0, "the packed step's DGEMM at n = 2048");
  s = describe_recorded_peak(r);
  EXPECT_NE(s.find("taken as 26.0 GFLOP/s, reached by the packed step's DGEMM at n = 2048: faster than the FMA loop"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("lower clock"), std::string::npos) << s;
  PeakRecord loop_is_peak = r;
  loop_is_peak.fastest_gemm_gflops = 0;
  EXPECT_EQ(describe_recorded_peak(loop_is_peak).find("taken as"), std::string::npos);
}

// The ceiling printed is the one the fractions divide by: where a DGEMM
// ran faster than the mix loop (the loop was held back, as in two of the
// doctor runs of docs/results.md, "Where the packed GEMM's time goes"),
// the line gives the DGEMM's rate and says what the loop read, instead of
// a ceiling below a GEMM measured on the same core.
TEST(PeakRecord, CeilingNeverPrintedBelowAGemmMeasuredHere) {
  PeakRecord r;
  r.one_core_gflops = 88.0;
  r.isas.push_back({"avx512", 32, 88.0, 0, {}, 0, 87.0, 83.0});
  r.gemm_mix_l1_gflops = 87.0;
  r.gemm_mix_l2_gflops = 83.0;
  r.dgemm_n = 2048;
  r.dgemm_gflops = 76.5;
  derive_dgemm_fraction(r);
  std::string s = describe_recorded_peak(r);
  EXPECT_NE(s.find("GEMM ceiling (the FMA rate under a micro-kernel's loads) 83.0 GFLOP/s with A in L2 = 94 % of the "
                   "one-core peak (87.0 in L1)"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("held back"), std::string::npos) << s;
  r.gemm_mix_l1_gflops = 67.5;
  r.gemm_mix_l2_gflops = 60.4;
  s = describe_recorded_peak(r);
  EXPECT_NE(s.find("GEMM ceiling (the FMA rate under a micro-kernel's loads) 76.5 GFLOP/s with A in L2 = 87 % of the "
                   "one-core peak (76.5 in L1) -- taken from a GEMM measured here: the mix loop itself read 60.4 in L2 "
                   "and 67.5 in L1, held back"),
            std::string::npos)
      << s;
  EXPECT_NE(describe_recorded_dgemm(r).find("100 % of the GEMM ceiling"), std::string::npos)
      << describe_recorded_dgemm(r);
}

TEST(PeakRecordJson, FastestGemmRoundTripsAndOlderFractionsAreRecomputed) {
  PeakRecord r;
  r.cores = 16;
  r.one_core_gflops = 49.7;
  r.dgemm_n = 2048;
  r.dgemm_gflops = 44.5;
  r.dgemm_fraction = 44.5 / 49.7;
  record_gemm_rate(r, 68.661, "the packed step's DGEMM at n = 2048");
  nlohmann::ordered_json profile = nlohmann::ordered_json::object();
  write_peak_record(r, profile);
  const std::optional<PeakRecord> back = read_peak_record(profile, "test");
  ASSERT_TRUE(back.has_value());
  EXPECT_DOUBLE_EQ(back->fastest_gemm_gflops, 68.661);
  EXPECT_EQ(back->fastest_gemm_source, "the packed step's DGEMM at n = 2048");
  EXPECT_DOUBLE_EQ(one_core_peak_gflops(*back), 68.661);
  // A profile from before: no fastest GEMM, its fraction against the loop
  // alone (1.03 here) is read against the peak as now defined (DGEMM's own).
  profile["cpu_peak"].erase("fastest_gemm_gflops");
  profile["cpu_peak"].erase("fastest_gemm_source");
  profile["cpu_peak"]["dgemm_gflops"] = 51.1;
  profile["cpu_peak"]["dgemm_fraction"] = 51.1 / 49.7;
  const std::optional<PeakRecord> old = read_peak_record(profile, "test");
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->fastest_gemm_gflops, 0.0);
  EXPECT_DOUBLE_EQ(old->dgemm_fraction, 1.0);
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

// The ceiling decides: a DGEMM at 69 % of the FMA peak (the AVX-512 Xeon of
// the issue) is slow against the peak alone, fine where the core's GEMM
// ceiling is 72 % of it (96 % of the ceiling), and a narrow kernel at half
// the ceiling is still named.
TEST(BlasWarning, MeasuredAgainstTheGemmCeiling) {
  BlasKernelFacts f = facts("SkylakeX", "", 0.69);
  EXPECT_FALSE(blas_kernel_warning(f).empty());
  f.ceiling_fraction = 0.72;
  EXPECT_TRUE(blas_kernel_warning(f).empty()) << blas_kernel_warning(f);
  BlasKernelFacts narrow = facts("Haswell", "", 0.36);
  narrow.ceiling_fraction = 0.72;
  const std::string w = blas_kernel_warning(narrow);
  ASSERT_FALSE(w.empty());
  EXPECT_NE(w.find("50 % of this core's GEMM ceiling"), std::string::npos) << w;
  EXPECT_NE(w.find("72 % of the FMA peak"), std::string::npos) << w;
  // A ceiling above the peak (noise) counts as the peak.
  f.dgemm_fraction = 0.70;
  f.ceiling_fraction = 1.05;
  EXPECT_FALSE(blas_kernel_warning(f).empty());
}

TEST(BlasWarning, FineOrUnmeasuredSaysNothing) {
  EXPECT_TRUE(blas_kernel_warning(facts("SkylakeX", "", 0.92)).empty());
  EXPECT_TRUE(blas_kernel_warning(facts("Haswell", "", 0)).empty());  // not measured
}
