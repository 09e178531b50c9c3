#include "core/stats/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace mmbench {

namespace {

// The whole null distribution of U for n1, n2 (probabilities of 0..n1*n2).
// The largest of the n1 + n2 values is an x with probability n1 / (n1 + n2)
// and then exceeds all n2 y's (U of x against y grows by n2), else it is a
// y and adds nothing:
//   p[n1][n2](u) = n1/(n1+n2) p[n1-1][n2](u - n2) + n2/(n1+n2) p[n1][n2-1](u).
// U of y against x has the same (symmetric) distribution. Only sums of
// positive terms, so it stays accurate where counts would overflow.
std::vector<double> null_distribution(int n1, int n2) {
  // row[m] = distribution for (m, n) of the current n.
  std::vector<std::vector<double>> row(static_cast<std::size_t>(n1) + 1, std::vector<double>{1.0});
  for (int n = 1; n <= n2; ++n) {
    std::vector<std::vector<double>> next(static_cast<std::size_t>(n1) + 1);
    next[0] = {1.0};
    for (int m = 1; m <= n1; ++m) {
      std::vector<double> p(static_cast<std::size_t>(m) * n + 1, 0.0);
      const double from_x = static_cast<double>(m) / (m + n), from_y = static_cast<double>(n) / (m + n);
      const std::vector<double>& a = next[static_cast<std::size_t>(m) - 1];  // (m-1, n)
      const std::vector<double>& b = row[static_cast<std::size_t>(m)];       // (m, n-1)
      for (std::size_t u = 0; u < a.size(); ++u) p[u + static_cast<std::size_t>(n)] += from_x * a[u];
      for (std::size_t u = 0; u < b.size(); ++u) p[u] += from_y * b[u];
      next[static_cast<std::size_t>(m)] = std::move(p);
    }
    row = std::move(next);
  }
  return row[static_cast<std::size_t>(n1)];
}

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace

double mann_whitney_cdf(int n1, int n2, int u) {
  if (n1 < 0 || n2 < 0) throw std::invalid_argument("mann_whitney_cdf: negative sample size");
  if (u < 0) return 0;
  if (u >= n1 * n2) return 1;
  const std::vector<double> p = null_distribution(n1, n2);
  double sum = 0;
  for (int i = 0; i <= u; ++i) sum += p[static_cast<std::size_t>(i)];
  return std::min(1.0, sum);
}

RankSumTest mann_whitney(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || y.empty()) throw std::invalid_argument("mann_whitney: a sample is empty");
  const int n1 = static_cast<int>(x.size()), n2 = static_cast<int>(y.size());
  RankSumTest t;
  bool ties = false;
  for (double a : x)
    for (double b : y) {
      if (b > a)
        t.u += 1;
      else if (b == a)
        t.u += 0.5;
    }
  // Ties anywhere in the pooled sample: their sizes correct the variance.
  std::map<double, int> counts;
  for (double v : x) ++counts[v];
  for (double v : y) ++counts[v];
  double tie_sum = 0;  // sum of t^3 - t over groups of tied values
  for (const auto& [v, c] : counts) {
    if (c > 1) ties = true;
    tie_sum += static_cast<double>(c) * c * c - c;
  }
  const double pairs = static_cast<double>(n1) * n2;
  if (!ties && n1 * n2 <= kExactMaxPairs) {
    t.exact = true;
    const int extreme = static_cast<int>(std::min(t.u, pairs - t.u));  // an integer without ties
    t.p_value = std::min(1.0, 2 * mann_whitney_cdf(n1, n2, extreme));
    return t;
  }
  const double n = n1 + n2;
  const double var = pairs / 12.0 * ((n + 1) - tie_sum / (n * (n - 1)));
  if (var <= 0) {  // every value tied: no evidence of a difference
    t.p_value = 1;
    return t;
  }
  const double z = std::max(0.0, std::abs(t.u - pairs / 2) - 0.5) / std::sqrt(var);
  t.p_value = std::min(1.0, 2 * (1 - normal_cdf(z)));
  return t;
}

RatioInterval ratio_interval(const std::vector<double>& x, const std::vector<double>& y, double level) {
  if (x.empty() || y.empty()) throw std::invalid_argument("ratio_interval: a sample is empty");
  if (!(level > 0 && level < 1)) throw std::invalid_argument("ratio_interval: level must be in (0, 1)");
  std::vector<double> r;
  r.reserve(x.size() * y.size());
  for (double a : x)
    for (double b : y) {
      if (!(a > 0 && b > 0)) throw std::invalid_argument("ratio_interval: times must be > 0");
      r.push_back(b / a);
    }
  std::sort(r.begin(), r.end());
  const int n1 = static_cast<int>(x.size()), n2 = static_cast<int>(y.size());
  const std::size_t total = r.size();
  RatioInterval out;
  out.ratio = total % 2 ? r[total / 2] : 0.5 * (r[total / 2 - 1] + r[total / 2]);
  // P(U <= k - 1) for growing k: exact for small samples (the distribution
  // computed once), else the normal approximation with continuity correction.
  std::vector<double> cumulative;
  if (n1 * n2 <= kExactMaxPairs) {
    cumulative = null_distribution(n1, n2);
    for (std::size_t u = 1; u < cumulative.size(); ++u) cumulative[u] += cumulative[u - 1];
  }
  auto tail = [&](int k) {
    if (!cumulative.empty()) return std::min(1.0, cumulative[static_cast<std::size_t>(k - 1)]);
    const double mu = static_cast<double>(n1) * n2 / 2;
    const double sd = std::sqrt(static_cast<double>(n1) * n2 * (n1 + n2 + 1) / 12);
    return normal_cdf((k - 1 + 0.5 - mu) / sd);
  };
  int k = 1;
  while (static_cast<std::size_t>(k + 1) <= (total + 1) / 2 && 1 - 2 * tail(k + 1) >= level) ++k;
  out.lo = r[static_cast<std::size_t>(k - 1)];
  out.hi = r[total - static_cast<std::size_t>(k)];
  out.coverage = 1 - 2 * tail(k);
  return out;
}

}  // namespace mmbench
