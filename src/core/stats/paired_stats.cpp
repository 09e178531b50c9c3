#include "core/stats/paired_stats.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

namespace mmbench {

double MedianInterval::relative_half_width() const {
  if (median == 0) return 0;
  return std::max(median - lo, hi - median) / std::abs(median);
}

double binomial_half_cdf(int n, int k) {
  if (k < 0) return 0;
  if (k >= n) return 1;
  // sum_{i<=k} C(n, i) / 2^n in log space: lgamma keeps it finite for any n.
  double sum = 0;
  const double log_half_n = -n * std::log(2.0);
  for (int i = 0; i <= k; ++i)
    sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + log_half_n);
  return std::min(1.0, sum);
}

int interval_rank(int n, double level) {
  int j = 1;
  while (j + 1 <= (n + 1) / 2 && 1 - 2 * binomial_half_cdf(n, j) >= level) ++j;
  return j;
}

namespace {
// log C(n, k).
double log_choose(int n, int k) { return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0); }

// P(X(a) < Y(b)) for na X's and nb Y's, all independent draws of one
// continuous distribution (every interleaving of the sorted samples equally
// likely): at least a X's come before the b-th Y. Exactly k X's do in
// C(k + b - 1, k) C(na + nb - k - b, na - k) of the C(na + nb, na)
// interleavings (the b-th Y at place k + b, k X's and b - 1 Y's before it).
double order_before(int na, int a, int nb, int b) {
  double p = 0;
  for (int k = a; k <= na; ++k)
    p += std::exp(log_choose(k + b - 1, k) + log_choose(na + nb - k - b, na - k) - log_choose(na + nb, na));
  return p;
}
}  // namespace

double disjoint_probability(int na, int ja, int nb, int jb) {
  if (na < 1 || nb < 1 || ja < 1 || jb < 1 || 2 * ja > na + 1 || 2 * jb > nb + 1)
    throw std::invalid_argument("disjoint_probability: need 1 <= j <= (n + 1) / 2 on both sides");
  // [X(ja), X(na+1-ja)] entirely below [Y(jb), ...], or entirely above.
  return std::min(1.0, order_before(na, na + 1 - ja, nb, jb) + order_before(nb, nb + 1 - jb, na, ja));
}

MedianInterval median_interval(std::vector<double> s, double level) {
  if (s.empty()) throw std::invalid_argument("median_interval: no samples");
  if (!(level > 0 && level < 1)) throw std::invalid_argument("median_interval: level must be in (0, 1)");
  std::sort(s.begin(), s.end());
  const int n = static_cast<int>(s.size());
  MedianInterval out;
  out.n = n;
  out.median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  const int j = interval_rank(n, level);
  out.lo = s[static_cast<std::size_t>(j - 1)];
  out.hi = s[static_cast<std::size_t>(n - j)];
  out.coverage = 1 - 2 * binomial_half_cdf(n, j - 1);
  return out;
}

double interval_coverage(int n, double level) {
  if (n < 1) throw std::invalid_argument("interval_coverage: n must be >= 1");
  if (!(level > 0 && level < 1)) throw std::invalid_argument("interval_coverage: level must be in (0, 1)");
  return 1 - 2 * binomial_half_cdf(n, interval_rank(n, level) - 1);
}

std::string coverage_text(double coverage) {
  const double floored = std::floor(coverage * 10000 + 1e-9) / 10000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", floored);
  return buf;
}

std::string coverage_label(double coverage) {
  // Down to 0.1 %, and whole percents print without ".0" (75 %, not 75.0 %).
  const double tenths = std::floor(coverage * 1000 + 1e-9);
  const long t = static_cast<long>(std::max(0.0, tenths));
  return t % 10 == 0 ? std::to_string(t / 10) + " %" : std::to_string(t / 10) + "." + std::to_string(t % 10) + " %";
}

double coefficient_of_variation(const std::vector<double>& s) {
  if (s.size() < 2) return 0;
  const double mean = std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
  double ss = 0;
  for (double x : s) ss += (x - mean) * (x - mean);
  const double sd = std::sqrt(ss / static_cast<double>(s.size() - 1));
  return mean == 0 ? 0 : sd / std::abs(mean);
}

std::vector<std::size_t> round_order(std::size_t count, std::uint64_t seed, int round) {
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Distinct, well-mixed streams per round (splitmix64 of seed and round).
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(round) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  std::mt19937_64 rng(z ^ (z >> 31));
  for (std::size_t i = count; i > 1; --i) {
    // Unbiased draw from [0, i): reject the top partial block of the range.
    const std::uint64_t bound = static_cast<std::uint64_t>(i);
    const std::uint64_t limit =
        std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t r;
    do r = rng();
    while (r >= limit);
    std::swap(order[i - 1], order[static_cast<std::size_t>(r % bound)]);
  }
  return order;
}

}  // namespace mmbench
