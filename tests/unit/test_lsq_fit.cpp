// Tests of the latency/throughput fits against synthetic timings with known
// parameters.
#include "tuner/lsq_fit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mmbench::tuner {
namespace {

using Points = std::vector<std::pair<double, double>>;

// The sweep the network calibration uses: powers of two 8 B .. 4 MiB plus
// 1.5 * 2^j from 1.5 KiB to 3 MiB.
std::vector<double> sweep_sizes() {
  std::vector<double> sizes;
  for (int j = 3; j <= 22; ++j) sizes.push_back(std::ldexp(1.0, j));
  for (int j = 10; j <= 21; ++j) sizes.push_back(1.5 * std::ldexp(1.0, j));
  return sizes;
}

// Deterministic multiplicative noise in [-1, 1] (a fixed, scrambled sequence).
double noise(std::size_t i) {
  std::uint64_t z = 0x9E3779B97F4A7C15ULL * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return 2.0 * static_cast<double>(z >> 11) / 9007199254740992.0 - 1.0;
}

// time = latency + bytes / (8 tau), optionally * (1 + amplitude * noise).
Points line(double latency, double tau, const std::vector<double>& sizes, double amplitude = 0) {
  Points pts;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const double t = latency + sizes[i] / (8.0 * tau);
    pts.emplace_back(sizes[i], t * (1.0 + amplitude * noise(i)));
  }
  return pts;
}

TEST(FitLatencyBandwidth, RecoversExactParameters) {
  // 2 us, 10 GB/s = 1.25e9 doubles/s.
  const Points pts = line(2e-6, 1.25e9, sweep_sizes());
  for (FitError e : {FitError::relative, FitError::absolute}) {
    const LinearFit f = fit_latency_bandwidth(pts, e);
    EXPECT_NEAR(f.latency_s, 2e-6, 2e-6 * 1e-9);
    EXPECT_NEAR(f.tau, 1.25e9, 1.25e9 * 1e-9);
    EXPECT_NEAR(f.r2, 1.0, 1e-12);
  }
}

TEST(FitLatencyBandwidth, RecoversParametersFromNoisyTimings) {
  // +-3 % noise on every time: the relative fit stays within a few percent
  // on both parameters.
  const Points pts = line(2e-6, 1.25e9, sweep_sizes(), 0.03);
  const LinearFit f = fit_latency_bandwidth(pts);
  EXPECT_NEAR(f.latency_s, 2e-6, 2e-6 * 0.05);
  EXPECT_NEAR(f.tau, 1.25e9, 1.25e9 * 0.05);
  EXPECT_GT(f.r2, 0.99);
  EXPECT_LT(f.r2, 1.0);
}

TEST(FitLatencyBandwidth, RelativeErrorKeepsTheLatencyThatAbsoluteErrorLoses) {
  // With +-3 % noise the 4 MiB point alone is off by up to ~10 us, far more
  // than the 2 us latency: the absolute fit's intercept is noise.
  const Points pts = line(2e-6, 1.25e9, sweep_sizes(), 0.03);
  const double rel = fit_latency_bandwidth(pts, FitError::relative).latency_s;
  const double abs = fit_latency_bandwidth(pts, FitError::absolute).latency_s;
  EXPECT_LT(std::abs(rel - 2e-6), std::abs(abs - 2e-6));
}

TEST(FitLatencyBandwidth, FlatTimesGiveTauZero) {
  const Points pts = {{8, 1e-6}, {16, 1e-6}, {32, 1e-6}};
  const LinearFit f = fit_latency_bandwidth(pts);
  EXPECT_DOUBLE_EQ(f.latency_s, 1e-6);
  EXPECT_EQ(f.tau, 0.0);
}

TEST(FitLatencyBandwidth, RejectsBadInput) {
  EXPECT_THROW(fit_latency_bandwidth({}), std::invalid_argument);
  EXPECT_THROW(fit_latency_bandwidth({{8, 1e-6}}), std::invalid_argument);
  EXPECT_THROW(fit_latency_bandwidth({{8, 1e-6}, {8, 2e-6}}), std::invalid_argument);
  EXPECT_THROW(fit_latency_bandwidth({{8, 1e-6}, {16, 0.0}}), std::invalid_argument);
  EXPECT_THROW(fit_latency_bandwidth({{-8, 1e-6}, {16, 1e-6}}), std::invalid_argument);
  EXPECT_THROW(fit_latency_bandwidth({{8, 1e-6}, {16, std::nan("")}}), std::invalid_argument);
  EXPECT_THROW(fit_two_regimes({{8, 1e-6}}), std::invalid_argument);
}

// Two regimes like Open MPI's shared-memory transport (docs/method.md §13): 0.2 us and
// 5 GB/s up to the 4 KiB eager limit, 4 us and 11 GB/s above it.
Points two_regimes(double amplitude) {
  Points pts;
  const std::vector<double> sizes = sweep_sizes();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const double b = sizes[i];
    const double t = b <= 4096 ? 0.2e-6 + b / 5e9 : 4e-6 + b / 11e9;
    pts.emplace_back(b, t * (1.0 + amplitude * noise(i + 100)));
  }
  return pts;
}

TEST(FitTwoRegimes, FindsTheKnownBreakExactly) {
  const TwoRegimeFit f = fit_two_regimes(two_regimes(0));
  EXPECT_EQ(f.break_bytes, 4096);
  EXPECT_NEAR(f.eager.latency_s, 0.2e-6, 1e-15);
  EXPECT_NEAR(f.eager.tau, 5e9 / 8, 5e9 / 8 * 1e-9);
  EXPECT_NEAR(f.rendezvous.latency_s, 4e-6, 1e-14);
  EXPECT_NEAR(f.rendezvous.tau, 11e9 / 8, 11e9 / 8 * 1e-9);
  EXPECT_LT(f.sse_two, 1e-20);
  EXPECT_GT(f.sse_one, 1.0);  // one line misses badly across the limit
}

TEST(FitTwoRegimes, FindsTheKnownBreakWithNoise) {
  const TwoRegimeFit f = fit_two_regimes(two_regimes(0.02));
  EXPECT_EQ(f.break_bytes, 4096);
  EXPECT_NEAR(f.eager.latency_s, 0.2e-6, 0.2e-6 * 0.1);
  EXPECT_NEAR(f.rendezvous.latency_s, 4e-6, 4e-6 * 0.1);
  EXPECT_NEAR(f.rendezvous.tau, 11e9 / 8, 11e9 / 8 * 0.05);
  // The eager line spans only 8 B .. 4 KiB, where the size term is at most
  // 0.8 us of ~1 us: its tau is the weakest number of the four.
  EXPECT_NEAR(f.eager.tau, 5e9 / 8, 5e9 / 8 * 0.3);
}

TEST(FitTwoRegimes, OneLineReportsNoBreak) {
  for (double amplitude : {0.0, 0.01}) {
    const Points pts = line(2e-6, 1.25e9, sweep_sizes(), amplitude);
    const TwoRegimeFit f = fit_two_regimes(pts);
    EXPECT_EQ(f.break_bytes, 0) << amplitude;
    const LinearFit all = fit_latency_bandwidth(pts);
    EXPECT_DOUBLE_EQ(f.eager.latency_s, all.latency_s);  // summed in another order
    EXPECT_DOUBLE_EQ(f.rendezvous.tau, all.tau);
  }
}

TEST(FitTwoRegimes, TooFewPointsForTwoRegimes) {
  const TwoRegimeFit f = fit_two_regimes({{8, 1e-6}, {16, 2e-6}, {32, 3e-6}, {64, 9e-6}, {128, 20e-6}});
  EXPECT_EQ(f.break_bytes, 0);
  EXPECT_EQ(f.sse_one, f.sse_two);
}

TEST(FitNonNegative, RecoversAKnownModelExactly) {
  // t = 2e-6 + 3e-9 x + 5e-12 x^2 at x = 10 .. 1e5.
  std::vector<std::vector<double>> f;
  std::vector<double> t;
  for (double x = 10; x <= 1e5; x *= 1.7) {
    f.push_back({1.0, x, x * x});
    t.push_back(2e-6 + 3e-9 * x + 5e-12 * x * x);
  }
  const NonNegativeFit fit = fit_non_negative(f, t);
  EXPECT_NEAR(fit.coefficients[0] / 2e-6, 1.0, 1e-9);
  EXPECT_NEAR(fit.coefficients[1] / 3e-9, 1.0, 1e-9);
  EXPECT_NEAR(fit.coefficients[2] / 5e-12, 1.0, 1e-9);
  EXPECT_EQ(fit.active, 3);
  EXPECT_LT(fit.relative_sse, 1e-20);
}

TEST(FitNonNegative, ANegativeTermBecomesZero) {
  // t = 1e-3 - 1e-9 x: the unconstrained fit has a negative slope; the
  // non-negative one keeps the slope at 0 and fits the level alone.
  std::vector<std::vector<double>> f;
  std::vector<double> t;
  for (double x = 1e3; x <= 1e5; x *= 2) {
    f.push_back({1.0, x});
    t.push_back(1e-3 - 1e-9 * x);
  }
  const NonNegativeFit fit = fit_non_negative(f, t);
  EXPECT_EQ(fit.coefficients[1], 0.0);
  EXPECT_GT(fit.coefficients[0], 0.0);
  EXPECT_EQ(fit.active, 1);
}

TEST(FitNonNegative, RefusesBadInput) {
  EXPECT_THROW(fit_non_negative({}, {}), std::invalid_argument);
  EXPECT_THROW(fit_non_negative({{1.0, 2.0}, {1.0}}, {1.0, 2.0}), std::invalid_argument);
  EXPECT_THROW(fit_non_negative({{1.0, -2.0}}, {1.0}), std::invalid_argument);
  EXPECT_THROW(fit_non_negative({{1.0, 2.0}}, {0.0}), std::invalid_argument);
  EXPECT_THROW(fit_non_negative({std::vector<double>(9, 1.0)}, {1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace mmbench::tuner
