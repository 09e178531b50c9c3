// compare's matching and its three methods on hand-made rows.
#include <gtest/gtest.h>

#include <cmath>

#include "cli/comparison.hpp"

using namespace mmbench::cli;

namespace {
std::map<std::string, std::string> row(const std::string& algo, const std::string& t_median,
                                       const std::string& rounds = "", const std::string& seed = "7") {
  return {{"algo", algo}, {"p", "2"},       {"threads", "1"},      {"m", "256"},        {"n", "256"},
          {"k", "256"},   {"status", "ok"}, {"t_median", t_median}, {"t_rounds", rounds}, {"order_seed", seed},
          {"t_median_lo", t_median}, {"t_median_hi", t_median}, {"gflops_total", "1.0"}};
}
ResultFile file(std::vector<std::map<std::string, std::string>> rows, const std::string& run = "") {
  ResultFile f;
  f.path = std::string(1, 'x');  // not = "x": GCC 12 warns falsely (-Wrestrict) on that assignment
  f.format = std::string("csv");
  f.rows = std::move(rows);
  if (!run.empty()) f.run_of_seed["7"] = run;
  return f;
}
}  // namespace

TEST(Comparison, MannWhitneyFindsARegressionAndIgnoresNoise) {
  // ring: B 20 % slower in every round; dgemm: the same six times, shuffled.
  ResultFile a = file({row("ring", "1.0", "1.00;1.01;0.99;1.02;0.98;1.03"),
                       row("dgemm", "1.0", "1.00;1.01;0.99;1.02;0.98;1.00")});
  ResultFile b = file({row("ring", "1.2", "1.20;1.21;1.19;1.22;1.18;1.23"),
                       row("dgemm", "1.0", "1.02;0.98;1.00;1.00;0.99;1.01")});
  const Comparison c = compare_results(a, b, {});
  ASSERT_EQ(c.lines.size(), 2u);
  const ComparedLine& ring = c.lines[0];
  EXPECT_EQ(ring.label, "ring p=2 thr=1 n=256");
  EXPECT_EQ(ring.method, Method::mann_whitney);
  EXPECT_NEAR(*ring.p_value, 2.0 / 924, 1e-12);  // fully separated 6 vs 6: 2 / C(12, 6)
  EXPECT_NEAR(ring.ratio, 1.2, 0.01);
  EXPECT_EQ(ring.flag, ComparedLine::Flag::slower);
  EXPECT_TRUE(ring.regression());
  const ComparedLine& dgemm = c.lines[1];
  EXPECT_FALSE(dgemm.significant);
  EXPECT_EQ(dgemm.flag, ComparedLine::Flag::none);
  // A threshold above the change: significant, not flagged.
  CompareSettings loose;
  loose.threshold = 0.25;
  EXPECT_EQ(compare_results(a, b, loose).lines[0].flag, ComparedLine::Flag::none);
  EXPECT_TRUE(compare_results(a, b, loose).lines[0].significant);
}

TEST(Comparison, PairedOnlyWithinOneRun) {
  // Same run (host, seed, start): per-round ratios 1.1 in all 6 rounds;
  // sign test p = 2 / 2^6.
  ResultFile a = file({row("ring", "1.0", "1;2;3;4;5;6")}, "vm 7 2026-01-01T00:00:00Z");
  ResultFile b = file({row("ring", "1.0", "1.1;2.2;3.3;4.4;5.5;6.6")}, "vm 7 2026-01-01T00:00:00Z");
  ComparedLine l = compare_results(a, b, {}).lines[0];
  EXPECT_EQ(l.method, Method::paired);
  EXPECT_NEAR(l.ratio, 1.1, 1e-9);
  EXPECT_NEAR(*l.p_value, 2.0 / 64, 1e-12);
  EXPECT_EQ(l.flag, ComparedLine::Flag::slower);
  // Another run with the same seed: not paired.
  b.run_of_seed["7"] = "vm 7 2026-01-02T00:00:00Z";
  EXPECT_EQ(compare_results(a, b, {}).lines[0].method, Method::mann_whitney);
}

TEST(Comparison, MediansWithoutRounds) {
  auto ra = row("tpmm", "1.0"), rb = row("tpmm", "1.5");
  ra["t_median_lo"] = "0.9", ra["t_median_hi"] = "1.1";
  rb["t_median_lo"] = "1.4", rb["t_median_hi"] = "1.6";
  ComparedLine l = compare_results(file({ra}), file({rb}), {}).lines[0];
  EXPECT_EQ(l.method, Method::medians);
  EXPECT_DOUBLE_EQ(l.ratio, 1.5);
  EXPECT_DOUBLE_EQ(l.lo, 1.4 / 1.1);
  EXPECT_DOUBLE_EQ(l.hi, 1.6 / 0.9);
  EXPECT_TRUE(l.significant);
  EXPECT_FALSE(l.p_value);
  // Overlapping intervals: not significant.
  rb["t_median_lo"] = "1.05";
  EXPECT_FALSE(compare_results(file({ra}), file({rb}), {}).lines[0].significant);
}

TEST(Comparison, KeyPresenceAndRepeats) {
  auto packed = row("dgemm", "1.0");
  packed["local_gemm"] = "packed";
  auto old = row("dgemm", "1.0");  // a file from before local_gemm: BLAS
  old.erase("local_gemm");
  auto blas = row("dgemm", "1.0");
  blas["local_gemm"] = "blas";
  auto failed = row("ring", "");
  failed["status"] = "failed";
  failed["reason"] = "residual above limit";
  ResultFile a = file({old, row("ring", "1.0"), row("tpmm", "2.0"), row("tpmm", "1.0")});
  ResultFile b = file({blas, packed, failed});
  const Comparison c = compare_results(a, b, {});
  EXPECT_EQ(c.repeated_a, 1);  // tpmm twice: the last row counts
  ASSERT_EQ(c.lines.size(), 4u);
  EXPECT_EQ(c.lines[0].label, "dgemm p=2 thr=1 n=256");
  EXPECT_EQ(c.lines[0].method, Method::medians);  // old blas row matched the blas row
  EXPECT_EQ(c.lines[1].flag, ComparedLine::Flag::failed_in_b);
  EXPECT_TRUE(c.lines[1].regression());
  EXPECT_EQ(c.lines[2].flag, ComparedLine::Flag::only_a);
  EXPECT_DOUBLE_EQ(c.lines[2].a->t_median, 1.0);
  EXPECT_EQ(c.lines[3].flag, ComparedLine::Flag::only_b);
  EXPECT_EQ(c.lines[3].label, "dgemm p=2 thr=1 n=256 gemm=packed");
}
