// Tests of the group arithmetic against hand-worked values and against
// brute-force recounts that do not share code with the implementation.
#include "space/strassen_depth.hpp"
#include "space/strassen_groups.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

using namespace mmbench::space;

namespace {

// Independent Ring-rule split: hand the rows out one at a time, block by
// block, the first `rows % ranks` blocks one row larger.
std::vector<std::int64_t> boundaries(std::int64_t rows, int ranks) {
  std::vector<std::int64_t> b{0};
  for (int i = 0; i < ranks; ++i) b.push_back(b.back() + rows / ranks + (i < rows % ranks ? 1 : 0));
  return b;
}

// Brute force: every pair of intervals.
int brute_partners(std::int64_t rows, int sa, int sb) {
  auto a = boundaries(rows, sa), b = boundaries(rows, sb);
  int best = 0;
  for (int i = 0; i < sa; ++i) {
    int count = 0;
    for (int j = 0; j < sb; ++j)
      if (std::max(a[i], b[j]) < std::min(a[i + 1], b[j + 1])) ++count;
    best = std::max(best, count);
  }
  return best;
}

}  // namespace

TEST(Q7GroupSizes, HandWorkedValues) {
  // p = 4: ceil(4/7) = 1, rest 3 -> 1,1,1.
  EXPECT_EQ(q7_group_sizes(4), (std::array<int, 4>{1, 1, 1, 1}));
  // p = 5: G22 = 1, rest 4 = 2+1+1.
  EXPECT_EQ(q7_group_sizes(5), (std::array<int, 4>{2, 1, 1, 1}));
  // p = 7: G22 = 1, rest 6 = 2+2+2.
  EXPECT_EQ(q7_group_sizes(7), (std::array<int, 4>{2, 2, 2, 1}));
  // p = 16: G22 = ceil(16/7) = 3, rest 13 = 5+4+4.
  EXPECT_EQ(q7_group_sizes(16), (std::array<int, 4>{5, 4, 4, 3}));
  // p = 32: G22 = 5, rest 27 = 9+9+9.
  EXPECT_EQ(q7_group_sizes(32), (std::array<int, 4>{9, 9, 9, 5}));
  // p = 49: G22 = 7, rest 42 = 14 each.
  EXPECT_EQ(q7_group_sizes(49), (std::array<int, 4>{14, 14, 14, 7}));
  // p = 56: G22 = 8, rest 48 = 16 each.
  EXPECT_EQ(q7_group_sizes(56), (std::array<int, 4>{16, 16, 16, 8}));
  // p = 64: G22 = 10, rest 54 = 18 each.
  EXPECT_EQ(q7_group_sizes(64), (std::array<int, 4>{18, 18, 18, 10}));
  // p = 100: G22 = 15, rest 85 = 29+28+28.
  EXPECT_EQ(q7_group_sizes(100), (std::array<int, 4>{29, 28, 28, 15}));
}

TEST(Q7GroupSizes, InvariantsForManyP) {
  for (int p = 4; p <= 2000; ++p) {
    auto g = q7_group_sizes(p);
    EXPECT_EQ(g[0] + g[1] + g[2] + g[3], p) << "p=" << p;
    EXPECT_EQ(g[3], (p + 6) / 7) << "p=" << p;
    EXPECT_GE(g[0], g[1]);
    EXPECT_GE(g[1], g[2]);
    EXPECT_LE(g[0] - g[2], 1) << "p=" << p;
    EXPECT_LE(g[3], g[2]) << "G22 is never larger than the other groups, p=" << p;
    // Observation used by the cost model (see paper_model.hpp): the smallest
    // of G11, G12, G21 is exactly floor(2p/7) of eq. 2.21.
    EXPECT_EQ(g[2], 2 * p / 7) << "p=" << p;
  }
}

TEST(Q7GroupSizes, RejectsTooFewRanks) {
  EXPECT_THROW(q7_group_sizes(3), std::invalid_argument);
  EXPECT_THROW(q7_group_sizes(0), std::invalid_argument);
  EXPECT_THROW(q7_group_sizes(-7), std::invalid_argument);
}

TEST(Q8GroupSizes, Values) {
  EXPECT_EQ(q8_group_sizes(4), (std::array<int, 4>{1, 1, 1, 1}));
  EXPECT_EQ(q8_group_sizes(64), (std::array<int, 4>{16, 16, 16, 16}));
  EXPECT_EQ(q8_group_sizes(12), (std::array<int, 4>{3, 3, 3, 3}));
  EXPECT_THROW(q8_group_sizes(6), std::invalid_argument);
  EXPECT_THROW(q8_group_sizes(0), std::invalid_argument);
  EXPECT_THROW(q8_group_sizes(2), std::invalid_argument);
}

TEST(MaxRecursions, Eq2_9) {
  // floor(log7 p): 7^1 = 7, 7^2 = 49, 7^3 = 343, 7^4 = 2401, 7^5 = 16807.
  EXPECT_EQ(max_recursions_q7(1), 0);
  EXPECT_EQ(max_recursions_q7(6), 0);
  EXPECT_EQ(max_recursions_q7(7), 1);
  EXPECT_EQ(max_recursions_q7(48), 1);
  EXPECT_EQ(max_recursions_q7(49), 2);
  EXPECT_EQ(max_recursions_q7(56), 2);
  EXPECT_EQ(max_recursions_q7(342), 2);
  EXPECT_EQ(max_recursions_q7(343), 3);
  EXPECT_EQ(max_recursions_q7(2401), 4);
  EXPECT_EQ(max_recursions_q7(16806), 4);
  EXPECT_EQ(max_recursions_q7(16807), 5);
  // 7^11 = 1977326743 is the largest power of 7 below 2^31.
  EXPECT_EQ(max_recursions_q7(1977326742), 10);
  EXPECT_EQ(max_recursions_q7(1977326743), 11);
  EXPECT_EQ(max_recursions_q7(2147483647), 11);
  // floor(log4 p): 4, 16, 64, 256, 1024.
  EXPECT_EQ(max_recursions_q8(1), 0);
  EXPECT_EQ(max_recursions_q8(3), 0);
  EXPECT_EQ(max_recursions_q8(4), 1);
  EXPECT_EQ(max_recursions_q8(15), 1);
  EXPECT_EQ(max_recursions_q8(16), 2);
  EXPECT_EQ(max_recursions_q8(56), 2);
  EXPECT_EQ(max_recursions_q8(63), 2);
  EXPECT_EQ(max_recursions_q8(64), 3);
  EXPECT_EQ(max_recursions_q8(1073741823), 14);
  EXPECT_EQ(max_recursions_q8(1073741824), 15);  // 4^15 = 2^30
  EXPECT_EQ(max_recursions_q8(2147483647), 15);
  EXPECT_THROW(max_recursions_q7(0), std::invalid_argument);
  EXPECT_THROW(max_recursions_q8(-1), std::invalid_argument);
}

TEST(Tpmm, NodeLocalExchangesEq2_2) {
  EXPECT_EQ(tpmm_node_local_exchanges(32, 4), 24);  // thesis: 16 + 8 = 24 of 31
  EXPECT_EQ(tpmm_total_exchanges(32), 31);
  EXPECT_EQ(tpmm_node_local_exchanges(4, 2), 2);   // Abb. 2.4: 2 of 3 without network
  EXPECT_EQ(tpmm_node_local_exchanges(8, 1), 0);   // one rank per node: all remote
  EXPECT_EQ(tpmm_node_local_exchanges(8, 8), 7);   // one node
  EXPECT_EQ(tpmm_node_local_exchanges(8, 16), 7);  // node larger than the job
  EXPECT_EQ(tpmm_node_local_exchanges(1, 1), 0);
  EXPECT_EQ(tpmm_total_exchanges(1), 0);
  EXPECT_EQ(tpmm_node_local_exchanges(64, 2), 32);
  EXPECT_THROW(tpmm_node_local_exchanges(24, 4), std::invalid_argument);
  EXPECT_THROW(tpmm_node_local_exchanges(32, 3), std::invalid_argument);
  EXPECT_THROW(tpmm_node_local_exchanges(0, 1), std::invalid_argument);
  EXPECT_THROW(tpmm_total_exchanges(6), std::invalid_argument);
}

TEST(Tpmm, NodeLocalExchangesMatchSimulatedRecursion) {
  // Walk Alg. 2.1 for rank 0... every rank: tpmm(G) = tpmm(half), exchange
  // with the partner |G|/2 away, tpmm(half). Count the exchanges whose
  // partner sits in the same node (rank / m equal).
  for (int p = 1; p <= 256; p *= 2) {
    for (int m = 1; m <= 2 * p; m *= 2) {
      for (int rank = 0; rank < p; ++rank) {
        int total = 0, local = 0;
        std::function<void(int, int)> walk = [&](int first, int size) {
          if (size == 1) return;
          const int half = size / 2;
          const int mine = rank < first + half ? first : first + half;
          walk(mine, half);
          const int partner = rank < first + half ? rank + half : rank - half;
          ++total;
          if (partner / m == rank / m) ++local;
          walk(mine, half);
        };
        walk(0, p);
        ASSERT_EQ(total, tpmm_total_exchanges(p));
        ASSERT_EQ(local, tpmm_node_local_exchanges(p, m)) << "p=" << p << " m=" << m << " rank=" << rank;
      }
    }
  }
}

TEST(RingRowBlock, HandWorked) {
  // rows = 10 over 4 ranks: 3,3,2,2.
  EXPECT_EQ(ring_row_block(10, 4, 0).begin, 0);
  EXPECT_EQ(ring_row_block(10, 4, 0).end, 3);
  EXPECT_EQ(ring_row_block(10, 4, 1).begin, 3);
  EXPECT_EQ(ring_row_block(10, 4, 2).begin, 6);
  EXPECT_EQ(ring_row_block(10, 4, 2).end, 8);
  EXPECT_EQ(ring_row_block(10, 4, 3).end, 10);
  // rows = 2 over 4 ranks: 1,1,0,0.
  EXPECT_EQ(ring_row_block(2, 4, 2).begin, 2);
  EXPECT_EQ(ring_row_block(2, 4, 2).end, 2);
  EXPECT_THROW(ring_row_block(10, 4, 4), std::invalid_argument);
  EXPECT_THROW(ring_row_block(-1, 4, 0), std::invalid_argument);
}

TEST(MaxPartners1d, HandWorked) {
  // The header's example: a1 = [5,10) meets b1 [3,6), b2 [6,8), b3 [8,10).
  EXPECT_EQ(max_partners_1d(10, 2, 4), 3);
  // Aligned: 12 rows, 2 vs 4 ranks -> blocks of 6 over blocks of 3: 2.
  EXPECT_EQ(max_partners_1d(12, 2, 4), 2);
  // The other direction: a block of 3 inside blocks of 6 -> 1 partner.
  EXPECT_EQ(max_partners_1d(12, 4, 2), 1);
  // 10 rows, 4 vs 2: a1 = [3,6) straddles 5 -> 2.
  EXPECT_EQ(max_partners_1d(10, 4, 2), 2);
  // Same size groups share the layout: 1 partner.
  EXPECT_EQ(max_partners_1d(1001, 7, 7), 1);
  // One rank holding everything talks to every non-empty block of b.
  EXPECT_EQ(max_partners_1d(100, 1, 5), 5);
  EXPECT_EQ(max_partners_1d(3, 1, 5), 3);
  EXPECT_EQ(max_partners_1d(0, 3, 5), 0);
  EXPECT_THROW(max_partners_1d(10, 0, 2), std::invalid_argument);
  EXPECT_THROW(max_partners_1d(-1, 1, 2), std::invalid_argument);
}

TEST(MaxPartners1d, MatchesBruteForce) {
  for (std::int64_t rows = 0; rows <= 60; ++rows)
    for (int sa = 1; sa <= 13; ++sa)
      for (int sb = 1; sb <= 13; ++sb)
        ASSERT_EQ(max_partners_1d(rows, sa, sb), brute_partners(rows, sa, sb))
            << "rows=" << rows << " sa=" << sa << " sb=" << sb;
}

// Eq. 2.19: between any two Q7 groups a rank exchanges with at most 3 ranks
// of the other group, for p >= 7, when both hold a quadrant in 1D row blocks.
TEST(MaxPartners1d, Eq2_19AtMostThreeBetweenQ7Groups) {
  std::vector<std::int64_t> row_counts;
  for (std::int64_t r = 1; r <= 128; ++r) row_counts.push_back(r);
  for (std::int64_t r : {255, 256, 500, 511, 512, 1000, 1023, 1024, 2048, 4095, 5000, 6144, 8191})
    row_counts.push_back(r);
  for (int p = 7; p <= 200; ++p) {
    auto g = q7_group_sizes(p);
    std::vector<std::int64_t> rows_p = row_counts;
    // Multiples of the group sizes (aligned) and off by one (misaligned).
    for (int s : g)
      for (std::int64_t k : {1, 3, 17, 64})
        for (std::int64_t d : {-1, 0, 1}) rows_p.push_back(s * k + d);
    rows_p.push_back(static_cast<std::int64_t>(g[0]) * g[3] * 5);
    for (std::int64_t rows : rows_p) {
      if (rows < 0) continue;
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          ASSERT_LE(max_partners_1d(rows, g[a], g[b]), 3)
              << "p=" << p << " rows=" << rows << " sa=" << g[a] << " sb=" << g[b];
    }
  }
}

TEST(Q7Split, TableEntriesOverrideThePaperRule) {
  const Q7SplitTable table{{{2, 64}, {19, 18, 17, 10}}, {{1, 19}, {6, 5, 5, 3}}};
  EXPECT_EQ(q7_split(64, 2, &table), (std::array<int, 4>{19, 18, 17, 10}));
  EXPECT_EQ(q7_split(19, 1, &table), (std::array<int, 4>{6, 5, 5, 3}));
  EXPECT_EQ(q7_split(18, 1, &table), q7_group_sizes(18));  // no entry: eq. 2.18
  EXPECT_EQ(q7_split(64, 1, &table), q7_group_sizes(64));  // other depth
  EXPECT_EQ(q7_split(64, 2, nullptr), q7_group_sizes(64));
  const Q7SplitTable bad{{{1, 8}, {3, 3, 3, 0}}, {{1, 9}, {3, 3, 3, 3}}};
  EXPECT_THROW(q7_split(8, 1, &bad), std::invalid_argument);   // empty group
  EXPECT_THROW(q7_split(9, 1, &bad), std::invalid_argument);   // sums to 12
  EXPECT_EQ(format_split({18, 18, 18, 10}), "18/18/18/10");
}

TEST(Q7Split, CandidatesStartWithThePaperSplit) {
  // p <= 32: every composition into 4 groups of >= min_group.
  auto c = q7_split_candidates(7, 1);
  EXPECT_EQ(c.front(), q7_group_sizes(7));
  EXPECT_EQ(c.size(), 20u);  // C(6, 3)
  EXPECT_EQ(q7_split_candidates(32, 1).size(), 4495u);  // C(31, 3)
  EXPECT_EQ(q7_split_candidates(16, 4).size(), 1u);     // only 4/4/4/4 ...
  EXPECT_EQ(q7_split_candidates(16, 4).front(), (std::array<int, 4>{4, 4, 4, 4}));  // ... not the paper's 5/4/4/3
  EXPECT_TRUE(q7_split_candidates(15, 4).empty());
  // p > 32: +-4 around the paper's (+-2 above 1024), each summing to p.
  for (int p : {64, 100, 2000}) {
    auto w = q7_split_candidates(p, 4);
    const auto paper = q7_group_sizes(p);
    EXPECT_EQ(w.front(), paper);
    const int window = p <= 1024 ? 4 : 2;
    EXPECT_LE(w.size(), std::size_t((2 * window + 1) * (2 * window + 1) * (2 * window + 1)));
    for (const auto& g : w) {
      EXPECT_EQ(g[0] + g[1] + g[2] + g[3], p);
      for (int i = 0; i < 4; ++i) EXPECT_LE(std::abs(g[i] - paper[i]), window);
    }
    EXPECT_EQ(std::count(w.begin(), w.end(), paper), 1);
  }
  EXPECT_THROW(q7_split_candidates(8, 0), std::invalid_argument);
}

// The one depth rule (space/strassen_depth.hpp), which the plans and the
// cost models share, against its closed forms: Q7 -- floor(log7 p), at
// least 1, for p >= 4 (the smallest group ceil(p/7) >= 7^(r-1) keeps every
// deeper level at >= 4 ranks); Q8 -- the largest r with 4^r | p whose leaf
// groups of p / 4^r ranks suit the cut-off.
TEST(StrassenDepth, DefaultDepthMatchesTheClosedForms) {
  using mmbench::space::strassen::Cutoff;
  using mmbench::space::strassen::Schema;
  for (int p = 1; p <= 5000; ++p) {
    SCOPED_TRACE(p);
    const int q7 = p >= 4 ? std::max(1, max_recursions_q7(p)) : 0;
    EXPECT_EQ(strassen_default_depth(Schema::q7, Cutoff::ring, p), q7);
    EXPECT_EQ(strassen_default_depth(Schema::q7, Cutoff::pdgemm, p), q7);
    for (Cutoff c : {Cutoff::dgemm, Cutoff::pdgemm, Cutoff::tpmm}) {
      int best = 0;
      long long four_r = 4;
      for (int r = 1; four_r <= p && p % four_r == 0; ++r, four_r *= 4) {
        const long long cut = p / four_r;
        const bool fits = c == Cutoff::dgemm ? cut == 1 : c == Cutoff::pdgemm ? cut >= 2 : (cut & (cut - 1)) == 0;
        if (fits) best = r;
      }
      EXPECT_EQ(strassen_default_depth(Schema::q8, c, p), best) << mmbench::space::strassen::cutoff_name(c);
    }
  }
  EXPECT_EQ(strassen_depth_problem(Schema::q8, Cutoff::tpmm, 24, 1), "a leaf group of 6 ranks is not a power of two (tpMM)");
}
