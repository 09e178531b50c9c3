// Two results files, configuration by configuration (`mmbench compare A B`,
// docs/compare.md): which configurations both have, how their times
// compare (B/A, > 1 = B slower), whether the difference is significant and
// which test said so. Pure: no MPI, no printing; unit-tested.
//
// A configuration is the columns that say what ran (comparison_key_columns):
// everything else in a row is measured (times, rates, residual, peak
// memory), a consequence of the key (local_levels_applied, the cut-off
// column of a combination) or about the run (timestamp, host, reps, seeds),
// and may differ between the two files. A file that repeats a configuration
// (runs appended to one CSV) is read for its last row of it.
//
// The method per configuration, the best the two rows allow:
//   paired        both rows have per-round times (t_rounds) from one
//                 interleaved run (same host, order seed and start): the
//                 ratio per round, its median with the order-statistics
//                 interval, and the sign test's p
//   mann-whitney  both have per-round times from different runs: the
//                 Mann-Whitney U test's p and the Hodges-Lehmann ratio with
//                 its interval (core/stats/mann_whitney.hpp)
//   medians       a row has no rounds (files older than t_rounds): the
//                 ratio of the medians; significant when the two medians'
//                 intervals (t_median_lo/hi, else t_min/t_max) do not
//                 overlap AND disjointness has probability <= alpha under
//                 no change (paired_stats.hpp, disjoint_probability, from
//                 each row's reps: 3 against 3 is 0.10, 5 against 5 0.008),
//                 which is its p; the interval of the ratio from their ends
// Where no outcome of the method could reach alpha (the sign test with 5
// or fewer pairs, the U test with 3 against 3, disjoint intervals as
// likely as 0.10), the line says so (too_few_rounds): neither changed nor
// unchanged can be told. docs/compare.md has the details.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/result_file.hpp"

namespace mmbench::results {

// The columns that identify a configuration, in the order of its label.
const std::vector<std::string>& comparison_key_columns();

// One side of a compared line, read from a row.
struct Measurement {
  std::string status, reason;
  double t_median = 0;
  std::optional<double> lo, hi;  // the median's interval (or [t_min, t_max]); absent in neither
  std::optional<double> gflops;  // gflops_total
  std::vector<double> rounds;    // t_rounds, in round order
  int reps = 0;                  // rounds measured (0: not in the file)
  int interval_rank = 0;         // [lo, hi] is [x(j), x(reps+1-j)] (1: min and max; 0: unknown)
  std::string run;               // the run that measured it ("" unknown)
  bool ok() const { return status == "ok"; }
};

enum class Method { none, paired, mann_whitney, medians };
std::string to_string(Method m);

struct ComparedLine {
  enum class Flag {
    none,         // no significant change beyond the threshold
    slower,       // B significantly slower by more than the threshold (a regression)
    faster,       // B significantly faster by more than the threshold
    failed_in_b,  // measured in A, failed in B (counts as a regression)
    unmeasured,   // in both files, not measured (ok) in one or both
    only_a,
    only_b,
  };
  std::string label;  // "pdgemm p=4 thr=1 n=1024 grid=2x2 nb=64 lb=32"
  std::optional<Measurement> a, b;
  Method method = Method::none;
  double ratio = 0, lo = 0, hi = 0;  // B/A of the times and its interval (with a method)
  double coverage = 0;               // the interval's coverage; 0 = not known (medians)
  std::optional<double> p_value;     // every method, where it has one
  bool significant = false;
  bool too_few_rounds = false;  // no outcome of the method could reach alpha
  Flag flag = Flag::none;
  bool regression() const { return flag == Flag::slower || flag == Flag::failed_in_b; }
};

struct CompareSettings {
  double threshold = 0.05;  // a flagged change is larger than this, relative (0.05 = 5 %)
  double alpha = 0.05;      // significance level of the tests
};

struct Comparison {
  std::vector<ComparedLine> lines;     // A's configurations in A's order, then those only in B in B's
  int repeated_a = 0, repeated_b = 0;  // rows superseded by a later row of the same configuration
};

Comparison compare_results(const ResultFile& a, const ResultFile& b, const CompareSettings& s);

}  // namespace mmbench::results
