// Layout index maps: block splits, block-cyclic ownership and local offsets
// (against ScaLAPACK's own numroc), and check() catching broken layouts.
#include <gtest/gtest.h>

#include "core/matrix/layout.hpp"
#include "core/mpi/scalapack_api.hpp"

using namespace mmbench;

TEST(BlockSplit, RemainderGoesToFirstRanks) {
  // 10 rows over 4 ranks: 3 3 2 2 starting at 0 3 6 8.
  EXPECT_EQ(block_size(10, 4, 0), 3);
  EXPECT_EQ(block_size(10, 4, 1), 3);
  EXPECT_EQ(block_size(10, 4, 2), 2);
  EXPECT_EQ(block_size(10, 4, 3), 2);
  EXPECT_EQ(block_start(10, 4, 0), 0);
  EXPECT_EQ(block_start(10, 4, 2), 6);
  EXPECT_EQ(block_start(10, 4, 3), 8);
  // More ranks than rows: the last ranks own nothing.
  EXPECT_EQ(block_size(2, 5, 4), 0);
  EXPECT_EQ(block_start(2, 5, 4), 2);
}

TEST(Layout, RowAndColumnBlocks) {
  Layout r = row_blocks(10, 7, 4);
  r.check();
  EXPECT_EQ(r.local_size(0), 3 * 7);
  EXPECT_EQ(r.local_size(3), 2 * 7);
  const Rect& x = r.rects()[r.rects_of(2)[0]];
  EXPECT_EQ(x.row, 6);
  EXPECT_EQ(x.ld, 2);
  Layout c = col_blocks(10, 7, 3);
  c.check();
  EXPECT_EQ(c.local_size(0), 10 * 3);
  EXPECT_EQ(c.rects()[c.rects_of(2)[0]].col, 5);
}

TEST(Layout, BlockCyclicMatchesNumroc) {
  for (int pr : {1, 2, 3})
    for (int pc : {1, 2, 4})
      for (int n : {1, 7, 20, 33})
        for (int nb : {1, 3, 8}) {
          Layout l = block_cyclic(n, n + 3, nb, nb, pr, pc);
          l.check();
          for (int r = 0; r < pr; ++r)
            for (int c = 0; c < pc; ++c) {
              int zero = 0, cols = n + 3;
              int locr = numroc_(&n, &nb, &r, &zero, &pr);
              int locc = numroc_(&cols, &nb, &c, &zero, &pc);
              Index expect = locr > 0 && locc > 0 ? Index(locr) * locc : 0;
              EXPECT_EQ(l.local_size(r * pc + c), expect) << "n=" << n << " nb=" << nb << " grid " << pr << "x" << pc;
            }
        }
}

TEST(Layout, BlockCyclicOwnerAndOffset) {
  // rows = 10, mb = 3, pr = 2: process row 1 holds blocks 1 and 3 (global
  // rows 3-5 and 9), at local rows 0-2 and 3.
  Layout l = block_cyclic(10, 4, 3, 2, 2, 2);
  bool found = false;
  for (const Rect& r : l.rects())
    if (r.row == 9 && r.col == 2) {
      found = true;
      EXPECT_EQ(r.owner, 1 * 2 + 1);  // process (1, 1), row-major
      EXPECT_EQ(r.ld, 4);             // local rows of process row 1: 3 + 1
      EXPECT_EQ(r.offset, 3 + 0 * 2 * 4);  // local row 3, local column block 0
    }
  EXPECT_TRUE(found);
}

TEST(Layout, CheckCatchesOverlapAndGaps) {
  Layout overlap(4, 4, 2, {Rect{0, 0, 3, 4, 0, 0, 3}, Rect{2, 0, 2, 4, 1, 0, 2}}, "overlap");
  EXPECT_THROW(overlap.check(), std::logic_error);
  Layout gap(4, 4, 2, {Rect{0, 0, 2, 4, 0, 0, 2}, Rect{3, 0, 1, 4, 1, 0, 1}}, "gap");
  EXPECT_THROW(gap.check(), std::logic_error);
  Layout outside(4, 4, 1, {Rect{0, 0, 5, 4, 0, 0, 5}}, "outside");
  EXPECT_THROW(outside.check(), std::logic_error);
}

TEST(Layout, MinLocalSizesOnlyGrowBuffers) {
  // Rank 0 owns a 2x2 rectangle (4 doubles) but asks for 9 (a padded 3x3);
  // rank 1 owns 2x1 (2 doubles) and asks for less than it needs: keeps 2.
  std::vector<Rect> rects = {Rect{0, 0, 2, 2, 0, 0, 3}, Rect{0, 2, 2, 1, 1, 0, 2}};
  Layout l(2, 3, 2, rects, "clipped", {9, 1});
  l.check();
  EXPECT_EQ(l.local_size(0), 9);
  EXPECT_EQ(l.local_size(1), 2);
  EXPECT_THROW(Layout(2, 3, 2, rects, "bad", {9}), std::logic_error);
}
