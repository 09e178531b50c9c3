// Tests of a stale profile: the run's check of its peer against the profile
// (cli/profile_drift.hpp) and what `tune --refresh` makes of new rates
// (tuner/profile_refresh.hpp). No timing: both are pure functions here.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/profile_drift.hpp"
#include "tuner/profile_refresh.hpp"

namespace mmbench {
namespace {

using cli::assess_drift;
using cli::PeerCheck;

TEST(ProfileDrift, TheHeadersExampleIsStaleAndFaster) {
  // noise 0.06, peer 1.00 s [0.98, 1.03], predicted 1.20 s > 1.092.
  const cli::ProfileDrift d = assess_drift({{2048, 2048, 2048, 1.00, 0.98, 1.03, 1.20}}, 0.06);
  EXPECT_TRUE(d.checked);
  EXPECT_TRUE(d.stale);
  EXPECT_NEAR(d.speed, 1.20, 1e-12);
  const std::string line = cli::describe_drift(d, "configs/vm.json");
  EXPECT_NE(line.find("1.20x faster"), std::string::npos) << line;
  EXPECT_NE(line.find("n = 2048"), std::string::npos) << line;
  EXPECT_NE(line.find("tune --refresh --profile configs/vm.json"), std::string::npos) << line;
}

TEST(ProfileDrift, WithinTheIntervalWidenedByTheNoiseIsNotStale) {
  // 1.09 <= 1.03 * 1.06 = 1.0918: inside.
  EXPECT_FALSE(assess_drift({{1024, 1024, 1024, 1.00, 0.98, 1.03, 1.09}}, 0.06).stale);
  // Slower side: lo / (1 + noise) = 0.98 / 1.06 = 0.92453.
  EXPECT_FALSE(assess_drift({{1024, 1024, 1024, 1.00, 0.98, 1.03, 0.925}}, 0.06).stale);
  const cli::ProfileDrift slow = assess_drift({{1024, 1024, 1024, 1.00, 0.98, 1.03, 0.92}}, 0.06);
  EXPECT_TRUE(slow.stale);
  EXPECT_NE(cli::describe_drift(slow, "p.json").find("1.09x slower"), std::string::npos);
  EXPECT_EQ(cli::describe_drift(assess_drift({{1024, 1024, 1024, 1.00, 0.98, 1.03, 1.0}}, 0.06), "p.json"), "");
}

TEST(ProfileDrift, TheToleranceIsAtLeastTheModelsErrorOnThePeer) {
  // A profile that recorded 2 % noise: 1.07 is within 1.03 * 1.05 = 1.0815.
  const cli::ProfileDrift d = assess_drift({{1024, 1024, 1024, 1.00, 0.98, 1.03, 1.07}}, 0.02);
  EXPECT_EQ(d.noise, cli::kModelPeerError);
  EXPECT_FALSE(d.stale);
  EXPECT_TRUE(assess_drift({{1024, 1024, 1024, 1.00, 0.98, 1.03, 1.09}}, 0.02).stale);
}

TEST(ProfileDrift, EverySizeMustDisagreeTheSameWay) {
  const PeerCheck fast{1024, 1024, 1024, 1.0, 0.99, 1.01, 1.3};
  const PeerCheck slow{2048, 2048, 2048, 1.0, 0.99, 1.01, 0.7};
  const PeerCheck fine{4096, 4096, 4096, 1.0, 0.99, 1.01, 1.0};
  EXPECT_TRUE(assess_drift({fast, fast}, 0.06).stale);
  EXPECT_FALSE(assess_drift({fast, slow}, 0.06).stale);
  EXPECT_FALSE(assess_drift({fast, fine}, 0.06).stale);
  EXPECT_NEAR(assess_drift({fast, slow, fine}, 0.06).speed, 1.0, 1e-12);  // median of 1.3, 0.7, 1.0
}

TEST(ProfileDrift, NoPredictionNoCheckAndNoRecordedNoise) {
  EXPECT_FALSE(assess_drift({{1024, 1024, 1024, 1.0, 0.99, 1.01, 0.0}}, 0.06).checked);
  EXPECT_FALSE(assess_drift({}, 0.06).checked);
  const cli::ProfileDrift d = assess_drift({{1024, 1024, 1024, 1.0, 1.0, 1.0, 1.04}}, 0);
  EXPECT_EQ(d.noise, cli::kModelPeerError);
  EXPECT_FALSE(d.stale);  // 1.04 <= 1.05
  const nlohmann::json j = cli::drift_json(d, "p.json");
  EXPECT_EQ(j.at("profile"), "p.json");
  EXPECT_EQ(j.at("sizes").size(), 1u);
  EXPECT_DOUBLE_EQ(j.at("sizes")[0].at("predicted_s").get<double>(), 1.04);
}

profile::MachineProfile three_points() {
  profile::MachineProfile p;
  p.date = "2026-11-27T10:00:00Z";
  p.dgemm_profile = {{1024, 512, 32, 16000}, {1024, 512, 128, 17000}, {512, 512, 512, 18000}};
  p.t_op_s = 1 / 17e9;
  p.peak_dgemm_mflops = 18000;
  p.dgemm_single_mflops = 17500;
  p.dgemm_threaded_mflops = 33000;
  p.kernel_model.measured = true;
  p.kernel_model.dgemm = {1e-6, 2 / 17e9, 1e-10, 2e-10, 3e-10, 0.05, 0.02, 10, 30};
  return p;
}

TEST(ProfileRefresh, TheHeadersExample) {
  // Ratios 1.15, 1.153, 1.139: the median 1.15.
  const profile::MachineProfile old = three_points();
  const profile::MachineProfile p =
      tuner::apply_refresh(old, {18400, 19600, 20500}, std::nullopt, "2026-11-27T11:00:00Z", 4.2);
  EXPECT_DOUBLE_EQ(p.dgemm_profile[0].mflops, 18400);
  EXPECT_DOUBLE_EQ(p.dgemm_profile[2].mflops, 20500);
  EXPECT_EQ(p.dgemm_profile[1].k, 128);  // the shapes stay
  EXPECT_NEAR(p.refreshed.factor, 1.15, 1e-12);
  EXPECT_EQ(p.refreshed.points, 3);
  EXPECT_EQ(p.refreshed.date, "2026-11-27T11:00:00Z");
  EXPECT_NEAR(p.t_op_s, old.t_op_s / 1.15, 1e-24);
  EXPECT_NEAR(p.peak_dgemm_mflops, 18000 * 1.15, 1e-9);
  EXPECT_NEAR(p.dgemm_single_mflops, 17500 * 1.15, 1e-9);
  EXPECT_NEAR(p.dgemm_threaded_mflops, 33000 * 1.15, 1e-9);
  // The kernel model's DGEMM times fall by the factor at every shape; its
  // spreads stay.
  EXPECT_NEAR(p.kernel_model.dgemm.seconds(300, 200, 100), old.kernel_model.dgemm.seconds(300, 200, 100) / 1.15, 1e-15);
  EXPECT_EQ(p.kernel_model.dgemm.log_sd, 0.05);
  EXPECT_EQ(p.date, old.date);  // still the tune's date; refreshed.date is the refresh's
  EXPECT_NE(p.notes.find("x 1.150"), std::string::npos) << p.notes;
  EXPECT_FALSE(p.cpu_peak.has_value());
}

TEST(ProfileRefresh, RefusesWhatItCannotScale) {
  const profile::MachineProfile old = three_points();
  EXPECT_THROW(tuner::apply_refresh(old, {1, 2}, std::nullopt, "d", 0), std::invalid_argument);
  EXPECT_THROW(tuner::apply_refresh(old, {1, 0, 2}, std::nullopt, "d", 0), std::invalid_argument);
  EXPECT_THROW(tuner::apply_refresh(profile::MachineProfile{}, {}, std::nullopt, "d", 0), std::invalid_argument);
}

}  // namespace
}  // namespace mmbench
