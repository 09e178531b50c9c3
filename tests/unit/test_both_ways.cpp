// Tests of tune's check of both directions at once against one direction
// (tuner/network_calibration.hpp, both_ways_warning): which layouts it
// judges, where it warns, and what the line names; and of the sweep tune
// keeps when it measures the all-to-all again (faster_alltoall); of when a
// node link or backbone counts as a capacity (capacity_short); and of the
// loop that measures a short value again (measure_again_while).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "profile/machine_profile.hpp"
#include "tuner/network_calibration.hpp"

namespace mmbench::tuner {
namespace {

// MB/s (1e6 bytes per second) as the profile's doubles per second.
double mb_per_s(double mb) { return mb * 1e6 / 8; }

TEST(BothWays, WarnsWhereTheExchangeRanAtHalfTheOneWayRate) {
  const std::string w = both_ways_warning(mb_per_s(60), mb_per_s(30), 2, 1);
  ASSERT_FALSE(w.empty());
  EXPECT_NE(w.find("warning: "), std::string::npos) << w;
  EXPECT_NE(w.find("0.03 GB/s per rank, 0.50 of one direction's rate (0.06 GB/s ping-pong)"), std::string::npos) << w;
  EXPECT_NE(w.find("mmbench run --validate"), std::string::npos) << w;
}

TEST(BothWays, SilentWhereBothDirectionsGetTheOneWayRate) {
  EXPECT_EQ(both_ways_warning(mb_per_s(59.2), mb_per_s(58.3), 2, 1), "");
  // The threshold itself is not short: 3/4 of the ping-pong passes.
  EXPECT_EQ(both_ways_warning(mb_per_s(60), mb_per_s(60) * kBothWaysShortfall, 2, 1), "");
  EXPECT_FALSE(both_ways_warning(mb_per_s(60), mb_per_s(60) * kBothWaysShortfall * 0.99, 2, 1).empty());
}

TEST(BothWays, OnlyOneRankOnEachOfTwoNodesIsJudged) {
  // Two ranks a node: four flows share the link, a lower all-to-all is the
  // layout's. Three nodes: each rank's all-to-all crosses two links. One
  // node: shared memory, not a link.
  EXPECT_EQ(both_ways_warning(mb_per_s(60), mb_per_s(30), 2, 2), "");
  EXPECT_EQ(both_ways_warning(mb_per_s(60), mb_per_s(30), 3, 1), "");
  EXPECT_EQ(both_ways_warning(mb_per_s(60), mb_per_s(30), 1, 2), "");
}

TEST(BothWays, SilentWhereARateIsMissing) {
  EXPECT_EQ(both_ways_warning(0, mb_per_s(30), 2, 1), "");
  EXPECT_EQ(both_ways_warning(mb_per_s(60), 0, 2, 1), "");
}

// Two tunes on 2 x 1 namespace clusters (results/netns-validation-7rounds-
// zen5-20261207/): at 500 Mbit/s tune's all-to-all came out at half the
// ping-pong while the runs after it crossed at the full rate; at 1 Gbit/s
// both agreed. The line comes from the recorded values, as tune prints it.
TEST(BothWays, RecordedTunesAcrossTwoNodes) {
  const std::string dir = std::string(MMBENCH_SOURCE_DIR) + "/results/netns-validation-7rounds-zen5-20261207/";
  auto warning_of = [&](const std::string& name) {
    const profile::MachineProfile p = profile::read_profile(dir + name);
    return both_ways_warning(p.tau_pingpong, p.tau_alltoall, p.network_levels.nodes,
                             p.network_levels.levels.ranks_per_node);
  };
  EXPECT_NE(warning_of("2x1-500mbit-profile.json").find("0.50 of one direction's rate"), std::string::npos);
  EXPECT_EQ(warning_of("2x1-1gbit-profile.json"), "");
}

// A sweep of two blocks whose largest crossed at `mb` MB/s per rank.
std::vector<AlltoallPoint> sweep(double small_mb, double mb) {
  return {{1 << 20, 0, mb_per_s(small_mb)}, {4 << 20, 0, mb_per_s(mb)}};
}

TEST(BothWaysAgain, TheRateComesFromTheLargestBlock) {
  EXPECT_DOUBLE_EQ(alltoall_tau(sweep(50, 29.8)), mb_per_s(29.8));
  // Order does not matter: the largest block, not the last.
  EXPECT_DOUBLE_EQ(alltoall_tau({{4 << 20, 0, mb_per_s(58.1)}, {1 << 20, 0, mb_per_s(40)}}), mb_per_s(58.1));
  EXPECT_EQ(alltoall_tau({}), 0.0);
}

TEST(BothWaysAgain, KeepsTheFasterSweep) {
  // The recorded 500 Mbit/s case: a slow spell at 29.8, then 58.1 again.
  const auto slow = sweep(52, 29.8), full = sweep(40, 58.1);
  EXPECT_EQ(&faster_alltoall(slow, full), &full);
  EXPECT_EQ(&faster_alltoall(full, slow), &full);
  // A link whose directions share it gives half every time: the first kept,
  // and the check still warns on it.
  const auto again = sweep(30, 29.8);
  EXPECT_EQ(&faster_alltoall(slow, again), &slow);
  EXPECT_FALSE(both_ways_warning(mb_per_s(59.2), alltoall_tau(faster_alltoall(slow, again)), 2, 1).empty());
  // Judged at the largest block: a faster small block does not win.
  const auto small_fast = sweep(80, 29.0);
  EXPECT_EQ(&faster_alltoall(slow, small_fast), &slow);
}

TEST(Capacity, ShortWhereTheFlowsTogetherCarriedLessThanAlone) {
  // 2 x 1 at 500 Mbit/s: the backbone's two flows (both directions) alone
  // would carry 2 x 59 MB/s.
  EXPECT_FALSE(capacity_short(mb_per_s(112), mb_per_s(118)));  // within 10 %: unlimited
  EXPECT_TRUE(capacity_short(mb_per_s(60), mb_per_s(118)));    // half: a capacity of 60
  // The threshold itself is not short.
  EXPECT_FALSE(capacity_short(mb_per_s(118) * kCapacityShortfall, mb_per_s(118)));
  EXPECT_TRUE(capacity_short(mb_per_s(118) * kCapacityShortfall * 0.99, mb_per_s(118)));
  // Nothing to compare with: never a capacity.
  EXPECT_FALSE(capacity_short(mb_per_s(60), 0));
}

// The loop over rates a fake link gives one after the other; measure()
// keeps the fastest, as tune's does.
struct FakeLink {
  std::vector<double> rates;  // what each measurement gives, in order
  double kept;                // the first measurement's
  int pauses = 0;
  std::vector<double> again(double short_below) {
    std::size_t next = 0;
    return measure_again_while([&] { return kept < short_below; }, [&] { ++pauses; },
                               [&] {
                                 const double r = rates.at(next++);
                                 kept = std::max(kept, r);
                                 return r;
                               });
  }
};

TEST(MeasureAgain, NotShortMeasuresNothingAgain) {
  FakeLink link{{}, mb_per_s(58.3)};
  EXPECT_TRUE(link.again(mb_per_s(44)).empty());
  EXPECT_EQ(link.pauses, 0);
}

TEST(MeasureAgain, StopsOnceTheKeptValueIsNoLongerShort) {
  // The busy-loop tune of docs/results.md: 34.3, then 52.3 after a pause.
  FakeLink link{{mb_per_s(52.3), mb_per_s(20)}, mb_per_s(34.3)};
  EXPECT_EQ(link.again(mb_per_s(44)), std::vector<double>{mb_per_s(52.3)});
  EXPECT_EQ(link.pauses, 1);
  EXPECT_DOUBLE_EQ(link.kept, mb_per_s(52.3));
}

TEST(MeasureAgain, AtMostTheRetriesWhereItStaysShort) {
  // A link whose directions share it: half every time, kept, and the
  // caller's check still finds it short.
  FakeLink link{{mb_per_s(29.1), mb_per_s(28.0), mb_per_s(60)}, mb_per_s(29.5)};
  const std::vector<double> again = link.again(mb_per_s(44));
  ASSERT_EQ(again.size(), static_cast<std::size_t>(kRemeasureRetries));
  EXPECT_EQ(again, (std::vector<double>{mb_per_s(29.1), mb_per_s(28.0)}));
  EXPECT_EQ(link.pauses, kRemeasureRetries);  // a pause before every measurement
  EXPECT_DOUBLE_EQ(link.kept, mb_per_s(29.5));
}

}  // namespace
}  // namespace mmbench::tuner
