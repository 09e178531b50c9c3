// Statistics of paired, interleaved repetitions (the trust layer of every
// number mmbench reports).
//
// Why paired: this kind of machine drifts (a slow minute, a neighbour's job,
// frequency changes). If configuration A runs all its repetitions and then B
// runs all of its, the drift lands on one of them and decides which is
// "faster". mmbench therefore runs a sweep in rounds: round r runs
// repetition r of every configuration, in an order shuffled per round. A
// ratio between two configurations is formed per round (both samples saw the
// same minute of the machine), and the ratios are summarized.
//
// Why the median with an order-statistics interval: timing samples are
// skewed (the fast side is bounded, the slow side is not) and contain
// outliers; the median of the per-round ratios is robust, and its
// distribution-free confidence interval needs no assumption about their
// distribution. For n samples x(1) <= ... <= x(n), the interval
// [x(j), x(n+1-j)] contains the true median with probability
//     coverage(j) = 1 - 2 * P(Binomial(n, 1/2) <= j - 1)
// (each sample lies below the median with probability 1/2). We take the
// largest j whose coverage is still >= the level asked for (0.95).
// Worked example, n = 10: P(B <= 1) = 11/1024 = 0.0107, P(B <= 2) = 56/1024
// = 0.0547, so j = 2: [x(2), x(9)] with coverage 1 - 2*0.0107 = 0.979.
// With fewer than 6 samples no pair of order statistics reaches 95 %
// (n = 5: [min, max] covers 1 - 2/32 = 0.9375); the interval is then
// [min, max] and `coverage` says how much it really covers, so no figure
// claims more confidence than it has.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmbench {

// Median of samples and its confidence interval (see above).
struct MedianInterval {
  double median = 0;
  double lo = 0, hi = 0;  // interval bounds (order statistics)
  double coverage = 0;    // the interval's true coverage probability
  int n = 0;              // samples
  // Largest distance from the median to a bound, relative to the median;
  // e.g. median 1.00, interval [0.97, 1.02] -> 0.03.
  double relative_half_width() const;
};

// Throws std::invalid_argument for an empty vector or a level outside (0, 1).
MedianInterval median_interval(std::vector<double> samples, double level = 0.95);

// The coverage median_interval's interval has with n samples: it depends
// on n only (n = 3: 0.75, n = 5: 0.9375, n = 6: 0.969). What a label of an
// interval must state instead of the level asked for. n >= 1.
double interval_coverage(int n, double level = 0.95);

// The j (1-based) of median_interval's interval [x(j), x(n+1-j)] for n
// samples at `level`: j = 1 is [min, max].
int interval_rank(int n, double level = 0.95);

// The probability that two such intervals, [X(ja), X(na+1-ja)] of na samples
// and [Y(jb), Y(nb+1-jb)] of nb, are disjoint when all the samples come from
// one continuous distribution: the exact level of "significant when the
// intervals do not overlap". Example: na = nb = 3, [min, max] each (ja =
// jb = 1): 2 / C(6, 3) = 0.10 -- a 95 % claim would be false; na = nb = 5:
// 2 / C(10, 5) = 0.0079. Throws std::invalid_argument outside
// 1 <= j <= (n + 1) / 2.
double disjoint_probability(int na, int ja, int nb, int jb);

// A coverage is never shown larger than it is: both forms round down.
// "75 %", "96.8 %" (0.96875): for a label, to 0.1 %.
std::string coverage_label(double coverage);
// "0.7500", "0.9375", "0.9687" (0.96875): for a file (CSV ci_coverage), to
// 4 decimals -- exact for 3 to 5 rounds.
std::string coverage_text(double coverage);

// P(Binomial(n, 1/2) <= k), exact (n <= 1000 is plenty; larger n use a
// log-space sum and stay accurate).
double binomial_half_cdf(int n, int k);

// Sample standard deviation / mean; 0 for fewer than 2 samples.
double coefficient_of_variation(const std::vector<double>& samples);

// Coefficient of variation above which a configuration's row is flagged
// `noisy` (CSV column `noisy`). 5 %: on a quiet node, repeated DGEMM or
// PDGEMM runs of a second or more vary by 1-2 %; 5 % means something else
// ran on the node or the run is too short to time reliably.
inline constexpr double kNoisyCoefficientOfVariation = 0.05;

// The order in which round `round` (0-based) runs `count` configurations:
// a permutation of 0..count-1, shuffled by Fisher-Yates with std::mt19937_64
// seeded from (seed, round). Written out here (not std::shuffle, whose
// algorithm the standard leaves to the library) so the same seed gives the
// same order with any compiler and standard library.
std::vector<std::size_t> round_order(std::size_t count, std::uint64_t seed, int round);

}  // namespace mmbench
