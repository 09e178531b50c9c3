// Layouts as data: which rank owns which global rectangle, and where the
// rectangle sits in that rank's local buffer.
//
// Every distribution mmbench uses (1D row or column blocks, 2D block-cyclic,
// the recursive quadrant layouts of Strassen) is a Layout, so generation,
// redistribution, gathering and verification are written once for all of
// them (generate.hpp, redistribution.hpp, verify.hpp).
//
// Local storage is column-major: element (i, j) of rectangle R lives at
//   local[R.offset + (i - R.row) + (j - R.col) * R.ld]
// of the owner's buffer. Rectangles of one layout never overlap and together
// cover the whole matrix exactly once (check() verifies that).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmbench {

using Index = std::int64_t;

struct Rect {
  Index row = 0, col = 0;    // global top-left corner
  Index rows = 0, cols = 0;  // extent
  int owner = 0;             // rank in the layout's communicator
  Index offset = 0;          // position of (row, col) in the owner's buffer
  Index ld = 1;              // leading dimension in the owner's buffer
};

class Layout {
 public:
  Layout() = default;
  // min_local_sizes (empty, or one entry per rank): a rank's buffer is at
  // least that long even where its rectangles end earlier. Strassen's padded
  // layouts use it: the caller sees the rectangles clipped to the true m x k,
  // the algorithm works on the padded buffer behind them (pad entries zero).
  Layout(Index rows, Index cols, int ranks, std::vector<Rect> rects, std::string description,
         const std::vector<Index>& min_local_sizes = {});

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  int ranks() const { return ranks_; }
  const std::vector<Rect>& rects() const { return rects_; }
  // Indices into rects() of the rectangles owned by `rank`.
  const std::vector<std::size_t>& rects_of(int rank) const { return by_owner_[rank]; }
  // Doubles `rank` must allocate to hold its part.
  Index local_size(int rank) const { return local_size_[rank]; }
  const std::string& description() const { return description_; }

  // Throws std::logic_error if rectangles overlap, leave gaps, leave the
  // matrix, or overlap inside one rank's buffer.
  void check() const;

 private:
  Index rows_ = 0, cols_ = 0;
  int ranks_ = 0;
  std::vector<Rect> rects_;
  std::vector<std::vector<std::size_t>> by_owner_;
  std::vector<Index> local_size_;
  std::string description_;
};

// Split `total` items into `parts` contiguous blocks; the first
// total % parts blocks get one item more (Ring's rule, docs/method.md §2.3).
// Example: total = 10, parts = 4 -> sizes 3 3 2 2, starts 0 3 6 8.
Index block_start(Index total, int parts, int i);
Index block_size(Index total, int parts, int i);

// Rows (or columns) process coordinate `proc` of `procs` holds of `total`
// dealt out block-cyclically in blocks of `nb`, the first block on
// coordinate 0 (ScaLAPACK's NUMROC). Example: total = 10, nb = 3, procs = 2:
// coordinate 0 holds 6 (blocks 0, 2), coordinate 1 holds 4 (blocks 1, 3).
Index block_cyclic_extent(Index total, Index nb, int proc, int procs);

// ---- Layout factories ----------------------------------------------------
// All of rank `owner`'s: one rectangle, ld = rows.
Layout single_owner(Index rows, Index cols, int ranks, int owner);
// Rank i owns rows [block_start(rows, p, i), +block_size) and all columns.
Layout row_blocks(Index rows, Index cols, int ranks);
// Rank i owns all rows and columns [block_start(cols, p, i), +block_size).
Layout col_blocks(Index rows, Index cols, int ranks);
// ScaLAPACK 2D block-cyclic: mb×nb blocks on a pr×pc grid, rank = prow*pc + pcol
// (BLACS row-major order), first block on process (0, 0). The local buffer is
// the ScaLAPACK local matrix with lld = max(1, local rows).
Layout block_cyclic(Index rows, Index cols, Index mb, Index nb, int pr, int pc);

// The same distribution with every owner renumbered through `rank_map`
// (owner r becomes rank_map[r]) in a communicator of `ranks` ranks, and the
// rectangle positions shifted by (row0, col0). Used to place a sub-group's
// layout of a quadrant inside the parent communicator (Strassen).
Layout embed(const Layout& inner, Index row0, Index col0, Index rows, Index cols, int ranks,
             const std::vector<int>& rank_map);

// Number of block-cyclic blocks a layout of this shape would have; callers
// check it before building huge layouts.
Index block_cyclic_block_count(Index rows, Index cols, Index mb, Index nb);

}  // namespace mmbench
