// The lb libmmbench-lb.so serves (src/preload/lb_choice): MMBENCH_LB wins,
// then the profile as `mmbench tune` writes it, else ScaLAPACK's 32; every
// bad value gives the default and a line that names it.
#include "preload/lb_choice.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "profile/machine_profile.hpp"

namespace mmbench::preload {
namespace {

namespace fs = std::filesystem;

class LbChoiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("mmbench_lb_choice_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string file(const std::string& name, const std::string& text) const {
    const std::string p = (dir_ / name).string();
    std::ofstream(p) << text;
    return p;
  }
  // A profile with the given "lb" value (JSON text), otherwise well formed.
  std::string profile_with_lb(const std::string& name, const std::string& lb) const {
    return file(name, std::string("{\"schema\": \"") + profile::kProfileSchema + "\", \"lb\": " + lb + "}");
  }

  fs::path dir_;
};

void expect_default(const LbChoice& c, const std::string& words) {
  EXPECT_EQ(c.lb, kScalapackDefaultLb);
  EXPECT_NE(c.problem.find(words), std::string::npos) << "problem: " << c.problem;
  EXPECT_NE(describe(c).find("serving ScaLAPACK's default lb = 32 instead"), std::string::npos) << describe(c);
  EXPECT_EQ(describe(c).find('\n'), std::string::npos);
}

TEST_F(LbChoiceTest, NothingSetServesTheDefaultSilently) {
  for (const char* v : {static_cast<const char*>(nullptr), ""}) {
    const LbChoice c = choose_lb(v, v);
    EXPECT_EQ(c.lb, 32);
    EXPECT_TRUE(c.problem.empty());
    EXPECT_TRUE(c.source.empty());
    EXPECT_NE(describe(c).find("neither MMBENCH_LB nor MMBENCH_PROFILE"), std::string::npos);
  }
}

TEST_F(LbChoiceTest, EnvironmentValue) {
  LbChoice c = choose_lb("256", nullptr);
  EXPECT_EQ(c.lb, 256);
  EXPECT_EQ(c.source, "MMBENCH_LB");
  EXPECT_TRUE(c.problem.empty());
  EXPECT_EQ(describe(c), "mmbench-lb: serving lb = 256 to PBLAS (from MMBENCH_LB)");
  EXPECT_EQ(choose_lb("064", nullptr).lb, 64);
  EXPECT_EQ(choose_lb("2147483647", nullptr).lb, 2147483647);
}

TEST_F(LbChoiceTest, BadEnvironmentValueFallsBack) {
  for (const char* bad : {"abc", "0", "-5", "+5", " 64", "64 ", "12x", "1.5", "2147483648", "99999999999999999999"}) {
    SCOPED_TRACE(bad);
    expect_default(choose_lb(bad, nullptr), std::string("MMBENCH_LB='") + bad + "' is not a positive integer");
  }
}

TEST_F(LbChoiceTest, EnvironmentWinsOverTheProfile) {
  const std::string good = profile_with_lb("p.json", "48");
  EXPECT_EQ(choose_lb("96", good.c_str()).lb, 96);
  // Also over a broken profile (which is then not even read), and a bad
  // MMBENCH_LB is not replaced by the profile: the user asked for it.
  EXPECT_EQ(choose_lb("96", (dir_ / "missing.json").c_str()).lb, 96);
  expect_default(choose_lb("x", good.c_str()), "MMBENCH_LB='x'");
}

TEST_F(LbChoiceTest, ProfileAsMmbenchWritesIt) {
  profile::MachineProfile p;  // the fields write_profile insists on
  p.host = "node";
  p.cpu_model = "cpu";
  p.cores = 2;
  p.date = "2025-01-01T00:00:00Z";
  p.problem = {4096, 1, 2, 32, 2048, 0.98, false};
  p.lb = 192;
  p.lb_at_max = 256;
  p.peak_dgemm_mflops = 1000;
  p.t_op_s = 1e-9;
  const std::string path = (dir_ / "node.json").string();
  profile::write_profile(p, path);
  const LbChoice c = choose_lb(nullptr, path.c_str());
  EXPECT_EQ(c.lb, 192);
  EXPECT_TRUE(c.problem.empty()) << c.problem;
  EXPECT_EQ(c.source, "MMBENCH_PROFILE=" + path);
  EXPECT_EQ(describe(c), "mmbench-lb: serving lb = 192 to PBLAS (from MMBENCH_PROFILE=" + path +
                            "), each PDGEMM's capped at 8 panels per process (at least 32)");
}

// A profile with lb_panels: the cap keeps that many panels per share; a bad
// value is refused like a bad lb (the default served, the field named).
TEST_F(LbChoiceTest, ProfilePanelsLoosenTheCap) {
  const std::string path = file(
      "panels.json", std::string("{\"schema\": \"") + profile::kProfileSchema + "\", \"lb\": 512, \"lb_panels\": 2}");
  const LbChoice c = choose_lb(nullptr, path.c_str());
  ASSERT_EQ(c.lb, 512);
  EXPECT_EQ(c.cap.panels, 2);
  EXPECT_EQ(lb_for_call(c, 1024, 1, 2, 64, kPanelLengthUnknown), 256);
  EXPECT_EQ(lb_for_call(c, 4096, 1, 2, 64, kPanelLengthUnknown), 512);
  EXPECT_NE(describe(c).find("capped at 2 panels per process"), std::string::npos) << describe(c);
  const std::string bad = file("bad-panels.json", std::string("{\"schema\": \"") + profile::kProfileSchema +
                                                      "\", \"lb\": 512, \"lb_panels\": 0}");
  expect_default(choose_lb(nullptr, bad.c_str()), "field 'lb_panels' must be >= 1, got 0");
}

// A profile with an lb curve: each PDGEMM gets the curve's lb for its own
// size (core/lb_in_force.hpp lb_on_curve); a malformed curve is refused
// like a bad lb, through the profile's own reader of the group.
TEST_F(LbChoiceTest, ProfileCurveGivesEachPdgemmItsLb) {
  const std::string head =
      std::string("{\"schema\": \"") + profile::kProfileSchema + "\", \"lb\": 210, \"rule_lb\": 420, ";
  const std::string path = file("curve.json", head +
                                                  "\"lb_panels\": 4, \"lb_curve\": {\"points\": ["
                                                  "{\"n\": 1024, \"share\": 512, \"lb\": 32, \"rounds\": 14}, "
                                                  "{\"n\": 2048, \"share\": 1024, \"lb\": 210, \"rounds\": 7}]}}");
  const LbChoice c = choose_lb(nullptr, path.c_str());
  ASSERT_EQ(c.lb, 210) << c.problem;
  EXPECT_EQ(c.cap.curve.count, 2);
  EXPECT_EQ(lb_for_call(c, 1024, 1, 2, 64, kPanelLengthUnknown), 32);
  EXPECT_EQ(lb_for_call(c, 2048, 1, 2, 64, kPanelLengthUnknown), 210);
  EXPECT_EQ(lb_for_call(c, 8192, 1, 2, 64, kPanelLengthUnknown), 448);
  EXPECT_EQ(lb_for_call(c, 0, 1, 2, 64, kPanelLengthUnknown), 210);  // not in a PDGEMM: the profile's lb
  // Its panels of 16384 doubles hold lb to 192 (32 MiB: core/lb_in_force.hpp).
  EXPECT_EQ(lb_for_call(c, 16384, 1, 2, 64, panel_length(16384, 16384, 1, 2)), 192);
  EXPECT_NE(describe(c).find("lb curve"), std::string::npos) << describe(c);
  const std::string bad = file("bad-curve.json", head +
                                                     "\"lb_curve\": {\"points\": ["
                                                     "{\"n\": 1024, \"share\": 512, \"lb\": 0, \"rounds\": 14}]}}");
  expect_default(choose_lb(nullptr, bad.c_str()), "field 'lb_curve.points[0].lb' must be >= 1");
}

// A profile's lb was tuned at one size: each PDGEMM gets it capped at its
// own k and grid (core/lb_in_force.hpp: max(32, share / 8) in whole blocks);
// MMBENCH_LB is the user's choice and is served as given.
TEST_F(LbChoiceTest, ProfileLbIsCappedPerPdgemm) {
  const std::string path = profile_with_lb("wide.json", "868");
  const LbChoice c = choose_lb(nullptr, path.c_str());
  ASSERT_EQ(c.lb, 868);
  EXPECT_EQ(c.cap.panels, kLbPanelsPerProcess);
  // k = 1024 on 1 x 2, nb = 64: share 512, 512 / 8 = 64 -> 64.
  EXPECT_EQ(lb_for_call(c, 1024, 1, 2, 64, kPanelLengthUnknown), 64);
  // k = 300 on 1 x 2 (the preload tests' n): share 150, 150 / 8 = 18 -> the floor 32.
  EXPECT_EQ(lb_for_call(c, 300, 1, 2, 64, kPanelLengthUnknown), 32);
  // k = 8192 on 2 x 1: share 4096, 4096 / 8 = 512 -> 512.
  EXPECT_EQ(lb_for_call(c, 8192, 2, 1, 64, kPanelLengthUnknown), 512);
  // k = 65536 on 1 x 2: cap 4096, above the profile's lb -> 868.
  EXPECT_EQ(lb_for_call(c, 65536, 1, 2, 64, kPanelLengthUnknown), 868);
  // No PDGEMM known (another PBLAS routine asked): the profile's lb.
  EXPECT_EQ(lb_for_call(c, 0, 1, 1, 1, kPanelLengthUnknown), 868);

  const LbChoice e = choose_lb("868", path.c_str());
  EXPECT_EQ(e.cap.panels, 0);
  EXPECT_EQ(lb_for_call(e, 1024, 1, 2, 64, kPanelLengthUnknown), 868);
  // The default is the default.
  EXPECT_EQ(lb_for_call(choose_lb(nullptr, nullptr), 1024, 1, 2, 64, kPanelLengthUnknown), 32);
}

TEST_F(LbChoiceTest, BadProfilesFallBack) {
  expect_default(choose_lb(nullptr, (dir_ / "missing.json").c_str()), "missing.json: cannot open it (No such file");
  expect_default(choose_lb(nullptr, dir_.c_str()), "cannot read it");
  expect_default(choose_lb(nullptr, file("a.json", "{\"lb\": 64,,}").c_str()), "a.json: not valid JSON");
  expect_default(choose_lb(nullptr, file("b.json", "").c_str()), "not valid JSON");
  expect_default(choose_lb(nullptr, file("c.json", "[64]").c_str()), "not a JSON object");
  expect_default(choose_lb(nullptr, file("d.json", "{\"lb\": 64}").c_str()), "not an mmbench profile");
  expect_default(choose_lb(nullptr, file("e.json", "{\"schema\": \"mmbench-profile/0\", \"lb\": 64}").c_str()),
                 "not an mmbench profile");
  expect_default(
      choose_lb(nullptr, file("f.json", std::string("{\"schema\": \"") + profile::kProfileSchema + "\"}").c_str()),
      "field 'lb' is missing");
  // The profile's own reader (profile/lb_record.hpp) and its wording.
  const std::pair<const char*, const char*> bad[] = {
      {"0", "must be >= 1, got 0"},
      {"-3", "must be >= 1, got -3"},
      {"1.5", "must be an integer, got number"},
      {"\"64\"", "must be an integer, got string"},
      {"null", "must be an integer, got null"},
      {"2147483648", "must be <= 2147483647, got 2147483648"},
      {"18446744073709551615", "must be <= 2147483647, got 18446744073709551615"}};
  for (const auto& [lb, words] : bad) {
    SCOPED_TRACE(lb);
    expect_default(choose_lb(nullptr, profile_with_lb("g.json", lb).c_str()), std::string("field 'lb' ") + words);
  }
}

}  // namespace
}  // namespace mmbench::preload
