// The typed result row (results/result_row.hpp): cells() is the only place that
// turns it into the CSV's text, so its formats are pinned here, and every
// cell it writes is a column of results_schema.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "results/result_row.hpp"
#include "results/results_schema.hpp"

using mmbench::results::ResultRow;

namespace {

// GCC 12 warns (-Wrestrict) inside std::string's assignment of a short
// literal once it is inlined here: a known false positive of its memcpy
// overlap check (GCC bug 105651), not an overlap.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
ResultRow identity() {
  ResultRow r;
  r.timestamp = "2026-11-23T18:00:00Z";
  r.host = "vm";
  r.p = 2;
  r.threads = 1;
  r.algo = "ring";
  r.pb = {256, 512, 384};
  r.warmup = 1;
  r.reps_asked = "3";
  r.order_seed = 7;
  r.local_levels = "0";
  r.selected_by = "user";
  return r;
}
#pragma GCC diagnostic pop

ResultRow measured() {
  ResultRow r = identity();
  r.described = {{"grid", "1x2"}, {"local_levels_applied", "0"}};
  r.reps = 3;
  ResultRow::Timing t;
  t.times = {0.5, 0.625, 0.75};
  t.interval.median = 0.625;
  t.interval.lo = 0.5;
  t.interval.hi = 0.75;
  t.interval.coverage = 0.75;
  t.cv = 0.2;
  t.peak_mem_mb = 12.345;
  t.mflops_per_proc = 1234.56;
  t.gflops_total = 2.4691;
  r.timing = t;
  r.verification = ResultRow::Verification{1.5e-16, 2.25e-12};
  return r;
}

}  // namespace

TEST(ResultRow, EveryCellIsAColumn) {
  ResultRow r = measured();
  r.peer_ratio = mmbench::MedianInterval{1.1, 1.0, 1.2, 0.75, 3};
  r.predicted = mmbench::results::Predicted{0.5, 0.75};
  const auto& cols = mmbench::results::results_columns();
  for (const auto& [name, value] : r.cells())
    EXPECT_NE(std::find(cols.begin(), cols.end(), name), cols.end()) << name << " is not a CSV column";
}

TEST(ResultRow, MeasuredCellsKeepTheirFormats) {
  ResultRow r = measured();
  r.peer_ratio = mmbench::MedianInterval{1.1, 1.0, 1.2, 0.75, 3};
  r.predicted = mmbench::results::Predicted{0.5, 0.75};
  const auto c = r.cells();
  // Errors are relative to the measured median 0.625: (0.5 - 0.625) / 0.625 = -0.2.
  const std::pair<const char*, const char*> expected[] = {
      {"m", "256"},          {"n", "512"},
      {"k", "384"},          {"grid", "1x2"},  // the plan's own column
      {"t_median", "0.625"}, {"t_median_lo", "0.5"},
      {"ci_coverage", "0.7500"}, {"cv", "0.2000"},
      {"noisy", "yes"},      // cv 0.2 > the noisy threshold
      {"peak_mem_mb", "12.3"}, {"mflops_per_proc", "1234.6"},
      {"gflops_total", "2.469"}, {"residual", "1.5e-16"},
      {"residual_limit", "2.25e-12"}, {"verified", "yes"},
      {"status", "ok"},      {"peer_ratio", "1.1000"},
      {"peer_ratio_lo", "1.0000"}, {"pred_paper", "0.5"},
      {"err_paper", "-0.2000"}, {"err_refined", "0.2000"}};
  for (const auto& [column, text] : expected) EXPECT_EQ(c.at(column), text) << column;
}

TEST(ResultRow, FailedVerificationSaysNo) {
  ResultRow r = measured();
  r.verification = ResultRow::Verification{1e-3, 2.25e-12};  // what add_measurement marks failed
  r.status = ResultRow::Status::failed;
  r.reason = "residual above limit";
  const auto c = r.cells();
  EXPECT_EQ(c.at("verified"), "no");
  EXPECT_EQ(c.at("status"), "failed");
  EXPECT_EQ(c.at("reason"), "residual above limit");
}

TEST(ResultRow, UnverifiedAndUnmeasuredRows) {
  ResultRow skipped = measured();
  skipped.verification.reset();
  EXPECT_EQ(skipped.cells().at("verified"), "skipped");
  EXPECT_EQ(skipped.cells().count("residual"), 0u);

  ResultRow na = identity();
  na.status = ResultRow::Status::not_applicable;
  na.reason = "p = 3 is not a power of 7";
  na.predicted = mmbench::results::Predicted{0.5, 0.75};  // a prediction without a time has no error
  const auto c = na.cells();
  EXPECT_EQ(c.at("status"), "not-applicable");
  EXPECT_EQ(c.at("reason"), "p = 3 is not a power of 7");
  for (const char* col : {"t_median", "verified", "reps", "peer_ratio", "err_paper"})
    EXPECT_EQ(c.count(col), 0u) << col;
}
