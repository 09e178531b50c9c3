#include "core/matrix/layout.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace mmbench {

Layout::Layout(Index rows, Index cols, int ranks, std::vector<Rect> rects, std::string description,
               const std::vector<Index>& min_local_sizes)
    : rows_(rows),
      cols_(cols),
      ranks_(ranks),
      rects_(std::move(rects)),
      by_owner_(static_cast<std::size_t>(ranks)),
      local_size_(static_cast<std::size_t>(ranks), 0),
      description_(std::move(description)) {
  for (std::size_t i = 0; i < rects_.size(); ++i) {
    const Rect& r = rects_[i];
    if (r.owner < 0 || r.owner >= ranks) throw std::logic_error("layout: rectangle owner out of range");
    by_owner_[r.owner].push_back(i);
    if (r.rows > 0 && r.cols > 0) {
      Index end = r.offset + (r.rows - 1) + (r.cols - 1) * r.ld + 1;
      local_size_[r.owner] = std::max(local_size_[r.owner], end);
    }
  }
  if (!min_local_sizes.empty()) {
    if (min_local_sizes.size() != local_size_.size())
      throw std::logic_error("layout: min_local_sizes has " + std::to_string(min_local_sizes.size()) + " entries for " +
                             std::to_string(ranks) + " ranks");
    for (std::size_t i = 0; i < local_size_.size(); ++i) local_size_[i] = std::max(local_size_[i], min_local_sizes[i]);
  }
}

void Layout::check() const {
  Index covered = 0;
  for (const Rect& r : rects_) {
    if (r.rows < 0 || r.cols < 0 || r.row < 0 || r.col < 0 || r.row + r.rows > rows_ || r.col + r.cols > cols_)
      throw std::logic_error("layout " + description_ + ": rectangle outside the matrix");
    if (r.rows > 0 && r.ld < r.rows) throw std::logic_error("layout " + description_ + ": ld < rows");
    covered += r.rows * r.cols;
  }
  if (covered != rows_ * cols_)
    throw std::logic_error("layout " + description_ + ": rectangles cover " + std::to_string(covered) + " of " +
                           std::to_string(rows_ * cols_) + " elements");
  // With exact coverage, no overlap <=> sum of areas == area of the union.
  // Check pairwise overlap cheaply by sorting rectangles by row then column
  // (layouts here are small enough for a sweep over sorted starts).
  std::vector<const Rect*> sorted;
  for (const Rect& r : rects_)
    if (r.rows > 0 && r.cols > 0) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const Rect* a, const Rect* b) { return a->col != b->col ? a->col < b->col : a->row < b->row; });
  for (std::size_t i = 0; i < sorted.size(); ++i)
    for (std::size_t j = i + 1; j < sorted.size() && sorted[j]->col < sorted[i]->col + sorted[i]->cols; ++j) {
      const Rect& a = *sorted[i];
      const Rect& b = *sorted[j];
      if (a.row < b.row + b.rows && b.row < a.row + a.rows)
        throw std::logic_error("layout " + description_ + ": rectangles overlap");
    }
}

Index block_start(Index total, int parts, int i) {
  Index base = total / parts, extra = total % parts;
  return i * base + std::min<Index>(i, extra);
}

Index block_size(Index total, int parts, int i) { return total / parts + (i < total % parts ? 1 : 0); }

Layout single_owner(Index rows, Index cols, int ranks, int owner) {
  return Layout(rows, cols, ranks, {Rect{0, 0, rows, cols, owner, 0, std::max<Index>(1, rows)}},
                "single(" + std::to_string(owner) + ")");
}

Layout row_blocks(Index rows, Index cols, int ranks) {
  std::vector<Rect> rects;
  for (int i = 0; i < ranks; ++i) {
    Index r0 = block_start(rows, ranks, i), nr = block_size(rows, ranks, i);
    rects.push_back(Rect{r0, 0, nr, cols, i, 0, std::max<Index>(1, nr)});
  }
  return Layout(rows, cols, ranks, std::move(rects), "row-blocks");
}

Layout col_blocks(Index rows, Index cols, int ranks) {
  std::vector<Rect> rects;
  for (int i = 0; i < ranks; ++i) {
    Index c0 = block_start(cols, ranks, i), nc = block_size(cols, ranks, i);
    rects.push_back(Rect{0, c0, rows, nc, i, 0, std::max<Index>(1, rows)});
  }
  return Layout(rows, cols, ranks, std::move(rects), "col-blocks");
}

Index block_cyclic_block_count(Index rows, Index cols, Index mb, Index nb) {
  return ((rows + mb - 1) / mb) * ((cols + nb - 1) / nb);
}

Index block_cyclic_extent(Index total, Index nb, int proc, int procs) {
  if (total <= 0 || nb <= 0 || procs <= 0) return 0;
  const Index blocks = total / nb;  // whole blocks
  Index n = (blocks / procs) * nb;
  const Index extra = blocks % procs;
  if (proc < extra)
    n += nb;
  else if (proc == extra)
    n += total % nb;
  return n;
}

Layout block_cyclic(Index rows, Index cols, Index mb, Index nb, int pr, int pc) {
  // Block (bi, bj) lives on process row bi % pr, column bj % pc, at local
  // block position (bi / pr, bj / pc). Example: rows = 10, mb = 3, pr = 2:
  // blocks 0..3 have heights 3 3 3 1; process row 0 holds blocks 0, 2
  // (local rows 0-2, 3-5), process row 1 holds blocks 1, 3 (local rows 0-2, 3).
  const Index nbr = (rows + mb - 1) / mb, nbc = (cols + nb - 1) / nb;
  // Local row count of each process row (numroc).
  std::vector<Index> locr(static_cast<std::size_t>(pr), 0);
  for (Index bi = 0; bi < nbr; ++bi) locr[bi % pr] += std::min(mb, rows - bi * mb);
  std::vector<Rect> rects;
  rects.reserve(static_cast<std::size_t>(nbr * nbc));
  for (Index bj = 0; bj < nbc; ++bj)
    for (Index bi = 0; bi < nbr; ++bi) {
      int prow = static_cast<int>(bi % pr), pcol = static_cast<int>(bj % pc);
      Index ld = std::max<Index>(1, locr[prow]);
      Rect r;
      r.row = bi * mb;
      r.col = bj * nb;
      r.rows = std::min(mb, rows - r.row);
      r.cols = std::min(nb, cols - r.col);
      r.owner = prow * pc + pcol;
      r.ld = ld;
      r.offset = (bi / pr) * mb + (bj / pc) * nb * ld;
      rects.push_back(r);
    }
  return Layout(rows, cols, pr * pc, std::move(rects),
                "block-cyclic " + std::to_string(pr) + "x" + std::to_string(pc) + " nb=" + std::to_string(nb));
}

Layout embed(const Layout& inner, Index row0, Index col0, Index rows, Index cols, int ranks,
             const std::vector<int>& rank_map) {
  if (static_cast<int>(rank_map.size()) != inner.ranks())
    throw std::logic_error("embed: rank map size differs from the inner layout's ranks");
  std::vector<Rect> rects = inner.rects();
  for (Rect& r : rects) {
    r.row += row0;
    r.col += col0;
    r.owner = rank_map[r.owner];
  }
  // The embedded layout describes only part of a rows×cols matrix, so it is
  // not a full cover; it is used as one side of a partial redistribution.
  Layout out(rows, cols, ranks, std::move(rects), inner.description() + " embedded");
  return out;
}

}  // namespace mmbench
