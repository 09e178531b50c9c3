// Tests of the charged simulation's seeded noise: reproducible from a seed,
// independent across seeds and streams, and of the spread asked for.
#include "core/stats/lognormal_noise.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace mmbench {
namespace {

// The first three standard normals of seed 1, stream 0.
constexpr double kFirstNormals[] = {0.90509027085977667, -0.24450996365921193, 0.19101173115655787};

std::vector<double> draws(std::uint64_t seed, std::uint64_t stream, int count, double sigma = 0.1) {
  LognormalNoise g(seed, stream);
  std::vector<double> out;
  for (int i = 0; i < count; ++i) out.push_back(g.factor(sigma));
  return out;
}

TEST(LognormalNoise, SameSeedSameDraws) {
  EXPECT_EQ(draws(42, 3, 1000), draws(42, 3, 1000));
}

TEST(LognormalNoise, DifferentSeedOrStreamDifferentDraws) {
  const std::vector<double> base = draws(42, 3, 100);
  for (const std::vector<double>& other : {draws(43, 3, 100), draws(42, 4, 100), draws(41, 4, 100)}) {
    int same = 0;
    for (std::size_t i = 0; i < base.size(); ++i) same += base[i] == other[i];
    EXPECT_EQ(same, 0);
  }
}

TEST(LognormalNoise, TheSameValuesOnEveryPlatform) {
  // Integer arithmetic and Box-Muller, not std::normal_distribution: these
  // values must not change with the compiler or the standard library (the
  // last digits may differ with a libm's exp/log/sin/cos, hence 1e-12).
  LognormalNoise g(1, 0);
  const double want[] = {kFirstNormals[0], kFirstNormals[1], kFirstNormals[2]};
  for (double w : want) EXPECT_NEAR(g.normal(), w, 1e-12);
}

TEST(LognormalNoise, StandardNormalAndTheSpreadAskedFor) {
  LognormalNoise g(2026, 0);
  const int count = 40000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < count; ++i) {
    const double z = g.normal();
    sum += z;
    sum2 += z * z;
  }
  const double mean = sum / count, sd = std::sqrt(sum2 / count - mean * mean);
  EXPECT_NEAR(mean, 0.0, 0.02);
  EXPECT_NEAR(sd, 1.0, 0.02);
  // ln(factor(sigma)) has sd sigma and median 0.
  std::vector<double> logs;
  for (double f : draws(7, 1, count, 0.05)) logs.push_back(std::log(f));
  double m = 0, s2 = 0;
  for (double l : logs) m += l;
  m /= count;
  for (double l : logs) s2 += (l - m) * (l - m);
  EXPECT_NEAR(std::sqrt(s2 / count), 0.05, 0.002);
  EXPECT_NEAR(m, 0.0, 0.002);
}

TEST(LognormalNoise, NoSpreadIsOneAndDrawsNothing) {
  LognormalNoise a(5, 0), b(5, 0);
  EXPECT_EQ(a.factor(0.0), 1.0);
  EXPECT_EQ(a.factor(-1.0), 1.0);
  EXPECT_EQ(a.factor(std::nan("")), 1.0);
  EXPECT_EQ(a.factor(0.1), b.factor(0.1));  // the zero-spread calls drew nothing
}

}  // namespace
}  // namespace mmbench
