// block_cyclic_submatrix against ScaLAPACK's index arithmetic written out
// element by element (INDXG2P / INDXG2L), for blockings, source processes,
// offsets inside blocks and grids; repacked's transposition.
#include "core/matrix/submatrix_layout.hpp"

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

// Where PBLAS's type-2 descriptor puts global index g, found by walking
// the indices in order (a method apart from the layout's formulas): block
// 0 holds `first` indices, every later block `blk`, dealt to the processes
// in turn from `src`; each process stores its blocks one after the other.
std::pair<int, Index> walk_to(Index g, Index first, Index blk, int src, int np) {
  std::vector<Index> filled(static_cast<std::size_t>(np), 0);
  int proc = src;
  Index left = first;  // indices left in the current block
  for (Index i = 0; i < g; ++i) {
    ++filled[static_cast<std::size_t>(proc)];
    if (--left == 0) proc = (proc + 1) % np, left = blk;
  }
  return {proc, filled[static_cast<std::size_t>(proc)]};
}

TEST(SubmatrixLayout, TypeTwoFirstBlocksWhereThePblasPutThem) {
  // The header's example: imb = 1, mb = 3, pr = 2, rsrc = 0: row 5 on
  // process row 0 at local row 2.
  EXPECT_EQ(walk_to(5, 1, 3, 0, 2), std::make_pair(0, Index(2)));
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 400; ++trial) {
    const int pr = pick(1, 3), pc = pick(1, 4);
    BlockCyclicDescriptor d;
    d.mb = pick(1, 7), d.nb = pick(1, 7), d.imb = pick(1, 9), d.inb = pick(1, 9);
    d.rsrc = pick(0, pr - 1), d.csrc = pick(0, pc - 1);
    const Index i0 = pick(0, 9), j0 = pick(0, 9), rows = pick(0, 20), cols = pick(0, 20);
    d.m = i0 + rows + pick(0, 4), d.n = j0 + cols + pick(0, 4), d.lld = 100 + pick(0, 3);
    const int me = pick(0, pr * pc - 1);
    const Layout l = block_cyclic_submatrix(d, i0, j0, rows, cols, pr, pc, me);
    l.check();
    for (const Rect& r : l.rects())
      for (Index c = 0; c < r.cols; ++c)
        for (Index i = 0; i < r.rows; ++i) {
          const auto [prow, li] = walk_to(i0 + r.row + i, d.imb, d.mb, d.rsrc, pr);
          const auto [pcol, lj] = walk_to(j0 + r.col + c, d.inb, d.nb, d.csrc, pc);
          ASSERT_EQ(r.owner, prow * pc + pcol);
          if (r.owner == me) {
            ASSERT_EQ(r.offset + i + c * r.ld, li + lj * d.lld);
          }
        }
    // The local counts: one past the last index each process holds.
    for (int p = 0; p < pr; ++p) {
      Index count = 0;
      for (Index g = 0; g < d.m; ++g)
        if (walk_to(g, d.imb, d.mb, d.rsrc, pr).first == p) ++count;
      ASSERT_EQ(block_cyclic_count(d.m, d.imb, d.mb, p, d.rsrc, pr), count)
          << "m=" << d.m << " imb=" << d.imb << " mb=" << d.mb << " p=" << p << " src=" << d.rsrc << " of " << pr;
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
