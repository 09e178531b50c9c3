// tpMM's schedule: every rank multiplies every B block exactly once, swaps
// are symmetric (what I receive is what my partner held), and eq. 2.2's
// node-locality count on a synthetic node map.
#include <gtest/gtest.h>

#include <set>

#include "space/strassen_groups.hpp"
#include "algos/tpmm_schedule.hpp"

using namespace mmbench::algos;
using namespace mmbench::space;

TEST(TpmmSchedule, WorkedExampleP4Rank0) {
  auto s = tpmm_schedule(4, 0);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].block, 0);
  EXPECT_EQ(s[0].partner, 1);
  EXPECT_EQ(s[1].block, 1);
  EXPECT_EQ(s[1].partner, 2);
  EXPECT_EQ(s[2].block, 3);
  EXPECT_EQ(s[2].partner, 1);
  EXPECT_EQ(s[3].block, 2);
  EXPECT_EQ(s[3].partner, -1);
}

TEST(TpmmSchedule, EveryBlockOnceAndSwapsConsistent) {
  for (int p : {1, 2, 4, 8, 16, 32}) {
    std::vector<std::vector<TpmmStep>> all;
    for (int r = 0; r < p; ++r) all.push_back(tpmm_schedule(p, r));
    for (int r = 0; r < p; ++r) {
      std::set<int> blocks;
      for (auto& st : all[r]) blocks.insert(st.block);
      EXPECT_EQ(static_cast<int>(blocks.size()), p) << "p=" << p << " rank " << r;
      for (std::size_t i = 0; i + 1 < all[r].size(); ++i) {
        const TpmmStep& st = all[r][i];
        ASSERT_GE(st.partner, 0);
        // The partner swaps with me in the same step and sends its block.
        EXPECT_EQ(all[st.partner][i].partner, r);
        EXPECT_EQ(st.incoming, all[st.partner][i].block);
        EXPECT_EQ(all[r][i + 1].block, st.incoming);
      }
      EXPECT_EQ(all[r].back().partner, -1);
    }
  }
}

TEST(TpmmSchedule, Eq22NodeLocalSwaps) {
  // p = 32, 4 consecutive ranks per node: 24 of 31 swaps node-local (eq. 2.2).
  std::vector<int> node(32);
  for (int i = 0; i < 32; ++i) node[i] = i / 4;
  for (int r = 0; r < 32; ++r) EXPECT_EQ(tpmm_node_local_swaps(node, r), 24) << "rank " << r;
  // Agrees with the closed form for other shapes.
  for (int p : {8, 16, 64})
    for (int m : {1, 2, 4, 8}) {
      std::vector<int> nd(p);
      for (int i = 0; i < p; ++i) nd[i] = i / m;
      EXPECT_EQ(tpmm_node_local_swaps(nd, 0), tpmm_node_local_exchanges(p, m)) << p << " " << m;
    }
  // All on one node: all p - 1 swaps local; round-robin placement: none.
  EXPECT_EQ(tpmm_node_local_swaps(std::vector<int>(8, 7), 3), 7);
  std::vector<int> rr(8);
  for (int i = 0; i < 8; ++i) rr[i] = i % 4;
  EXPECT_EQ(tpmm_node_local_swaps(rr, 0), 1);  // only the swap with rank 4
}

TEST(TpmmSchedule, RejectsBadP) {
  EXPECT_THROW(tpmm_schedule(6, 0), std::invalid_argument);
  EXPECT_THROW(tpmm_schedule(0, 0), std::invalid_argument);
  EXPECT_THROW(tpmm_schedule(4, 4), std::invalid_argument);
}
