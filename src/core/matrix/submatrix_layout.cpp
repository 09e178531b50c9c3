#include "core/matrix/submatrix_layout.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmbench {

namespace {

// One dimension of a block-cyclic distribution: a first block of `first`
// indices, then blocks of `blk`, block 0 on process `src` of `nprocs`.
struct Blocking {
  Index first, blk;
  int src, nprocs;
  Index block_of(Index g) const { return g < first ? 0 : 1 + (g - first) / blk; }
  Index block_start(Index b) const { return b == 0 ? 0 : first + (b - 1) * blk; }
  int owner(Index b) const { return static_cast<int>((src + b) % nprocs); }
  // The local index of block b's first element on its owner.
  Index local_start(Index b) const {
    const Index t = b / nprocs;  // b is its owner's t-th block
    if (owner(b) != src || t == 0) return t * blk;
    return first + (t - 1) * blk;
  }
};

// The pieces of [start, start + len) cut at block edges, with the owner
// (process row or column) and local index of each piece's first element.
struct Piece {
  Index first;  // in the submatrix's coordinates
  Index len;
  int proc;
  Index local;
};

std::vector<Piece> pieces(Index start, Index len, const Blocking& d) {
  std::vector<Piece> out;
  for (Index g = start; g < start + len;) {
    const Index b = d.block_of(g);
    const Index end = std::min(start + len, d.block_start(b + 1));
    out.push_back({g - start, end - g, d.owner(b), d.local_start(b) + (g - d.block_start(b))});
    g = end;
  }
  return out;
}

}  // namespace

Index block_cyclic_count(Index total, Index first, Index blk, int proc, int src, int nprocs) {
  const int dist = (proc - src + nprocs) % nprocs;
  if (total <= first) return dist == 0 ? total : 0;
  // The first block on src; the remaining rows as a type-1 count whose
  // block 0 lies on the next process.
  const Index rest = total - first;
  const int rest_dist = (dist - 1 + nprocs) % nprocs;
  const Index blocks = rest / blk;
  Index n = (blocks / nprocs) * blk;
  const Index extra = blocks % nprocs;
  if (rest_dist < extra)
    n += blk;
  else if (rest_dist == extra)
    n += rest % blk;
  return n + (dist == 0 ? first : 0);
}

Layout block_cyclic_submatrix(const BlockCyclicDescriptor& d, Index i0, Index j0, Index rows, Index cols, int pr,
                              int pc, int my_rank) {
  if (d.mb < 1 || d.nb < 1 || d.imb < 0 || d.inb < 0 || pr < 1 || pc < 1 || d.rsrc < 0 || d.rsrc >= pr || d.csrc < 0 ||
      d.csrc >= pc)
    throw std::invalid_argument("block_cyclic_submatrix: blocking or source process out of range");
  if (i0 < 0 || j0 < 0 || rows < 0 || cols < 0 || i0 + rows > d.m || j0 + cols > d.n)
    throw std::invalid_argument("block_cyclic_submatrix: submatrix (" + std::to_string(i0) + ", " + std::to_string(j0) +
                                ") + " + std::to_string(rows) + " x " + std::to_string(cols) + " outside the " +
                                std::to_string(d.m) + " x " + std::to_string(d.n) + " matrix");
  const std::vector<Piece> rp = pieces(i0, rows, Blocking{d.first_mb(), d.mb, d.rsrc, pr});
  const std::vector<Piece> cp = pieces(j0, cols, Blocking{d.first_nb(), d.nb, d.csrc, pc});
  std::vector<Index> ld_of_row(static_cast<std::size_t>(pr));
  for (int r = 0; r < pr; ++r)
    ld_of_row[r] = std::max<Index>(1, block_cyclic_count(d.m, d.first_mb(), d.mb, r, d.rsrc, pr));
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
                "scalapack submatrix " + std::to_string(pr) + "x" + std::to_string(pc) + " mb=" + std::to_string(d.mb) +
                    " nb=" + std::to_string(d.nb));
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
