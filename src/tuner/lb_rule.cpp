#include "tuner/lb_rule.hpp"

#include "core/stats/paired_stats.hpp"
#include "core/stats/timing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace mmbench::tuner {

namespace {

void check_x(double x) {
  // Written as a negation so that NaN is rejected as well.
  if (!(x > 0.0 && x <= 1.0)) {
    throw std::invalid_argument("lb rule: x = " + std::to_string(x) +
                                " is outside the allowed range (0, 1]");
  }
}

void check_rate(std::int64_t k, double mflops) {
  if (!std::isfinite(mflops) || mflops < 0.0) {
    throw std::invalid_argument("lb rule: the rate at k = " + std::to_string(k) + " is " +
                                std::to_string(mflops) + "; expected a finite value >= 0");
  }
}

// The threshold of eq. 2.26; both rules use exactly this expression.
double threshold_of(double max_mflops, double x) { return x * max_mflops; }

// Nearest even integer: 62.5 -> 62, 77.5 -> 78 (v / 2 rounded half away
// from zero, times 2).
std::int64_t round_even(double v) { return 2 * static_cast<std::int64_t>(std::llround(v / 2.0)); }

}  // namespace

std::int64_t choose_lb(const std::vector<ProfilePoint>& points, double x) {
  check_x(x);
  if (points.empty()) throw std::invalid_argument("lb rule: the DGEMM profile is empty");
  double max_mflops = 0.0;
  for (const ProfilePoint& p : points) {
    check_rate(p.k, p.mflops);
    max_mflops = std::max(max_mflops, p.mflops);
  }
  const double thr = threshold_of(max_mflops, x);
  std::int64_t lb = std::numeric_limits<std::int64_t>::max();
  for (const ProfilePoint& p : points) {
    if (p.mflops >= thr) lb = std::min(lb, p.k);
  }
  return lb;  // the maximum itself always qualifies (x <= 1), so lb is set
}

std::vector<std::int64_t> even_grid(std::int64_t kmin, std::int64_t kmax) {
  std::vector<std::int64_t> ks;
  const std::int64_t first = kmin + (kmin % 2 != 0 ? 1 : 0);
  for (std::int64_t k = first; k <= kmax; k += 2) ks.push_back(k);
  return ks;
}

std::vector<std::int64_t> coarse_grid(std::int64_t kmin, std::int64_t kmax, double ratio) {
  if (!(ratio > 1.0)) {
    throw std::invalid_argument("coarse_grid: ratio = " + std::to_string(ratio) +
                                " must be > 1");
  }
  const std::vector<std::int64_t> all = even_grid(kmin, kmax);
  if (all.empty()) return {};
  const std::int64_t last = all.back();
  std::vector<std::int64_t> ks{all.front()};
  while (ks.back() < last) {
    const double grown = static_cast<double>(ks.back()) * ratio;
    const std::int64_t next = std::max(ks.back() + 2, round_even(grown));
    ks.push_back(std::min(next, last));
  }
  return ks;
}

std::vector<ProfileSamples> measure_in_passes(const std::vector<std::int64_t>& ks, int passes,
                                              std::uint64_t seed,
                                              const std::function<double(std::int64_t, int)>& measure,
                                              const std::function<void(int)>& on_pass) {
  if (passes < 1) {
    throw std::invalid_argument("measure_in_passes: passes = " + std::to_string(passes) + " must be >= 1");
  }
  if (ks.empty()) throw std::invalid_argument("measure_in_passes: no k to measure");
  std::vector<ProfileSamples> out(ks.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    out[i].k = ks[i];
    out[i].mflops.reserve(static_cast<std::size_t>(passes));
  }
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i : round_order(ks.size(), seed, pass)) {
      const double mflops = measure(ks[i], pass);
      if (!std::isfinite(mflops) || mflops < 0.0) {
        throw std::runtime_error("measure_in_passes: measure(" + std::to_string(ks[i]) + ") returned " +
                                 std::to_string(mflops) + "; expected a finite rate >= 0");
      }
      out[i].mflops.push_back(mflops);
    }
    if (on_pass) on_pass(pass);
  }
  return out;
}

std::vector<double> running_median3(const std::vector<double>& v) {
  const std::size_t n = v.size();
  if (n <= 1) return v;
  std::vector<double> out(n);
  out[0] = 0.5 * (v[0] + v[1]);
  out[n - 1] = 0.5 * (v[n - 2] + v[n - 1]);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double a = v[i - 1], b = v[i], c = v[i + 1];
    out[i] = std::max(std::min(a, b), std::min(std::max(a, b), c));
  }
  return out;
}

RobustLb choose_lb_robust(const std::vector<ProfileSamples>& samples, double x) {
  check_x(x);
  if (samples.empty()) throw std::invalid_argument("lb rule: the DGEMM profile is empty");
  std::vector<ProfileSamples> sorted = samples;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.k < b.k; });
  RobustLb out;
  out.points.reserve(sorted.size());
  std::vector<double> medians;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const ProfileSamples& s = sorted[i];
    if (i > 0 && sorted[i - 1].k == s.k) {
      throw std::invalid_argument("lb rule: k = " + std::to_string(s.k) + " appears twice in the profile");
    }
    if (s.mflops.empty()) {
      throw std::invalid_argument("lb rule: k = " + std::to_string(s.k) + " has no measurement");
    }
    for (double r : s.mflops) check_rate(s.k, r);
    const MedianInterval mi = median_interval(s.mflops);
    RobustPoint p;
    p.k = s.k;
    p.passes = static_cast<int>(s.mflops.size());
    p.median = mi.median;
    p.lo = mi.lo;
    p.hi = mi.hi;
    p.coverage = mi.coverage;
    p.best = *std::max_element(s.mflops.begin(), s.mflops.end());
    out.points.push_back(p);
    medians.push_back(mi.median);
  }
  const std::vector<double> smooth = running_median3(medians);
  for (std::size_t i = 0; i < smooth.size(); ++i) {
    out.points[i].smooth = smooth[i];
    if (smooth[i] > out.max_smooth || i == 0) {  // strict: ties keep the smaller k
      out.max_smooth = smooth[i];
      out.k_at_max = out.points[i].k;
    }
  }
  out.threshold = threshold_of(out.max_smooth, x);
  out.fallback = true;
  out.lb = out.k_at_max;
  for (const RobustPoint& p : out.points) {
    if (p.smooth >= out.threshold && p.lo >= out.threshold) {
      out.lb = p.k;
      out.fallback = false;
      break;
    }
  }
  return out;
}

double relative_noise(const std::vector<RobustPoint>& points) {
  std::vector<double> widths;
  for (const RobustPoint& p : points)
    if (p.passes >= 2 && p.median > 0 && p.hi >= p.lo) widths.push_back((p.hi - p.lo) / 2.0 / p.median);
  return widths.empty() ? 0.0 : summarize(widths).median;
}

}  // namespace mmbench::tuner
