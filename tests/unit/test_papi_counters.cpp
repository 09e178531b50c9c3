// The PAPI wrapper must never fail for missing counters: either it counts,
// or it says why once and returns zeros.
#include "tuner/papi_counters.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mmbench::tuner {
namespace {

double busy_work() {
  std::vector<double> v(1 << 20, 1.0);
  double s = 0;
  for (int rep = 0; rep < 4; ++rep) {
    for (double& x : v) s += (x *= 1.000001);
  }
  return s;
}

TEST(PapiCounters, CountsOrExplainsWhyNot) {
  PapiCounters counters;  // must not throw, counters or not
  counters.start();
  const double s = busy_work();
  const CounterValues v = counters.stop();
  EXPECT_GT(s, 0.0);
  if (counters.available()) {
    EXPECT_TRUE(counters.message().empty());
    EXPECT_GT(v.total_cycles, 1000);  // 4M multiply-adds take far more cycles
    EXPECT_GE(v.l2_misses, 0);
  } else {
    EXPECT_EQ(counters.message().rfind("no hardware counters", 0), 0u) << counters.message();
    EXPECT_EQ(v.total_cycles, 0);
    EXPECT_EQ(v.l2_misses, 0);
  }
  std::printf("PAPI: %s\n", counters.available() ? "counters available" : counters.message().c_str());
}

TEST(PapiCounters, SecondInstanceBehavesTheSame) {
  // PAPI_library_init runs once per process; a second event set must agree.
  PapiCounters first;
  PapiCounters second;
  EXPECT_EQ(first.available(), second.available());
  EXPECT_EQ(first.message(), second.message());
  second.stop();  // stop without start is harmless
}

}  // namespace
}  // namespace mmbench::tuner
