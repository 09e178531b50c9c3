// The recursive Strassen layouts: the worked example of strassen_layout.hpp,
// full coverage without overlap for every combination, each rank's buffer
// equal to its leaf buffer, and clip() keeping the padded buffers.
#include <gtest/gtest.h>

#include "algos/strassen_layout.hpp"

using namespace mmbench;
using namespace mmbench::algos::strassen;

namespace {
const Rect& only_rect(const Layout& l, int rank) {
  EXPECT_EQ(l.rects_of(rank).size(), 1u);
  return l.rects()[l.rects_of(rank)[0]];
}
}  // namespace

TEST(StrassenLayout, Q8TpmmWorkedExample) {
  Layouts l = recursive_layouts(Config{Schema::q8, Cutoff::tpmm, 64, {}}, 8, 8, 8, 8, 1);
  l.a.check();
  const Rect& r0 = only_rect(l.a, 0);
  EXPECT_EQ(r0.row, 0);
  EXPECT_EQ(r0.rows, 2);
  EXPECT_EQ(r0.col, 0);
  EXPECT_EQ(r0.cols, 4);
  const Rect& r7 = only_rect(l.a, 7);
  EXPECT_EQ(r7.row, 6);
  EXPECT_EQ(r7.rows, 2);
  EXPECT_EQ(r7.col, 4);
  EXPECT_EQ(r7.cols, 4);
  EXPECT_EQ(r7.offset, 0);  // its own buffer, as the leaf tpMM stores it
  // B in column blocks: rank 2 (first of G12) owns B12 rows 0-3, columns 4-5.
  const Rect& b2 = only_rect(l.b, 2);
  EXPECT_EQ(b2.row, 0);
  EXPECT_EQ(b2.col, 4);
  EXPECT_EQ(b2.cols, 2);
}

TEST(StrassenLayout, Q7GroupsAndCoverage) {
  // p = 7: groups 2/2/2/1, so rank 6 alone holds all of A22.
  Layouts l = recursive_layouts(Config{Schema::q7, Cutoff::ring, 64, {}}, 20, 12, 16, 7, 1);
  l.a.check();
  l.b.check();
  l.c.check();
  const Rect& a22 = only_rect(l.a, 6);
  EXPECT_EQ(a22.row, 10);
  EXPECT_EQ(a22.col, 8);
  EXPECT_EQ(a22.rows, 10);
  EXPECT_EQ(a22.cols, 8);
  EXPECT_EQ(l.a.local_size(6), 80);
}

TEST(StrassenLayout, AllCombinationsCoverTwoLevels) {
  struct Case { Schema s; Cutoff c; int p; };
  for (Case k : {Case{Schema::q8, Cutoff::dgemm, 16}, Case{Schema::q8, Cutoff::tpmm, 32},
                 Case{Schema::q8, Cutoff::pdgemm, 32}, Case{Schema::q7, Cutoff::ring, 22}}) {
    Layouts l = recursive_layouts(Config{k.s, k.c, 3, {}}, 44, 36, 28, k.p, 2);
    EXPECT_NO_THROW(l.a.check());
    EXPECT_NO_THROW(l.b.check());
    EXPECT_NO_THROW(l.c.check());
  }
  EXPECT_THROW(recursive_layouts(Config{Schema::q8, Cutoff::dgemm, 3, {}}, 6, 6, 6, 16, 2), std::logic_error);  // 6/2 odd
}

TEST(StrassenLayout, ClipKeepsPaddedBuffers) {
  // 7 x 5 padded to 8 x 6 under q8+dgemm at p = 4: rank 3 holds A22 =
  // rows 4-7, cols 3-5 (12 doubles); clipped it shows rows 4-6, cols 3-4.
  Layouts l = recursive_layouts(Config{Schema::q8, Cutoff::dgemm, 3, {}}, 8, 8, 6, 4, 1);
  Layout c = clip(l.a, 7, 5);
  c.check();
  const Rect& r = only_rect(c, 3);
  EXPECT_EQ(r.rows, 3);
  EXPECT_EQ(r.cols, 2);
  EXPECT_EQ(r.ld, 4);
  EXPECT_EQ(c.local_size(3), 12);
}

TEST(StrassenLayout, GroupOf) {
  GroupSplit g = split_groups(Schema::q7, 16);  // 5/4/4/3
  EXPECT_EQ(g.group_of(0), 0);
  EXPECT_EQ(g.group_of(4), 0);
  EXPECT_EQ(g.group_of(5), 1);
  EXPECT_EQ(g.group_of(13), 3);
  EXPECT_EQ(g.start[3], 13);
}
