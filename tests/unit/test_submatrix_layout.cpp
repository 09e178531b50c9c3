// block_cyclic_submatrix against ScaLAPACK's index arithmetic written out
// element by element (INDXG2P / INDXG2L), for blockings, source processes,
// offsets inside blocks and grids; repacked's transposition.
#include "core/submatrix_layout.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace mmbench;

namespace {

// ScaLAPACK's INDXG2P and INDXG2L (0-based).
int owner_of(Index g, Index blk, int src, int np) { return static_cast<int>((src + g / blk) % np); }
Index local_of(Index g, Index blk, int np) { return (g / blk / np) * blk + g % blk; }

}  // namespace

TEST(SubmatrixLayout, WorkedExampleOfTheHeader) {
  // mb = 2, pr = 2, rsrc = 1, rows 3..6 of a 10 x 1 matrix.
  BlockCyclicDescriptor d{10, 1, 2, 1, 1, 0, 7};
  const Layout l = block_cyclic_submatrix(d, 3, 0, 4, 1, 2, 1, 0);
  ASSERT_EQ(l.rects().size(), 3u);
  EXPECT_EQ(l.rects()[0].owner, 0);
  EXPECT_EQ(l.rects()[0].offset, 1);
  EXPECT_EQ(l.rects()[1].owner, 1);
  EXPECT_EQ(l.rects()[1].rows, 2);
  EXPECT_EQ(l.rects()[2].owner, 0);
  EXPECT_EQ(l.rects()[2].offset, 2);
}

TEST(SubmatrixLayout, EveryElementWhereScalapackPutsIt) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    const int pr = pick(1, 3), pc = pick(1, 4);
    BlockCyclicDescriptor d;
    d.mb = pick(1, 7), d.nb = pick(1, 7), d.rsrc = pick(0, pr - 1), d.csrc = pick(0, pc - 1);
    const Index i0 = pick(0, 9), j0 = pick(0, 9), rows = pick(0, 20), cols = pick(0, 20);
    d.m = i0 + rows + pick(0, 4), d.n = j0 + cols + pick(0, 4), d.lld = 100 + pick(0, 3);
    const int me = pick(0, pr * pc - 1);
    const Layout l = block_cyclic_submatrix(d, i0, j0, rows, cols, pr, pc, me);
    l.check();  // covers the submatrix exactly once, no overlap inside any rank's array
    for (const Rect& r : l.rects())
      for (Index c = 0; c < r.cols; ++c)
        for (Index i = 0; i < r.rows; ++i) {
          const Index gi = i0 + r.row + i, gj = j0 + r.col + c;
          const int prow = owner_of(gi, d.mb, d.rsrc, pr), pcol = owner_of(gj, d.nb, d.csrc, pc);
          ASSERT_EQ(r.owner, prow * pc + pcol);
          if (r.owner == me) {
            ASSERT_EQ(r.offset + i + c * r.ld, local_of(gi, d.mb, pr) + local_of(gj, d.nb, pc) * d.lld);
          }
        }
  }
}

TEST(SubmatrixLayout, BadArgumentsAreRefused) {
  BlockCyclicDescriptor d{10, 10, 2, 2, 0, 0, 10};
  EXPECT_THROW(block_cyclic_submatrix(d, 5, 0, 6, 1, 1, 1, 0), std::invalid_argument);  // past the last row
  d.rsrc = 2;
  EXPECT_THROW(block_cyclic_submatrix(d, 0, 0, 1, 1, 2, 1, 0), std::invalid_argument);  // no process row 2
}

TEST(Repacked, TransposesEachRectangleInPlaceOfItsOwner) {
  const Layout l = row_blocks(5, 3, 2);
  const Layout t = repacked(l, true);
  EXPECT_EQ(t.rows(), 3);
  EXPECT_EQ(t.cols(), 5);
  t.check();
  ASSERT_EQ(t.rects().size(), l.rects().size());
  for (std::size_t i = 0; i < l.rects().size(); ++i) {
    EXPECT_EQ(t.rects()[i].owner, l.rects()[i].owner);
    EXPECT_EQ(t.rects()[i].row, l.rects()[i].col);
    EXPECT_EQ(t.rects()[i].rows, l.rects()[i].cols);
    EXPECT_EQ(t.rects()[i].ld, l.rects()[i].cols);
  }
  EXPECT_EQ(repacked(l, false).local_size(0), 3 * 3);  // rows 0-2 packed
}
