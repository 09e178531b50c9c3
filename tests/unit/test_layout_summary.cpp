// The run's layout line (results/layout_summary.hpp): per problem, the
// fastest hybrid row against the fastest row of one thread per rank, paired
// round by round; nothing where one of the two is missing; the dgemm peer
// and failed rows never count.
#include "results/layout_summary.hpp"

#include <gtest/gtest.h>

#include "algos/registry.hpp"

using namespace mmbench;
using namespace mmbench::results;

namespace {

struct Sweep {
  std::vector<ResultRow> rows;
  std::vector<run::Measured> measured;
  std::vector<run::Config> configs;

  void add(const char* algo, int hybrid, int p, int threads, std::vector<double> times, Index n = 512,
           ResultRow::Status status = ResultRow::Status::ok) {
    algos::Options o;
    o.hybrid = hybrid;
    configs.emplace_back(algos::find_algorithm(algo), algos::Problem{n, n, n}, o);
    ResultRow r;
    r.algo = algo;
    r.hybrid = hybrid;
    r.p = p;
    r.threads = threads;
    r.pb = {n, n, n};
    r.status = status;
    ResultRow::Timing t;
    t.interval = median_interval(times);
    r.timing = t;
    rows.push_back(r);
    run::Measured m;
    m.times = std::move(times);
    measured.push_back(m);
  }
  std::vector<std::string> lines() const { return layout_summary(rows, measured, configs); }
};

}  // namespace

TEST(LayoutSummary, TheFastestOfEachLayoutPairedRoundByRound) {
  Sweep s;
  s.add("ring", 1, 4, 1, {1.0, 1.1, 1.2});
  s.add("tpmm", 1, 4, 1, {0.9, 1.0, 1.1});   // the fastest one thread per rank
  s.add("ring", 2, 2, 2, {0.8, 0.85, 0.9});  // the fastest hybrid
  s.add("tpmm", 2, 2, 2, {1.5, 1.5, 1.5});
  s.add("dgemm", 1, 1, 4, {0.1, 0.1, 0.1});  // the peer: its own column, never a layout here
  const std::vector<std::string> l = s.lines();
  ASSERT_EQ(l.size(), 1u);
  // tpmm / ring hybrid per round: 0.9/0.8, 1.0/0.85, 1.1/0.9 -> median 1.176.
  EXPECT_NE(l[0].find("ring hybrid=2 (2 ranks x 2 threads) 1.176x"), std::string::npos) << l[0];
  EXPECT_NE(l[0].find("the speed of tpmm (4 ranks x 1 thread)"), std::string::npos) << l[0];
  EXPECT_NE(l[0].find("the hybrid won"), std::string::npos) << l[0];
}

TEST(LayoutSummary, OneLinePerProblemWithBothLayouts) {
  Sweep s;
  s.add("ring", 1, 4, 1, {1.0, 1.0, 1.0}, 512);
  s.add("ring", 2, 2, 2, {2.0, 2.0, 2.0}, 512);
  s.add("ring", 1, 4, 1, {1.0, 1.0, 1.0}, 1024);  // no hybrid at 1024
  s.add("ring", 2, 2, 2, {0.5, 0.5, 0.5}, 1024, ResultRow::Status::failed);
  const std::vector<std::string> l = s.lines();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_NE(l[0].find("m=512"), std::string::npos) << l[0];
  EXPECT_NE(l[0].find("0.500x"), std::string::npos) << l[0];
  EXPECT_NE(l[0].find("one thread per rank won"), std::string::npos) << l[0];
  Sweep plain;
  plain.add("ring", 1, 4, 1, {1.0, 1.0, 1.0});
  EXPECT_TRUE(plain.lines().empty());
  // One round: a ratio, no verdict (its interval covers nothing).
  Sweep once;
  once.add("ring", 1, 4, 1, {1.0});
  once.add("ring", 2, 2, 2, {2.0});
  ASSERT_EQ(once.lines().size(), 1u);
  EXPECT_NE(once.lines()[0].find("too few rounds to say"), std::string::npos) << once.lines()[0];
}
