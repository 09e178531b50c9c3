// Tests of the kernel model's fits against synthetic timings with known
// coefficients and known multiplicative noise, and of the shapes tune times.
#include "tuner/kernel_model_fit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/stats/lognormal_noise.hpp"
#include "core/stats/timing.hpp"
#include "tuner/kernel_timings.hpp"

namespace mmbench::tuner {
namespace {

// A machine like the VM: ~45 GFLOP/s asymptotic, a few microseconds per
// call, surface terms that make thin shapes slower per flop.
DgemmTimeFit truth() {
  DgemmTimeFit f;
  f.a_s = 4e-6;
  f.b_s_per_mnk = 2.0 / 45e9;
  f.c_s_per_mn = 2e-9;
  f.d_s_per_mk = 5e-10;
  f.e_s_per_nk = 8e-10;
  return f;
}

// `reps` calls of every shape tune times at N = 2048, each t·exp(sigma Z).
std::vector<DgemmSample> samples(const DgemmTimeFit& f, int reps, double sigma, std::uint64_t seed) {
  LognormalNoise noise(seed, 0);
  std::vector<DgemmSample> out;
  for (int r = 0; r < reps; ++r)
    for (const KernelShape& s : kernel_model_shapes(2048))
      out.push_back({s.m, s.n, s.k, f.seconds(double(s.m), double(s.n), double(s.k)) * noise.factor(sigma)});
  return out;
}

TEST(KernelModelFit, RecoversKnownDgemmCoefficients) {
  const DgemmTimeFit want = truth();
  const DgemmTimeFit got = fit_dgemm_time(samples(want, 2, 0.0, 1));
  ASSERT_TRUE(got.fitted());
  EXPECT_NEAR(got.b_s_per_mnk / want.b_s_per_mnk, 1.0, 1e-6);
  EXPECT_NEAR(got.c_s_per_mn / want.c_s_per_mn, 1.0, 1e-4);
  EXPECT_NEAR(got.d_s_per_mk / want.d_s_per_mk, 1.0, 1e-3);
  EXPECT_NEAR(got.e_s_per_nk / want.e_s_per_nk, 1.0, 1e-3);
  EXPECT_NEAR(got.a_s / want.a_s, 1.0, 1e-3);
  EXPECT_LT(got.log_sd, 1e-6);
  EXPECT_EQ(got.repeat_log_sd, 0.0);
  EXPECT_EQ(got.shapes, 14);
  EXPECT_EQ(got.points, 28);
}

TEST(KernelModelFit, NoisyDgemmTimingsGiveTheTimesAndTheSpread) {
  const DgemmTimeFit want = truth();
  const double sigma = 0.05;
  const std::vector<DgemmSample> data = samples(want, 40, sigma, 7);
  const DgemmTimeFit got = fit_dgemm_time(data);
  ASSERT_TRUE(got.fitted());
  // The flop term, which every large product depends on, within 1 %; every
  // shape's price within 2 % of the truth (the small surface terms trade
  // off against each other under noise, their sum does not).
  EXPECT_NEAR(got.b_s_per_mnk / want.b_s_per_mnk, 1.0, 0.01);
  for (const KernelShape& s : kernel_model_shapes(2048)) {
    const double m = double(s.m), n = double(s.n), k = double(s.k);
    EXPECT_NEAR(got.seconds(m, n, k) / want.seconds(m, n, k), 1.0, 0.02) << s.what;
  }
  // The spread: sd of ln(measured / fitted), and the repeats' own.
  EXPECT_NEAR(got.log_sd, sigma, 0.1 * sigma);
  EXPECT_NEAR(got.repeat_log_sd, sigma, 0.1 * sigma);
  // The level: the median of ln(measured / fitted) is 0.
  std::vector<double> r;
  for (const DgemmSample& d : data) r.push_back(std::log(d.seconds / got.seconds(double(d.m), double(d.n), double(d.k))));
  EXPECT_NEAR(summarize(r).median, 0.0, 1e-9);
}

TEST(KernelModelFit, ModelMisfitShowsInTheSpreadButNotInTheRepeats) {
  // Timings the form cannot follow (a rate that falls with k beyond what the
  // surface terms describe), without noise: the fit's spread is the misfit,
  // the repeats agree exactly.
  std::vector<DgemmSample> data;
  for (int r = 0; r < 3; ++r)
    for (const KernelShape& s : kernel_model_shapes(2048)) {
      const double m = double(s.m), n = double(s.n), k = double(s.k);
      data.push_back({s.m, s.n, s.k, 2.0 * m * n * k / 45e9 * (1.0 + 0.3 * std::sin(std::log(k)))});
    }
  const DgemmTimeFit got = fit_dgemm_time(data);
  EXPECT_GT(got.log_sd, 0.01);
  EXPECT_LT(got.repeat_log_sd, 1e-12);
}

TEST(KernelModelFit, CoefficientsNeverNegative) {
  // A truth with a negative C-surface term (faster than any non-negative
  // model allows for thin k): the fit keeps every coefficient >= 0.
  DgemmTimeFit odd = truth();
  odd.c_s_per_mn = -1e-9;
  odd.a_s = 0;
  const DgemmTimeFit got = fit_dgemm_time(samples(odd, 1, 0.0, 1));
  for (double c : {got.a_s, got.b_s_per_mnk, got.c_s_per_mn, got.d_s_per_mk, got.e_s_per_nk}) EXPECT_GE(c, 0.0);
  EXPECT_GT(got.seconds(1, 1, 1), 0.0);
}

TEST(KernelModelFit, RecoversAPassAndItsSpread) {
  const double a = 3e-6, b = 1.0 / 2.2e10, sigma = 0.08;
  LognormalNoise noise(11, 3);
  std::vector<PassSample> exact, noisy;
  for (int r = 0; r < 60; ++r)
    for (std::int64_t s : kernel_model_pass_sizes(2048)) {
      const double bytes = 24.0 * double(s) * double(s);
      exact.push_back({bytes, a + b * bytes});
      noisy.push_back({bytes, (a + b * bytes) * noise.factor(sigma)});
    }
  const BytesTimeFit e = fit_pass_time(exact);
  EXPECT_NEAR(e.a_s / a, 1.0, 1e-6);
  EXPECT_NEAR(e.b_s_per_byte / b, 1.0, 1e-9);
  EXPECT_LT(e.log_sd, 1e-9);
  EXPECT_EQ(e.sizes, 5);
  const BytesTimeFit n = fit_pass_time(noisy);
  EXPECT_NEAR(n.b_s_per_byte / b, 1.0, 0.02);
  EXPECT_NEAR(n.log_sd, sigma, 0.1 * sigma);
  EXPECT_NEAR(n.repeat_log_sd, sigma, 0.1 * sigma);
}

TEST(KernelModelFit, RefusesTooFewShapesAndBadTimes) {
  EXPECT_THROW(fit_dgemm_time({{64, 64, 64, 1e-4}, {64, 64, 64, 1.1e-4}}), std::invalid_argument);
  EXPECT_THROW(fit_dgemm_time({{64, 64, 64, 1e-4}, {128, 128, 128, 0.0}}), std::invalid_argument);
  EXPECT_THROW(fit_dgemm_time({{0, 64, 64, 1e-4}, {128, 128, 128, 1e-3}}), std::invalid_argument);
  EXPECT_THROW(fit_pass_time({{1e6, 1e-4}}), std::invalid_argument);
  EXPECT_THROW(fit_pass_time({{1e6, 1e-4}, {2e6, -1.0}}), std::invalid_argument);
  try {
    fit_dgemm_time({{64, 64, 64, 1e-4}, {128, 128, 128, std::nan("")}});
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("DGEMM(128, 128, 128)"), std::string::npos) << e.what();
  }
}

// Each shape is timed as PBLAS's panel updates run, C += A B: a fit to
// C = A B timings carries OpenBLAS's extra pass zeroing C.
TEST(KernelModelShapes, TimedAsAnUpdateOfC) {
  const std::int64_t m = 24, n = 16, k = 8;
  const std::vector<double> a(m * k, 1.0), b(k * n, 0.5);
  std::vector<double> c(m * n, 3.0);
  kernel_model_dgemm(m, n, k, a.data(), b.data(), c.data());
  for (double x : c) ASSERT_EQ(x, 3.0 + 0.5 * k);
}

TEST(KernelModelShapes, TheShapesTheAlgorithmsIssue) {
  const std::vector<KernelShape> shapes = kernel_model_shapes(4096);  // clamped to 2048
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> got;
  for (const KernelShape& s : shapes) {
    EXPECT_LE(std::max({s.m, s.n, s.k}), 2048);
    EXPECT_FALSE(s.what.empty());
    got.insert({s.m, s.n, s.k});
  }
  EXPECT_EQ(got.size(), shapes.size());  // no duplicates
  for (auto want : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{2048, 2048, 2048}, {1024, 1024, 1024},
                    {256, 256, 256}, {1024, 1024, 2048}, {256, 256, 2048}, {1024, 1024, 32}, {2048, 32, 2048}})
    EXPECT_TRUE(got.count(want)) << std::get<0>(want) << "x" << std::get<1>(want) << "x" << std::get<2>(want);
  EXPECT_EQ(kernel_model_size(100), 128);
  EXPECT_EQ(kernel_model_size(4096), 2048);
  for (const KernelShape& s : kernel_model_shapes(128)) EXPECT_GE(std::min({s.m, s.n, s.k}), 8) << s.what;
  const std::vector<std::int64_t> sizes = kernel_model_pass_sizes(2048);
  EXPECT_EQ(sizes, (std::vector<std::int64_t>{256, 512, 1024, 1536, 2048}));
  for (std::int64_t s : kernel_model_pass_sizes(130)) EXPECT_EQ(s % 2, 0);
}

}  // namespace
}  // namespace mmbench::tuner
