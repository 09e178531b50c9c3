#include "tuner/kernel_model_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/stats/timing.hpp"
#include "tuner/lsq_fit.hpp"

namespace mmbench::tuner {

namespace {

// The spread of log residuals r_i = ln(t_i / fit_i) after the level is set:
// scale = exp(median r), then sd of r - median over (calls - used) degrees of
// freedom, at least 1.
struct Spread {
  double scale = 1;
  double log_sd = 0;
};

Spread spread_of(const std::vector<double>& log_residuals, int coefficients_used) {
  Spread s;
  const double med = summarize(log_residuals).median;
  s.scale = std::exp(med);
  double ss = 0;
  for (double r : log_residuals) ss += (r - med) * (r - med);
  const double dof = std::max(1.0, double(log_residuals.size()) - coefficients_used);
  s.log_sd = std::sqrt(ss / dof);
  return s;
}

// Pooled sd of ln(t / median of its group) over the groups with two calls
// or more; 0 where there is none.
template <class Key>
double repeat_spread(const std::map<Key, std::vector<double>>& groups) {
  double ss = 0, dof = 0;
  for (const auto& [key, times] : groups) {
    if (times.size() < 2) continue;
    const double med = summarize(times).median;
    for (double t : times) ss += std::log(t / med) * std::log(t / med);
    dof += double(times.size()) - 1;
  }
  return dof > 0 ? std::sqrt(ss / dof) : 0.0;
}

void check_time(double t, const std::string& what) {
  if (!std::isfinite(t) || t <= 0)
    throw std::invalid_argument("kernel model fit: time " + std::to_string(t) + " s of " + what +
                                " is not a finite value > 0");
}

}  // namespace

DgemmTimeFit fit_dgemm_time(const std::vector<DgemmSample>& samples) {
  std::vector<std::vector<double>> features;
  std::vector<double> times;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::vector<double>> by_shape;
  for (const DgemmSample& s : samples) {
    const std::string what = "DGEMM(" + std::to_string(s.m) + ", " + std::to_string(s.n) + ", " +
                             std::to_string(s.k) + ")";
    if (s.m < 1 || s.n < 1 || s.k < 1)
      throw std::invalid_argument("kernel model fit: " + what + " has a dimension < 1");
    check_time(s.seconds, what);
    const double m = double(s.m), n = double(s.n), k = double(s.k);
    features.push_back({1.0, m * n * k, m * n, m * k, n * k});
    times.push_back(s.seconds);
    by_shape[{s.m, s.n, s.k}].push_back(s.seconds);
  }
  if (by_shape.size() < 2)
    throw std::invalid_argument("kernel model fit: DGEMM needs at least 2 distinct shapes, got " +
                                std::to_string(by_shape.size()));
  const NonNegativeFit nn = fit_non_negative(features, times);
  DgemmTimeFit f;
  f.a_s = nn.coefficients[0];
  f.b_s_per_mnk = nn.coefficients[1];
  f.c_s_per_mn = nn.coefficients[2];
  f.d_s_per_mk = nn.coefficients[3];
  f.e_s_per_nk = nn.coefficients[4];
  f.shapes = static_cast<int>(by_shape.size());
  f.points = static_cast<int>(samples.size());
  if (!f.fitted()) return f;
  std::vector<double> r;
  for (const DgemmSample& s : samples) r.push_back(std::log(s.seconds / f.seconds(double(s.m), double(s.n), double(s.k))));
  const Spread sp = spread_of(r, nn.active);
  for (double* c : {&f.a_s, &f.b_s_per_mnk, &f.c_s_per_mn, &f.d_s_per_mk, &f.e_s_per_nk}) *c *= sp.scale;
  f.log_sd = sp.log_sd;
  f.repeat_log_sd = repeat_spread(by_shape);
  return f;
}

BytesTimeFit fit_pass_time(const std::vector<PassSample>& samples) {
  std::vector<std::vector<double>> features;
  std::vector<double> times;
  std::map<double, std::vector<double>> by_size;
  for (const PassSample& s : samples) {
    const std::string what = "a pass over " + std::to_string(s.bytes) + " bytes";
    if (!(s.bytes >= 1) || !std::isfinite(s.bytes))
      throw std::invalid_argument("kernel model fit: " + what + ": bytes must be a finite value >= 1");
    check_time(s.seconds, what);
    features.push_back({1.0, s.bytes});
    times.push_back(s.seconds);
    by_size[s.bytes].push_back(s.seconds);
  }
  if (by_size.size() < 2)
    throw std::invalid_argument("kernel model fit: a pass needs at least 2 distinct sizes, got " +
                                std::to_string(by_size.size()));
  const NonNegativeFit nn = fit_non_negative(features, times);
  BytesTimeFit f;
  f.a_s = nn.coefficients[0];
  f.b_s_per_byte = nn.coefficients[1];
  f.sizes = static_cast<int>(by_size.size());
  f.points = static_cast<int>(samples.size());
  if (!f.fitted()) return f;
  std::vector<double> r;
  for (const PassSample& s : samples) r.push_back(std::log(s.seconds / f.seconds(s.bytes)));
  const Spread sp = spread_of(r, nn.active);
  f.a_s *= sp.scale;
  f.b_s_per_byte *= sp.scale;
  f.log_sd = sp.log_sd;
  f.repeat_log_sd = repeat_spread(by_size);
  return f;
}

}  // namespace mmbench::tuner
