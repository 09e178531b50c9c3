#include "tuner/lsq_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mmbench::tuner {

namespace {

using Points = std::vector<std::pair<double, double>>;

void check_points(const Points& points) {
  for (const auto& [bytes, seconds] : points) {
    if (!std::isfinite(bytes) || bytes < 0.0) {
      throw std::invalid_argument("latency/bandwidth fit: message size " + std::to_string(bytes) +
                                  " bytes is not a finite value >= 0");
    }
    if (!std::isfinite(seconds) || seconds <= 0.0) {
      throw std::invalid_argument("latency/bandwidth fit: time " + std::to_string(seconds) +
                                  " s (at " + std::to_string(bytes) +
                                  " bytes) is not a finite value > 0");
    }
  }
  const bool two_sizes = std::any_of(points.begin(), points.end(), [&](const auto& p) {
    return p.first != points.front().first;
  });
  if (points.size() < 2 || !two_sizes) {
    throw std::invalid_argument("latency/bandwidth fit: needs at least 2 distinct message sizes, got " +
                                std::to_string(points.size()) + " point(s)");
  }
}

// Weighted straight line t = a + b x with weights w = 1 (absolute) or 1/t^2
// (relative), centred on the weighted means so that x^2 ~ 1e13 for 4 MiB
// does not cost precision.
LinearFit fit_line(const Points& points, FitError error) {
  double sw = 0, sx = 0, st = 0;
  auto weight = [&](double t) { return error == FitError::relative ? 1.0 / (t * t) : 1.0; };
  for (const auto& [x, t] : points) {
    const double w = weight(t);
    sw += w;
    sx += w * x;
    st += w * t;
  }
  const double xm = sx / sw, tm = st / sw;
  double sxx = 0, sxt = 0, stt = 0;
  for (const auto& [x, t] : points) {
    const double w = weight(t);
    sxx += w * (x - xm) * (x - xm);
    sxt += w * (x - xm) * (t - tm);
    stt += w * (t - tm) * (t - tm);
  }
  const double slope = sxt / sxx;  // sxx > 0: at least two distinct sizes
  const double intercept = tm - slope * xm;
  double sres = 0;
  for (const auto& [x, t] : points) {
    const double r = intercept + slope * x - t;
    sres += weight(t) * r * r;
  }
  LinearFit fit;
  fit.latency_s = intercept;
  fit.tau = slope > 0.0 ? 1.0 / (8.0 * slope) : 0.0;  // slope is seconds per byte
  fit.r2 = stt > 0.0 ? 1.0 - sres / stt : 1.0;
  return fit;
}

double predict(const LinearFit& fit, double bytes) {
  return fit.tau > 0.0 ? fit.latency_s + bytes / (8.0 * fit.tau) : fit.latency_s;
}

bool has_two_sizes(Points::const_iterator first, Points::const_iterator last) {
  return std::any_of(first, last, [&](const auto& p) { return p.first != first->first; });
}

constexpr std::size_t kMinRegimePoints = 3;
constexpr double kGoodEnoughRms = 0.02;  // 2 % RMS relative error
constexpr double kRequiredGain = 0.5;    // two lines must at least halve the SSE

}  // namespace

LinearFit fit_latency_bandwidth(const Points& points, FitError error) {
  check_points(points);
  return fit_line(points, error);
}

double relative_sse(const LinearFit& fit, const Points& points) {
  double sse = 0;
  for (const auto& [bytes, seconds] : points) {
    const double r = (predict(fit, bytes) - seconds) / seconds;
    sse += r * r;
  }
  return sse;
}

TwoRegimeFit fit_two_regimes(const Points& points) {
  check_points(points);
  Points sorted = points;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  TwoRegimeFit result;
  const LinearFit one = fit_line(sorted, FitError::relative);
  result.eager = result.rendezvous = one;
  result.sse_one = result.sse_two = relative_sse(one, sorted);

  // Split s: eager = sorted[0, s), rendezvous = sorted[s, n). Example with
  // sizes 8, 16, ..., 4096 | 8192, ...: s = 10 puts 8 .. 4096 (10 sizes)
  // into the eager regime and reports break_bytes = 4096.
  const std::size_t n = sorted.size();
  bool found = false;
  std::size_t best_s = 0;
  LinearFit best_lo, best_hi;
  double best_sse = 0;
  for (std::size_t s = kMinRegimePoints; s + kMinRegimePoints <= n; ++s) {
    if (sorted[s - 1].first == sorted[s].first) continue;  // never split equal sizes
    const Points lo(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(s));
    const Points hi(sorted.begin() + static_cast<std::ptrdiff_t>(s), sorted.end());
    if (!has_two_sizes(lo.begin(), lo.end()) || !has_two_sizes(hi.begin(), hi.end())) continue;
    const LinearFit flo = fit_line(lo, FitError::relative);
    const LinearFit fhi = fit_line(hi, FitError::relative);
    const double sse = relative_sse(flo, lo) + relative_sse(fhi, hi);
    if (!found || sse < best_sse) {
      found = true;
      best_s = s;
      best_sse = sse;
      best_lo = flo;
      best_hi = fhi;
    }
  }
  if (!found) return result;

  result.sse_two = best_sse;
  const double rms_one = std::sqrt(result.sse_one / static_cast<double>(n));
  if (rms_one <= kGoodEnoughRms || best_sse > kRequiredGain * result.sse_one) return result;
  result.eager = best_lo;
  result.rendezvous = best_hi;
  result.break_bytes = static_cast<std::int64_t>(std::llround(sorted[best_s - 1].first));
  return result;
}

}  // namespace mmbench::tuner

namespace mmbench::tuner {

namespace {

constexpr std::size_t kMaxFeatures = 8;

// Least squares min |M x - y| for the columns `cols` of M (row-major,
// rows x all), by Householder QR of the chosen columns each scaled to unit
// length. Returns false when they are (numerically) linearly dependent.
bool solve_subset(const std::vector<std::vector<double>>& m, const std::vector<double>& y,
                  const std::vector<std::size_t>& cols, std::vector<double>& x) {
  const std::size_t rows = m.size(), k = cols.size();
  if (k > rows) return false;
  std::vector<std::vector<double>> a(k, std::vector<double>(rows));  // column-major copy
  std::vector<double> scale(k, 0.0);
  for (std::size_t j = 0; j < k; ++j) {
    double norm = 0;
    for (std::size_t i = 0; i < rows; ++i) norm += m[i][cols[j]] * m[i][cols[j]];
    norm = std::sqrt(norm);
    if (!(norm > 0)) return false;
    scale[j] = norm;
    for (std::size_t i = 0; i < rows; ++i) a[j][i] = m[i][cols[j]] / norm;
  }
  std::vector<double> b = y;
  for (std::size_t j = 0; j < k; ++j) {
    double norm = 0;
    for (std::size_t i = j; i < rows; ++i) norm += a[j][i] * a[j][i];
    norm = std::sqrt(norm);
    // A column that the earlier ones already span (to 1e-10 of its unit
    // length) makes the subset degenerate.
    if (norm < 1e-10) return false;
    const double alpha = a[j][j] > 0 ? -norm : norm;
    std::vector<double> v(rows, 0.0);
    for (std::size_t i = j; i < rows; ++i) v[i] = a[j][i];
    v[j] -= alpha;
    double vv = 0;
    for (std::size_t i = j; i < rows; ++i) vv += v[i] * v[i];
    if (!(vv > 0)) continue;
    auto reflect = [&](std::vector<double>& col) {
      double d = 0;
      for (std::size_t i = j; i < rows; ++i) d += v[i] * col[i];
      const double f = 2.0 * d / vv;
      for (std::size_t i = j; i < rows; ++i) col[i] -= f * v[i];
    };
    for (std::size_t c = j; c < k; ++c) reflect(a[c]);
    reflect(b);
  }
  x.assign(k, 0.0);
  for (std::size_t jj = k; jj-- > 0;) {
    double s = b[jj];
    for (std::size_t c = jj + 1; c < k; ++c) s -= a[c][jj] * x[c];
    x[jj] = s / a[jj][jj];
  }
  for (std::size_t j = 0; j < k; ++j) x[j] /= scale[j];
  return true;
}

}  // namespace

NonNegativeFit fit_non_negative(const std::vector<std::vector<double>>& features, const std::vector<double>& times) {
  if (features.empty() || features.size() != times.size())
    throw std::invalid_argument("non-negative fit: needs as many feature rows as times (at least one), got " +
                                std::to_string(features.size()) + " and " + std::to_string(times.size()));
  const std::size_t k = features.front().size();
  if (k == 0 || k > kMaxFeatures)
    throw std::invalid_argument("non-negative fit: " + std::to_string(k) + " features, allowed 1 to " +
                                std::to_string(kMaxFeatures));
  // Relative error: row i divided by t_i, target 1.
  std::vector<std::vector<double>> m(features.size());
  for (std::size_t i = 0; i < features.size(); ++i) {
    if (features[i].size() != k)
      throw std::invalid_argument("non-negative fit: point " + std::to_string(i) + " has " +
                                  std::to_string(features[i].size()) + " features, the first has " +
                                  std::to_string(k));
    const double t = times[i];
    if (!std::isfinite(t) || t <= 0)
      throw std::invalid_argument("non-negative fit: time " + std::to_string(t) + " s of point " +
                                  std::to_string(i) + " is not a finite value > 0");
    m[i].resize(k);
    for (std::size_t j = 0; j < k; ++j) {
      const double f = features[i][j];
      if (!std::isfinite(f) || f < 0)
        throw std::invalid_argument("non-negative fit: feature " + std::to_string(j) + " of point " +
                                    std::to_string(i) + " = " + std::to_string(f) +
                                    " is not a finite value >= 0");
      m[i][j] = f / t;
    }
  }
  const std::vector<double> ones(m.size(), 1.0);
  auto sse_of = [&](const std::vector<double>& x) {
    double sse = 0;
    for (const auto& row : m) {
      double fit = 0;
      for (std::size_t j = 0; j < k; ++j) fit += row[j] * x[j];
      sse += (fit - 1.0) * (fit - 1.0);
    }
    return sse;
  };
  NonNegativeFit best;
  best.coefficients.assign(k, 0.0);
  best.relative_sse = sse_of(best.coefficients);
  for (unsigned mask = 1; mask < (1u << k); ++mask) {
    std::vector<std::size_t> cols;
    for (std::size_t j = 0; j < k; ++j)
      if (mask & (1u << j)) cols.push_back(j);
    std::vector<double> sub;
    if (!solve_subset(m, ones, cols, sub)) continue;
    if (std::any_of(sub.begin(), sub.end(), [](double v) { return !(v >= 0) || !std::isfinite(v); })) continue;
    std::vector<double> x(k, 0.0);
    for (std::size_t c = 0; c < cols.size(); ++c) x[cols[c]] = sub[c];
    const double sse = sse_of(x);
    if (sse < best.relative_sse) {
      best.coefficients = x;
      best.relative_sse = sse;
    }
  }
  best.active = static_cast<int>(
      std::count_if(best.coefficients.begin(), best.coefficients.end(), [](double v) { return v > 0; }));
  return best;
}

}  // namespace mmbench::tuner
