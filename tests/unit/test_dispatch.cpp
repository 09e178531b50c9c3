// The dispatcher's pure parts: reading PDGEMM's arguments, the settings
// from the environment, the decision (threshold, memory cap, forcing, the
// model with its margin), the conversion's price, and the census file.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/csv_file.hpp"
#include "dispatch/census.hpp"
#include "dispatch/decision.hpp"
#include "dispatch/dispatch_settings.hpp"
#include "dispatch/pdgemm_call.hpp"
#include "profile/machine_profile.hpp"

using namespace mmbench;
using namespace mmbench::dispatch;

namespace {

PdgemmCall square_call(long n, int nb = 64, bool ta = false) {
  static double a = 0, b = 0, c = 0;
  const int desc[9] = {1, 0, int(n), int(n), nb, nb, 0, 0, int(n)};
  PdgemmCall x;
  std::string why;
  EXPECT_TRUE(read_call(ta ? 'T' : 'N', 'N', int(n), int(n), int(n), 1.0, &a, 1, 1, desc, &b, 1, 1, desc, 0.0, &c, 1, 1,
                        desc, &x, &why));
  return x;
}

DispatchSettings settings(std::map<std::string, std::string> env) {
  return read_dispatch_settings([env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

MachineFacts opteron() {
  MachineFacts m;
  m.params =
      profile::to_params(profile::read_profile(std::string(MMBENCH_SOURCE_DIR) + "/configs/thesis-opteron.json"));
  m.has_model = true;
  return m;
}

}  // namespace

TEST(PdgemmCall, ReadsScalapacksArguments) {
  double a = 0, b = 0, c = 0;
  const int da[9] = {1, 7, 100, 90, 8, 4, 1, 0, 60};
  const int db[9] = {1, 7, 80, 70, 2, 3, 0, 1, 50};
  PdgemmCall x;
  std::string why;
  ASSERT_TRUE(read_call('t', 'C', 10, 20, 30, 2.0, &a, 3, 4, da, &b, 5, 6, db, 0.5, &c, 7, 8, da, &x, &why));
  EXPECT_TRUE(x.trans_a);
  EXPECT_TRUE(x.trans_b);
  EXPECT_EQ(x.a.i0, 2);
  EXPECT_EQ(x.a.j0, 3);
  EXPECT_EQ(x.a_rows(), 30);  // A is stored k x m
  EXPECT_EQ(x.b_cols(), 30);
  EXPECT_EQ(x.a.desc.mb, 8);
  EXPECT_EQ(x.a.desc.rsrc, 1);
  EXPECT_EQ(x.b.desc.csrc, 1);
  EXPECT_EQ(x.a.blocking(), "8x4+1+0");
  EXPECT_EQ(pass_reason(x, 2, 2), "");
  EXPECT_FALSE(read_call('X', 'N', 1, 1, 1, 1.0, &a, 1, 1, da, &b, 1, 1, db, 0.0, &c, 1, 1, da, &x, &why));
  EXPECT_NE(why.find("'X'"), std::string::npos);
}

TEST(PdgemmCall, PassReasons) {
  PdgemmCall x = square_call(100);
  x.alpha = 0;
  EXPECT_NE(pass_reason(x, 1, 1).find("alpha = 0"), std::string::npos);
  x = square_call(100);
  x.m = 0;
  EXPECT_NE(pass_reason(x, 1, 1).find("M or N = 0"), std::string::npos);
  x = square_call(100);
  x.b.ctxt = 3;
  EXPECT_NE(pass_reason(x, 1, 1).find("different BLACS contexts"), std::string::npos);
  x = square_call(100);
  x.c.dtype = 502;
  EXPECT_NE(pass_reason(x, 1, 1).find("descriptor type 502"), std::string::npos);
  x = square_call(100);
  x.c.i0 = 1;  // 100 rows from row 1 of a 100-row matrix
  EXPECT_NE(pass_reason(x, 1, 1).find("outside its matrix"), std::string::npos);
  x = square_call(100);
  x.b.desc.csrc = 2;  // no process column 2 on a 2 x 2 grid
  EXPECT_NE(pass_reason(x, 2, 2).find("RSRC/CSRC outside"), std::string::npos);
  EXPECT_EQ(pass_reason(x, 1, 3), "");
}

TEST(PdgemmCall, TypeTwoDescriptorsAreReadAndTheirFirstBlockCounts) {
  double a = 0, b = 0, c = 0;
  // DTYPE, CTXT, M, N, IMB, INB, MB, NB, RSRC, CSRC, LLD
  const int d2[11] = {2, 7, 31, 31, 1, 2, 4, 5, 1, 0, 20};
  const int d1[9] = {1, 7, 31, 31, 4, 5, 1, 0, 20};
  PdgemmCall x;
  std::string why;
  ASSERT_TRUE(read_call('N', 'N', 10, 10, 10, 1.0, &a, 1, 1, d2, &b, 1, 1, d1, 0.0, &c, 1, 1, d2, &x, &why));
  EXPECT_EQ(x.a.dtype, 2);
  EXPECT_EQ(x.a.desc.imb, 1);
  EXPECT_EQ(x.a.desc.inb, 2);
  EXPECT_EQ(x.a.desc.mb, 4);
  EXPECT_EQ(x.a.desc.nb, 5);
  EXPECT_EQ(x.a.desc.rsrc, 1);
  EXPECT_EQ(x.a.desc.lld, 20);
  EXPECT_EQ(x.a.blocking(), "1x2/4x5+1+0");
  EXPECT_EQ(x.b.desc.imb, 0);  // type 1: the first block is MB x NB
  EXPECT_EQ(pass_reason(x, 2, 1), "");
  // On a 2 x 1 grid process row 1 holds row 0 (IMB = 1), then rows 5-8,
  // 13-16, 21-24, 29-30: 15 rows; process row 0 holds the other 16.
  x.a.desc.lld = 15;
  EXPECT_EQ(local_reason(x, 2, 1, 1, 0), "");
  x.a.desc.lld = 14;
  EXPECT_NE(local_reason(x, 2, 1, 1, 0).find("LLD of A"), std::string::npos);
  x.a.desc.lld = 16;
  x.c.desc.lld = 15;
  EXPECT_NE(local_reason(x, 2, 1, 0, 0).find("LLD of C"), std::string::npos);
}

TEST(PdgemmCall, TheCacheKeyHoldsWhatPricesAndNothingElse) {
  PdgemmCall x = square_call(300);
  PdgemmCall y = x;
  y.alpha = 0;           // checked per call, never cached
  y.c.i0 = 5;            // offsets and LLDs price nothing
  y.b.desc.lld = 999;
  y.c.desc.mb = 7;
  EXPECT_EQ(price_key(x), price_key(y));
  y.a.desc.nb = 32;      // the k blocking sets ScaLAPACK's lb in force
  EXPECT_NE(price_key(x), price_key(y));
  y = x;
  y.trans_b = true;
  EXPECT_NE(price_key(x), price_key(y));
}

TEST(DispatchSettings, DefaultsAndValues) {
  DispatchSettings s = settings({});
  EXPECT_TRUE(s.enabled);
  EXPECT_FALSE(s.strassen);
  EXPECT_EQ(s.min_dim, kDefaultMinDim);
  EXPECT_EQ(s.max_mib, kDefaultMaxMiB);
  EXPECT_TRUE(s.problems.empty());
  s = settings({{"MMBENCH_DISPATCH", "off"}, {"MMBENCH_DISPATCH_STRASSEN", "1"}, {"MMBENCH_DISPATCH_MIN_DIM", "0"},
                {"MMBENCH_DISPATCH_MAX_MB", "100"}, {"MMBENCH_DISPATCH_FORCE", "ring:2"},
                {"MMBENCH_DISPATCH_GEMM", "packed"}, {"MMBENCH_DISPATCH_LOG", "c.csv"}});
  EXPECT_FALSE(s.enabled);
  EXPECT_TRUE(s.strassen);
  EXPECT_EQ(s.min_dim, 0);
  EXPECT_EQ(s.max_mib, 100);
  EXPECT_EQ(s.force, "ring:2");
  EXPECT_EQ(s.gemm, local::LeafGemm::packed);
  EXPECT_EQ(s.log_path, "c.csv");
  EXPECT_TRUE(s.problems.empty());
}

TEST(DispatchSettings, BadValuesAreOneLineEachAndKeepTheDefault) {
  const DispatchSettings s =
      settings({{"MMBENCH_DISPATCH", "maybe"}, {"MMBENCH_DISPATCH_MIN_DIM", "-3"}, {"MMBENCH_DISPATCH_MAX_MB", "x"},
                {"MMBENCH_DISPATCH_FORCE", "ringo"}, {"MMBENCH_DISPATCH_STRASSEN", "2"}, {"MMBENCH_DISPATCH_GEMM", "z"}});
  EXPECT_TRUE(s.enabled);
  EXPECT_FALSE(s.strassen);
  EXPECT_EQ(s.min_dim, kDefaultMinDim);
  EXPECT_EQ(s.max_mib, kDefaultMaxMiB);
  EXPECT_TRUE(s.force.empty());
  EXPECT_FALSE(s.gemm.has_value());  // auto
  ASSERT_EQ(s.problems.size(), 6u);
  EXPECT_NE(s.problems[2].find("MMBENCH_DISPATCH_FORCE='ringo'"), std::string::npos) << s.problems[2];
}

TEST(DispatchSettings, ForcedMembersAndHybrids) {
  struct Case {
    const char* text;
    const char* name;
    int levels, hybrid;
  };
  ForcedMember f;
  for (const Case& c : {Case{"tpmm:3", "tpmm", 3, 1}, Case{"ring/2", "ring", 0, 2}, Case{"tpmm:1/4", "tpmm", 1, 4},
                        Case{"2.5d/2", "2.5d", 0, 2}, Case{"scalapack", "scalapack", 0, 1}}) {
    ASSERT_TRUE(parse_forced(c.text, &f)) << c.text;
    EXPECT_EQ(f.name, c.name) << c.text;
    EXPECT_EQ(f.levels, c.levels) << c.text;
    EXPECT_EQ(f.hybrid, c.hybrid) << c.text;
  }
  for (const char* bad : {"scalapack:1", "scalapack/2", "ring:9", "ring/0", "ring/65", "ring/", "ring/2x", "ring:/2",
                          "ring/2:1", "ringo/2"})
    EXPECT_FALSE(parse_forced(bad, &f)) << bad;
  // Algorithms of mmbench's own runs are not members.
  EXPECT_FALSE(parse_forced("pdgemm", &f));
  EXPECT_FALSE(parse_forced("dgemm", &f));
  EXPECT_FALSE(parse_forced("strassen-q7+pdgemm", &f));
  EXPECT_TRUE(parse_forced("strassen-q8+dgemm", &f));
  // The opt-in, and its bad value.
  EXPECT_FALSE(settings({}).hybrid);
  EXPECT_TRUE(settings({{"MMBENCH_DISPATCH_HYBRID", "1"}}).hybrid);
  const DispatchSettings bad = settings({{"MMBENCH_DISPATCH_HYBRID", "2"}, {"MMBENCH_DISPATCH_FORCE", "ring/0"}});
  EXPECT_FALSE(bad.hybrid);
  EXPECT_TRUE(bad.force.empty());
  ASSERT_EQ(bad.problems.size(), 2u);
  EXPECT_NE(bad.problems[0].find("MMBENCH_DISPATCH_HYBRID='2'"), std::string::npos) << bad.problems[0];
  EXPECT_NE(bad.problems[1].find("/t for a ranks x threads hybrid"), std::string::npos) << bad.problems[1];
}

TEST(Decision, ThresholdOffSwitchAndNoProfileGoToScalapack) {
  const MachineFacts m = opteron();
  EXPECT_NE(call_reason(square_call(128), 1, 2, settings({})).find("MMBENCH_DISPATCH_MIN_DIM"), std::string::npos);
  EXPECT_EQ(call_reason(square_call(128), 1, 2, settings({{"MMBENCH_DISPATCH_MIN_DIM", "0"}})), "");
  EXPECT_NE(call_reason(square_call(4096), 1, 2, settings({{"MMBENCH_DISPATCH", "off"}})).find("dispatch off"),
            std::string::npos);
  EXPECT_EQ(call_reason(square_call(4096), 1, 2, settings({})), "");
  Decision d = decide(square_call(4096), 1, 2, settings({}), MachineFacts{});
  EXPECT_TRUE(d.scalapack());
  EXPECT_NE(d.reason.find("no machine profile"), std::string::npos);
  EXPECT_EQ(d.choice.label, "scalapack lb=32");
}

TEST(Decision, ForcedMemberAndTheMemoryCap) {
  const MachineFacts m = opteron();
  Decision d = decide(square_call(4096), 1, 2, settings({{"MMBENCH_DISPATCH_FORCE", "ring"}}), m);
  ASSERT_FALSE(d.scalapack());
  EXPECT_EQ(d.choice.label, "ring");
  // ring at n = 4096 on 2 ranks holds well over 100 MiB per rank.
  d = decide(square_call(4096), 1, 2, settings({{"MMBENCH_DISPATCH_FORCE", "ring"}, {"MMBENCH_DISPATCH_MAX_MB", "100"}}),
             m);
  EXPECT_TRUE(d.scalapack());
  EXPECT_NE(d.reason.find("MMBENCH_DISPATCH_MAX_MB"), std::string::npos);
  d = decide(square_call(4096), 1, 2, settings({{"MMBENCH_DISPATCH_FORCE", "strassen-q8+tpmm"}}), m);
  EXPECT_TRUE(d.scalapack());
  EXPECT_NE(d.reason.find("does not apply"), std::string::npos);
}

// Ring's chunks as `run --ring-chunks auto` takes them: where the
// profile's overlap hides nothing of the shift, a step's multiply cut in
// four only runs narrower, so the member runs in one chunk and says so;
// where the whole shift hides, it keeps the chunks.
TEST(Decision, RingTakesOneChunkWhereTheOverlapHidesNothing) {
  MachineFacts m = opteron();
  const DispatchSettings forced = settings({{"MMBENCH_DISPATCH_FORCE", "ring:2"}});
  m.params.shift_overlap = model::OverlapCurve::flat(0.0);
  Decision d = decide(square_call(4096), 1, 2, forced, m);
  ASSERT_FALSE(d.scalapack()) << d.reason;
  EXPECT_NE(d.choice.label.find("chunks=1"), std::string::npos) << d.choice.label;
  EXPECT_EQ(d.choice.opt.ring_chunks, 1);
  m.params.shift_overlap = model::OverlapCurve::flat(1.0);
  d = decide(square_call(4096), 1, 2, forced, m);
  ASSERT_FALSE(d.scalapack()) << d.reason;
  EXPECT_EQ(d.choice.label.find("chunks="), std::string::npos) << d.choice.label;
  EXPECT_EQ(d.choice.opt.ring_chunks, 0);
}

TEST(Decision, TheModelPicksWithItsMarginAndTheSameEveryTime) {
  const MachineFacts m = opteron();
  const PdgemmCall x = square_call(8192);
  const Decision d = decide(x, 2, 2, settings({}), m);
  ASSERT_GT(d.t_scalapack, 0);
  std::printf("n = 8192 on 2 x 2, the thesis profile: %s (%s)\n", d.choice.label.c_str(), d.reason.c_str());
  if (d.scalapack()) {
    EXPECT_NE(d.reason.find("needs 1.10x"), std::string::npos) << d.reason;
  } else {
    EXPECT_LT(d.choice.total() * kDispatchMargin, d.t_scalapack) << d.reason;
    EXPECT_GT(d.choice.t_convert, 0);
  }
  const Decision again = decide(x, 2, 2, settings({}), m);
  EXPECT_EQ(again.choice.label, d.choice.label);
  EXPECT_EQ(again.reason, d.reason);
  // Strassen members only with the opt-in.
  const Decision fast = decide(x, 2, 2, settings({{"MMBENCH_DISPATCH_STRASSEN", "1"}}), m);
  EXPECT_LE(fast.choice.total(), d.choice.total() + 1e-12);
  EXPECT_EQ(d.choice.label.find("L="), std::string::npos);
  EXPECT_EQ(d.choice.label.find("strassen"), std::string::npos);
}

namespace {
// Nodes of 16 cores whose threads scale at 90 % up to 16, 1 ms a message:
// at n = 512 on 16 processes ring's 15 shifts cost 15 ms against 1.7 ms of
// computing each, as 4 processes x 4 threads 3 (tests/unit/test_hybrid.cpp
// ranks the same machine).
MachineFacts threads_scale_network_slow() {
  MachineFacts m;
  m.has_model = true;
  m.cores_per_node = 16;
  m.params.latency_s = 1e-3;
  m.params.tau = 1e9;
  m.params.t_op = 1e-10;
  m.params.thread_efficiency = 0.9;
  m.params.thread_efficiency_threads = 16;
  return m;
}
}  // namespace

TEST(Decision, HybridsOnlyWithTheOptInAndMeasuredThreads) {
  const MachineFacts m = threads_scale_network_slow();
  const DispatchSettings on = settings({{"MMBENCH_DISPATCH_HYBRID", "1"}});
  // p = 8: t = 2 and 4 (t = 8 would leave one computing process).
  EXPECT_EQ(hybrid_choices(8, on, m), (std::vector<int>{2, 4}));
  EXPECT_EQ(hybrid_choices(6, on, m), (std::vector<int>{2, 3}));
  EXPECT_TRUE(hybrid_choices(8, settings({}), m).empty());  // no opt-in
  MachineFacts unmeasured = m;                              // threads never measured
  unmeasured.params.thread_efficiency = 0;
  EXPECT_TRUE(hybrid_choices(8, on, unmeasured).empty());
  MachineFacts small = m;  // 2 cores a node: t = 2 at most
  small.cores_per_node = 2;
  EXPECT_EQ(hybrid_choices(8, on, small), (std::vector<int>{2}));
  EXPECT_TRUE(hybrid_choices(8, on, MachineFacts{}).empty());  // no model

  const PdgemmCall x = square_call(512);
  const Decision plain = decide(x, 4, 4, settings({}), m);
  const Decision hybrid = decide(x, 4, 4, on, m);
  std::printf("n = 512 on 4 x 4, threads scaling, 1 ms a message: %s; with hybrids: %s (%s)\n",
              plain.choice.label.c_str(), hybrid.choice.label.c_str(), hybrid.reason.c_str());
  EXPECT_EQ(plain.choice.opt.hybrid, 1);
  EXPECT_EQ(plain.choice.label.find("hybrid"), std::string::npos);
  ASSERT_FALSE(hybrid.scalapack()) << hybrid.reason;
  EXPECT_GT(hybrid.choice.opt.hybrid, 1) << hybrid.choice.label;
  EXPECT_NE(hybrid.choice.label.find("hybrid=" + std::to_string(hybrid.choice.opt.hybrid)), std::string::npos);
  EXPECT_LT(hybrid.choice.total(), plain.choice.total());
  // Its price holds the idle processes' wake-up.
  EXPECT_GE(hybrid.choice.t_convert, kHybridWakeSeconds);
}

TEST(Decision, ForcedHybrid) {
  const MachineFacts m = threads_scale_network_slow();
  Decision d = decide(square_call(4096), 2, 2, settings({{"MMBENCH_DISPATCH_FORCE", "tpmm/2"}}), m);
  ASSERT_FALSE(d.scalapack()) << d.reason;
  EXPECT_EQ(d.choice.opt.hybrid, 2);
  EXPECT_EQ(d.choice.label, "tpmm hybrid=2");
  // Forced, it needs no opt-in, but it must apply: 3 does not divide 4.
  d = decide(square_call(4096), 2, 2, settings({{"MMBENCH_DISPATCH_FORCE", "ring/3"}}), m);
  EXPECT_TRUE(d.scalapack());
  EXPECT_NE(d.reason.find("does not apply"), std::string::npos) << d.reason;
}

TEST(Decision, APreparationIsPaidBeforeItIsMade) {
  Decision d;
  d.choice.algo = reinterpret_cast<const algos::Algorithm*>(&d);  // a member (never dereferenced)
  d.t_scalapack = 10.0;
  d.choice.t_run = 8.0;        // saves 10 - 1.1 * 8 = 1.2 s a call
  d.choice.t_prepare = 0.5;    // 1.1 * 0.5 = 0.55 s: pays on the first call
  EXPECT_EQ(calls_to_pay(d), 1);
  d.choice.t_prepare = 3.0;    // 3.3 s: pays once 3 calls have saved 3.6 s
  EXPECT_EQ(calls_to_pay(d), 3);
  d.choice.t_run = 9.5;        // no saving once the margin is counted: never
  EXPECT_EQ(calls_to_pay(d), 0);
  Decision s;                  // ScaLAPACK: nothing to prepare
  EXPECT_EQ(calls_to_pay(s), 0);
  // Fresh memory at the profile's first-touch rate; without one, at a
  // quarter of its add bandwidth; without either (the thesis profile), free.
  MachineFacts m = opteron();
  ASSERT_EQ(m.params.first_touch_bytes_per_s, 0.0);
  ASSERT_EQ(m.params.add_bytes_per_s, 0.0);
  EXPECT_DOUBLE_EQ(preparation_time(1e9, m.params), 0.0);
  m.params.add_bytes_per_s = 8e9;
  EXPECT_DOUBLE_EQ(preparation_time(1e9, m.params), 0.5);
  m.params.first_touch_bytes_per_s = 2e9;
  EXPECT_DOUBLE_EQ(preparation_time(1e9, m.params), 0.5);
  // Memory the pool holds is only rewritten, at the add bandwidth: 0.6 GB
  // pooled of 1 GB = 0.4 / 2 + 0.6 / 8 s; more pooled than needed counts as
  // what is needed.
  EXPECT_DOUBLE_EQ(preparation_time(1e9, m.params, 0.6e9), 0.2 + 0.075);
  EXPECT_DOUBLE_EQ(preparation_time(1e9, m.params, 5e9), 0.125);
  // The message buffers: the share of A, B and C that changes owner, both ways.
  EXPECT_DOUBLE_EQ(first_message_bytes(square_call(100), 1), 0.0);
  EXPECT_DOUBLE_EQ(first_message_bytes(square_call(100), 2), 2 * 8 * 3e4 / 2 * 0.5);
}

TEST(Conversion, PriceGrowsWithTransposesAndRanks) {
  const MachineFacts m = opteron();
  const double plain = conversion_time(square_call(2048), 4, m.params);
  EXPECT_GT(plain, 0);
  EXPECT_GT(conversion_time(square_call(2048, 64, true), 4, m.params), plain);
  EXPECT_GT(conversion_time(square_call(2048), 16, m.params), conversion_time(square_call(2048), 1, m.params));
  // Scratch: C's share, plus a transposed A's.
  EXPECT_DOUBLE_EQ(conversion_doubles(square_call(100), 4), 100.0 * 100 / 4);
  EXPECT_DOUBLE_EQ(conversion_doubles(square_call(100, 64, true), 4), 2 * 100.0 * 100 / 4);
  // A hybrid of 2 gathers each pair's share on one process: its messages,
  // unpacking, transposed scratch and message buffers double; C's scratch
  // in the caller's layout does not.
  EXPECT_GT(conversion_time(square_call(2048), 4, m.params, 2), plain);
  EXPECT_DOUBLE_EQ(conversion_time(square_call(2048), 4, m.params, 1), plain);
  EXPECT_DOUBLE_EQ(conversion_doubles(square_call(100, 64, true), 4, 2), (1 + 2) * 100.0 * 100 / 4);
  EXPECT_DOUBLE_EQ(first_message_bytes(square_call(100), 4, 2), 2 * first_message_bytes(square_call(100), 4));
}

TEST(Census, RowsReadBackAndSummarize) {
  const std::string path = ::testing::TempDir() + "/census_test.csv";
  std::filesystem::remove(path);
  {
    CsvFile f(path, census_columns());
    for (int i = 1; i <= 3; ++i) {
      CensusRecord r;
      r.call = i;
      r.m = r.n = r.k = i == 3 ? 64 : 4096;
      r.pr = 1, r.pc = 2;
      r.blocking_a = r.blocking_b = r.blocking_c = "64x64+0+0";
      r.choice = i == 3 ? "scalapack lb=32" : "ring";
      r.reason = i == 3 ? "min(M, N, K) = 64 < 256 (MMBENCH_DISPATCH_MIN_DIM)" : "model: ring";
      r.t_pred = 1.0;
      r.t_measured = i == 3 ? 0.001 : 2.0;
      f.append(census_cells(r));
    }
  }
  const std::vector<CensusRecord> rs = read_census(path);
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[2].m, 64);
  EXPECT_EQ(rs[0].pc, 2);
  EXPECT_EQ(rs[0].choice, "ring");
  const std::string s = census_summary(rs, 10);
  EXPECT_NE(s.find("3 PDGEMM calls"), std::string::npos) << s;
  EXPECT_NE(s.find("2 dispatched"), std::string::npos) << s;
  EXPECT_NE(s.find("4096x4096x4096"), std::string::npos) << s;
  EXPECT_LT(s.find("4096x4096x4096"), s.find("64x64x64")) << s;  // by time
  EXPECT_THROW(read_census(std::string(MMBENCH_SOURCE_DIR) + "/CHANGELOG.md"), std::runtime_error);
}

TEST(Census, EveryHeaderEverWrittenReadsBack) {
  // A census committed before t_prepare and t_convert existed.
  const std::string old = std::string(MMBENCH_SOURCE_DIR) +
                          "/results/xeon16-device-20261126/dispatch-prescott/"
                          "dispatch-vm-20261126T151420Z-census-classical-n8192-r2.csv";
  const std::vector<CensusRecord> rs = read_census(old);
  ASSERT_FALSE(rs.empty());
  EXPECT_GT(rs[0].t_measured, 0);
  EXPECT_EQ(rs[0].t_prepare, 0);  // not in the file: empty
  // A header that is not one of ours, or ours cut before t_measured: refused.
  const std::string cut = testing::TempDir() + "/cut-census.csv";
  std::ofstream(cut) << "call,transa,transb,m,n,k\n1,N,N,1,1,1\n";
  EXPECT_THROW(read_census(cut), std::runtime_error);
}
