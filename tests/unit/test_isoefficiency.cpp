// Isoefficiency (ranking/isoefficiency.hpp) on cases solvable by hand with
// the paper model (docs/method.md §7.2, §9.1).
//
// tpMM (eqs. 2.14, 2.15, exact division): T(n, p) = 2 (p-1) (lambda +
// n^2/(p tau)) + 2 n^3 t / p and T_1 = 2 n^3 t, so efficiency >= E means
//     t n^3 - (K / tau) n^2 - K lambda p >= 0,   K = (p - 1) E / (1 - E),
// one positive root n*; the answer is ceil(n*). lambda = 0: n* = K / (tau t).
//
// Ring (eqs. 2.12, 2.13) has b = ceil(n/p): at multiples of p it is tpMM's
// formula, in between its efficiency is a saw-tooth below it, so the
// answer lies at or above tpMM's n* and, bisection finding a crossing of E
// within its bracket, within a few teeth of it.
#include <gtest/gtest.h>

#include <cmath>

#include "algos/registry.hpp"
#include "model/paper_model.hpp"
#include "ranking/isoefficiency.hpp"

using namespace mmbench;
using namespace mmbench::ranking;

namespace {

MachineParams thesis(double latency) {
  MachineParams mp;
  mp.latency_s = latency;
  mp.tau = 146e6 / 8;  // 146 MB/s
  mp.t_op = 1 / 3300e6;
  return mp;
}

// The positive root of t n^3 - (K/tau) n^2 - K lambda p = 0 (Cardano; the
// discriminant is positive, one real root).
double tpmm_root(double E, int p, const MachineParams& mp) {
  const double K = (p - 1) * E / (1 - E);
  const double a = mp.t_op, b = -K / mp.tau, d = -K * mp.latency_s * p;
  if (d == 0) return -b / a;
  const double shift = -b / (3 * a);
  const double pp = -b * b / (3 * a * a);
  const double qq = 2 * b * b * b / (27 * a * a * a) + d / a;
  const double disc = qq * qq / 4 + pp * pp * pp / 27;
  return std::cbrt(-qq / 2 + std::sqrt(disc)) + std::cbrt(-qq / 2 - std::sqrt(disc)) + shift;
}

IsoPoint iso(const char* algo, int p, double E, const MachineParams& mp, std::int64_t n_max = 1 << 22,
             CandidateSpace space = {}) {
  return isoefficiency(*algos::find_algorithm(algo), p, E, n_max, {}, mp, ModelKind::paper, space);
}

}  // namespace

TEST(Isoefficiency, TpmmWithoutLatencyIsTheClosedForm) {
  const MachineParams mp = thesis(0);
  for (int p : {2, 4, 16, 64, 256})
    for (double E : {0.25, 0.5, 0.9}) {
      const double root = (p - 1) * E / (1 - E) / (mp.tau * mp.t_op);  // K / (tau t)
      const IsoPoint pt = iso("tpmm", p, E, mp);
      ASSERT_TRUE(pt.reached) << pt.why_not;
      EXPECT_EQ(pt.n, static_cast<std::int64_t>(std::ceil(root - 1e-9))) << "p = " << p << ", E = " << E;
      EXPECT_GE(pt.efficiency, E);
      EXPECT_EQ(pt.best.algo->name(), "tpmm");
    }
}

TEST(Isoefficiency, TpmmWithLatencyIsTheCubicsRoot) {
  const MachineParams mp = thesis(17e-6);
  for (int p : {4, 8, 256, 4096})
    for (double E : {0.5, 0.75}) {
      const double root = tpmm_root(E, p, mp);
      const IsoPoint pt = iso("tpmm", p, E, mp);
      ASSERT_TRUE(pt.reached) << pt.why_not;
      EXPECT_EQ(pt.n, static_cast<std::int64_t>(std::ceil(root))) << "p = " << p << ", E = " << E << ", n* = " << root;
      // The efficiency is the formula's at that n.
      const double n = double(pt.n);
      const model::Prediction t = model::paper_tpmm(pt.n, p, mp);
      EXPECT_NEAR(pt.efficiency, 2 * n * n * n * mp.t_op / p / t.total(), 1e-12);
    }
  // The paper's Opteron at E = 0.5: about 180 p once p is large.
  EXPECT_NEAR(double(iso("tpmm", 4096, 0.5, mp).n) / 4096, 180.8, 0.5);
}

TEST(Isoefficiency, RingIsWithinItsSawToothOfTheClosedForm) {
  const MachineParams mp = thesis(0);
  for (int p : {3, 4, 7, 64})
    for (double E : {0.5, 0.8}) {
      const double root = (p - 1) * E / (1 - E) / (mp.tau * mp.t_op);
      const IsoPoint pt = iso("ring", p, E, mp);
      ASSERT_TRUE(pt.reached) << pt.why_not;
      // Ring's efficiency never exceeds tpMM's formula, so n >= n*; at the
      // first multiple of p above n* it equals it, and the crossing found
      // lies within 3 % of n*.
      EXPECT_GE(double(pt.n), root) << "p = " << p << ", E = " << E;
      EXPECT_LE(double(pt.n), 1.03 * root + p) << "p = " << p << ", E = " << E;
      EXPECT_GE(pt.efficiency, E);
      // A crossing: one n less is below E.
      const std::int64_t below = pt.n - 1;
      const double t1 = 2.0 * double(below) * double(below) * double(below) * mp.t_op;
      EXPECT_LT(t1 / p / model::paper_ring(below, p, mp).total(), E) << "p = " << p << ", E = " << E;
    }
}

TEST(Isoefficiency, NotReachedSaysHowFarItSearched) {
  const MachineParams mp = thesis(17e-6);
  const IsoPoint pt = iso("tpmm", 64, 0.9, mp, 4096);
  EXPECT_FALSE(pt.reached);
  EXPECT_EQ(pt.n, 4096);
  EXPECT_LT(pt.efficiency, 0.9);
  EXPECT_NE(pt.why_not.find("not reached up to n = 4096"), std::string::npos) << pt.why_not;
  ASSERT_NE(pt.best.algo, nullptr);
}

TEST(Isoefficiency, MemoryLimitBoundsTheSearch) {
  const MachineParams mp = thesis(17e-6);
  // tpMM at p = 64 and E = 0.5 needs n of about 11400: 3 n^2 / 64 + two
  // B blocks = 5 n^2 / 64 doubles, 78 MiB per rank; 8 MiB stops it near
  // n = 3660.
  CandidateSpace space;
  space.max_doubles_per_rank = 8.0 * (1 << 20) / 8;
  const IsoPoint pt = iso("tpmm", 64, 0.5, mp, 1 << 22, space);
  EXPECT_FALSE(pt.reached);
  EXPECT_NE(pt.why_not.find("no member fits the memory limit above n = "), std::string::npos) << pt.why_not;
  // The largest n that fits: its memory within the limit, the next one's not.
  const algos::Algorithm& tpmm = *algos::find_algorithm("tpmm");
  EXPECT_LE(tpmm.memory({pt.n, pt.n, pt.n}, {}, 64).total(), space.max_doubles_per_rank);
  EXPECT_GT(tpmm.memory({pt.n + 1, pt.n + 1, pt.n + 1}, {}, 64).total(), space.max_doubles_per_rank);
  // Without the limit it is reached further on.
  EXPECT_GT(iso("tpmm", 64, 0.5, mp).n, pt.n);
}

TEST(Isoefficiency, NoMemberAppliesSaysWhy) {
  const IsoPoint pt = iso("tpmm", 3, 0.5, thesis(0));
  EXPECT_FALSE(pt.reached);
  EXPECT_EQ(pt.n, 0);
  EXPECT_NE(pt.why_not.find("power of two"), std::string::npos) << pt.why_not;
  // Applicable at small n, not beyond one MPI message (a B block of
  // k x ceil(n/p) doubles): the search stops at the last n that applies.
  const IsoPoint big = iso("tpmm", 1024, 0.9, thesis(0));
  EXPECT_FALSE(big.reached);
  EXPECT_NE(big.why_not.find("no member applies above n = "), std::string::npos) << big.why_not;
  EXPECT_NE(big.why_not.find("exceeds one MPI message"), std::string::npos) << big.why_not;
  EXPECT_LE(double(big.n) * std::ceil(double(big.n) / 1024), 2147483647.0);
}

TEST(Isoefficiency, EfficiencyIsAgainstOneRanksDgemm) {
  const MachineParams mp = thesis(0);
  // A time of T_1 / p is efficiency 1; twice that is 0.5.
  const double t1 = 2.0 * 1000 * 1000 * 1000 * mp.t_op;
  EXPECT_NEAR(efficiency(t1 / 8, 1000, 8, 1, mp, ModelKind::paper), 1.0, 1e-12);
  EXPECT_NEAR(efficiency(t1 / 4, 1000, 4, 2, mp, ModelKind::paper), 0.5, 1e-12);
  EXPECT_THROW(iso("tpmm", 4, 1.0, mp), std::invalid_argument);
  EXPECT_THROW(iso("tpmm", 4, 0.5, mp, 8), std::invalid_argument);
}
