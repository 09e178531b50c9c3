// compare's matching and its three methods on hand-made rows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "results/comparison.hpp"
#include "core/stats/paired_stats.hpp"

using namespace mmbench::results;

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
  ra["t_median_lo"] = "0.9", ra["t_median_hi"] = "1.1", ra["reps"] = "5";
  rb["t_median_lo"] = "1.4", rb["t_median_hi"] = "1.6", rb["reps"] = "5";
  ComparedLine l = compare_results(file({ra}), file({rb}), {}).lines[0];
  EXPECT_EQ(l.method, Method::medians);
  EXPECT_DOUBLE_EQ(l.ratio, 1.5);
  EXPECT_DOUBLE_EQ(l.lo, 1.4 / 1.1);
  EXPECT_DOUBLE_EQ(l.hi, 1.6 / 0.9);
  EXPECT_TRUE(l.significant);  // disjoint 5-round ranges: probability 2 / C(10, 5) with no change
  ASSERT_TRUE(l.p_value);
  EXPECT_NEAR(*l.p_value, 2.0 / 252, 1e-12);
  EXPECT_FALSE(l.too_few_rounds);
  // Overlapping intervals: not significant.
  rb["t_median_lo"] = "1.05";
  EXPECT_FALSE(compare_results(file({ra}), file({rb}), {}).lines[0].significant);
  // 3 rounds each: disjoint ranges happen 1 time in 10 with no change.
  rb["t_median_lo"] = "1.4";
  ra["reps"] = rb["reps"] = "3";
  l = compare_results(file({ra}), file({rb}), {}).lines[0];
  EXPECT_FALSE(l.significant);
  EXPECT_TRUE(l.too_few_rounds);
  EXPECT_NEAR(*l.p_value, 0.1, 1e-12);
  // Rounds unknown: the level of disjointness is unknown.
  ra.erase("reps");
  l = compare_results(file({ra}), file({rb}), {}).lines[0];
  EXPECT_FALSE(l.significant);
  EXPECT_TRUE(l.too_few_rounds);
}

// disjoint_probability against every interleaving of the two sorted samples.
TEST(Comparison, DisjointProbabilityCountsInterleavings) {
  for (int na = 1; na <= 7; ++na)
    for (int nb = 1; nb <= 7; ++nb)
      for (int ja = 1; 2 * ja <= na + 1; ++ja)
        for (int jb = 1; 2 * jb <= nb + 1; ++jb) {
          long disjoint = 0, all = 0;
          for (unsigned mask = 0; mask < (1u << (na + nb)); ++mask) {
            if (__builtin_popcount(mask) != na) continue;  // bit set: an X at that place
            ++all;
            std::vector<int> xs, ys;
            for (int i = 0; i < na + nb; ++i) (mask >> i & 1 ? xs : ys).push_back(i);
            disjoint += xs[na - ja] < ys[jb - 1] || ys[nb - jb] < xs[ja - 1];
          }
          ASSERT_NEAR(mmbench::disjoint_probability(na, ja, nb, jb), double(disjoint) / all, 1e-12)
              << na << " " << ja << " " << nb << " " << jb;
        }
}

namespace {

// One file pair per seed: every configuration's rounds drawn from one
// lognormal distribution, B's scaled by `shift`; how often compare says
// significant. `paired`: both files from one run (the paired method).
double flag_rate(int reps, double shift, bool rounds_in_files, bool paired, int seeds = 3000) {
  std::mt19937_64 rng(12345);
  std::lognormal_distribution<double> noise(0.0, 0.05);
  int significant = 0;
  for (int s = 0; s < seeds; ++s) {
    auto draw = [&](double scale) {
      std::vector<double> t(static_cast<std::size_t>(reps));
      for (double& x : t) x = scale * noise(rng);
      return t;
    };
    auto make = [&](const std::vector<double>& t) {
      const mmbench::MedianInterval m = mmbench::median_interval(t);
      std::string rounds;
      for (double x : t) {
        if (!rounds.empty()) rounds += ';';
        rounds += std::to_string(x);
      }
      auto r = row("ring", std::to_string(m.median), rounds_in_files ? rounds : "");
      r["t_median_lo"] = std::to_string(m.lo), r["t_median_hi"] = std::to_string(m.hi);
      r["reps"] = std::to_string(reps);
      return r;
    };
    const std::string run = paired ? "vm 7 2026-01-01T00:00:00Z" : "";
    ResultFile a = file({make(draw(1.0))}, run), b = file({make(draw(shift))}, run);
    if (!paired) b.run_of_seed["7"] = "vm 7 2026-01-02T00:00:00Z";
    significant += compare_results(a, b, {}).lines[0].significant;
  }
  return double(significant) / seeds;
}

}  // namespace

// With no change, each method flags at most alpha = 0.05 of the pairs (a
// binomial margin of 3 standard deviations over 3000 seeds: 0.012); a clear
// shift (50 %, against 5 % noise) it finds where its rounds allow. (A 20 %
// shift with 5 rounds of 5 % noise: the medians method found 91 % of them.)
TEST(Comparison, FlagsNoiseAtMostAtItsLevelAndFindsAShift) {
  const double margin = 3 * std::sqrt(0.05 * 0.95 / 3000);
  for (int reps : {3, 5, 7}) {
    const double medians = flag_rate(reps, 1.0, false, false);
    std::printf("no change, %d rounds: medians %.4f", reps, medians);
    EXPECT_LE(medians, 0.05 + margin) << "medians, " << reps << " rounds";
    const double mw = flag_rate(reps, 1.0, true, false), sign = flag_rate(reps, 1.0, true, true);
    std::printf(", mann-whitney %.4f, paired %.4f\n", mw, sign);
    EXPECT_LE(mw, 0.05 + margin) << "mann-whitney, " << reps << " rounds";
    EXPECT_LE(sign, 0.05 + margin) << "paired, " << reps << " rounds";
  }
  EXPECT_GT(flag_rate(5, 1.5, false, false), 0.95);  // medians: disjoint ranges, p = 0.008
  EXPECT_GT(flag_rate(5, 1.5, true, false), 0.95);   // U test: 5 against 5 reaches 0.008
  EXPECT_GT(flag_rate(7, 1.5, true, true), 0.95);    // sign test: 7 pairs reach 0.016
  EXPECT_EQ(flag_rate(3, 1.5, false, false, 200), 0.0);  // 3 rounds: too few to tell, never flagged
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
