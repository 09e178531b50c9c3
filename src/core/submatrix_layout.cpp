#include "core/submatrix_layout.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmbench {

namespace {

// The pieces of [start, start + len) cut at block edges, with the owner
// (process row or column) and local index of each piece's first element.
struct Piece {
  Index first;  // in the submatrix's coordinates
  Index len;
  int proc;
  Index local;
};

std::vector<Piece> pieces(Index start, Index len, Index blk, int src, int nprocs) {
  std::vector<Piece> out;
  for (Index g = start; g < start + len;) {
    const Index b = g / blk;
    const Index end = std::min(start + len, (b + 1) * blk);
    out.push_back({g - start, end - g, static_cast<int>((src + b) % nprocs), (b / nprocs) * blk + g % blk});
    g = end;
  }
  return out;
}

// Local rows of process `proc` of `nprocs` for `total` rows in blocks of
// `blk` starting on process `src` (ScaLAPACK's NUMROC).
Index numroc(Index total, Index blk, int proc, int src, int nprocs) {
  const int dist = (proc - src + nprocs) % nprocs;
  const Index blocks = total / blk;
  Index n = (blocks / nprocs) * blk;
  const Index extra = blocks % nprocs;
  if (dist < extra) n += blk;
  else if (dist == extra) n += total % blk;
  return n;
}

}  // namespace

Layout block_cyclic_submatrix(const BlockCyclicDescriptor& d, Index i0, Index j0, Index rows, Index cols, int pr,
                              int pc, int my_rank) {
  if (d.mb < 1 || d.nb < 1 || pr < 1 || pc < 1 || d.rsrc < 0 || d.rsrc >= pr || d.csrc < 0 || d.csrc >= pc)
    throw std::invalid_argument("block_cyclic_submatrix: blocking or source process out of range");
  if (i0 < 0 || j0 < 0 || rows < 0 || cols < 0 || i0 + rows > d.m || j0 + cols > d.n)
    throw std::invalid_argument("block_cyclic_submatrix: submatrix (" + std::to_string(i0) + ", " +
                                std::to_string(j0) + ") + " + std::to_string(rows) + " x " + std::to_string(cols) +
                                " outside the " + std::to_string(d.m) + " x " + std::to_string(d.n) + " matrix");
  const std::vector<Piece> rp = pieces(i0, rows, d.mb, d.rsrc, pr);
  const std::vector<Piece> cp = pieces(j0, cols, d.nb, d.csrc, pc);
  std::vector<Index> ld_of_row(static_cast<std::size_t>(pr));
  for (int r = 0; r < pr; ++r) ld_of_row[r] = std::max<Index>(1, numroc(d.m, d.mb, r, d.rsrc, pr));
  std::vector<Rect> rects;
  rects.reserve(rp.size() * cp.size());
  for (const Piece& c : cp)
    for (const Piece& r : rp) {
      Rect x;
      x.row = r.first;
      x.col = c.first;
      x.rows = r.len;
      x.cols = c.len;
      x.owner = r.proc * pc + c.proc;
      x.ld = x.owner == my_rank ? d.lld : ld_of_row[r.proc];
      x.offset = r.local + c.local * x.ld;
      rects.push_back(x);
    }
  return Layout(rows, cols, pr * pc, std::move(rects),
                "scalapack submatrix " + std::to_string(pr) + "x" + std::to_string(pc) + " mb=" +
                    std::to_string(d.mb) + " nb=" + std::to_string(d.nb));
}

Layout repacked(const Layout& l, bool transpose) {
  std::vector<Rect> rects = l.rects();
  std::vector<Index> next(static_cast<std::size_t>(l.ranks()), 0);
  for (Rect& r : rects) {
    if (transpose) {
      std::swap(r.row, r.col);
      std::swap(r.rows, r.cols);
    }
    r.ld = std::max<Index>(1, r.rows);
    r.offset = next[r.owner];
    next[r.owner] += r.rows * r.cols;
  }
  return Layout(transpose ? l.cols() : l.rows(), transpose ? l.rows() : l.cols(), l.ranks(), std::move(rects),
                l.description() + (transpose ? " transposed, repacked" : " repacked"));
}

}  // namespace mmbench
