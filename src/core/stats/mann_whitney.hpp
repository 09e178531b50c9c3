// Two independent samples of times (one configuration measured in two
// separate runs) compared without assuming a distribution: the
// Mann-Whitney U test (Wilcoxon rank-sum), the test Google Benchmark's
// tools/compare.py applies to two runs' repetitions, and the ratio y/x
// with the confidence interval that goes with it (Hodges-Lehmann).
//
// Why not pair them: pairing (core/stats/paired_stats.hpp) is right only when
// the two samples of a round ran in the same minute of the machine, i.e.
// in one interleaved run. Two runs at different times share no rounds, so
// their samples are treated as two independent groups.
//
// U of y against x counts the pairs (x_i, y_j) with y_j > x_i (a tie
// counts 1/2); under "no difference" it lies around n1*n2/2. Worked example,
// x = {1, 2, 3}, y = {4, 5, 6}: every y is larger, U = 9 = n1*n2, the most
// extreme of the C(6, 3) = 20 equally likely orderings on that side, so the
// two-sided p = 2 * 1/20 = 0.1: three rounds against three can never be
// significant at 5 % (four against four can: p = 2/70).
#pragma once

#include <vector>

namespace mmbench {

struct RankSumTest {
  double u = 0;        // U of y against x (see above)
  double p_value = 1;  // two-sided
  bool exact = false;  // exact null distribution (no ties, small samples), else the normal approximation
};

// Exact when there are no ties and n1 * n2 <= kExactMaxPairs; otherwise
// the normal approximation with tie correction and continuity correction.
// Throws std::invalid_argument when either sample is empty.
RankSumTest mann_whitney(const std::vector<double>& x, const std::vector<double>& y);
inline constexpr int kExactMaxPairs = 2500;

// P(U <= u) for samples of n1 and n2 values without ties when both come
// from one distribution (every ordering of the n1 + n2 values equally
// likely). Worked example, n1 = n2 = 2: U = 0,1,2,3,4 in 1,1,2,1,1 of the 6
// orderings, so P(U <= 1) = 2/6.
double mann_whitney_cdf(int n1, int n2, int u);

// The ratio y/x: median of all n1*n2 ratios y_j / x_i (the Hodges-Lehmann
// estimate of the shift of log times, exponentiated), with the
// distribution-free interval [r(k), r(n1*n2 + 1 - k)] of the sorted ratios,
// k the largest with coverage 1 - 2 P(U <= k - 1) >= level. When no k
// reaches the level the interval is [min, max] and `coverage` says how much
// it covers (n1 = n2 = 3: 0.9), as for MedianInterval. With ties the
// coverage is approximate. Times must be > 0.
struct RatioInterval {
  double ratio = 1, lo = 1, hi = 1;
  double coverage = 0;
};
RatioInterval ratio_interval(const std::vector<double>& x, const std::vector<double>& y, double level = 0.95);

}  // namespace mmbench
