#include "algos/strassen_layout.hpp"

#include <stdexcept>

#include "space/process_grid.hpp"
#include "space/strassen_groups.hpp"

namespace mmbench::algos::strassen {

int GroupSplit::group_of(int rank) const {
  for (int g = 3; g >= 0; --g)
    if (rank >= start[g]) return g;
  return 0;
}

namespace {
GroupSplit with_starts(const std::array<int, 4>& size) {
  GroupSplit out;
  out.size = size;
  for (int g = 1; g < 4; ++g) out.start[g] = out.start[g - 1] + out.size[g - 1];
  return out;
}
}  // namespace

GroupSplit split_groups(Schema s, int ranks) {
  return with_starts(s == Schema::q7 ? q7_group_sizes(ranks) : q8_group_sizes(ranks));
}

GroupSplit split_groups(const Config& cfg, int ranks, int levels) {
  if (cfg.schema == Schema::q7) return with_starts(q7_split(ranks, levels, cfg.q7_splits.get()));
  return split_groups(cfg.schema, ranks);
}

Layouts leaf_layouts(const Config& cfg, Index m, Index n, Index k, int ranks) {
  switch (cfg.cutoff) {
    case Cutoff::ring:
    case Cutoff::tpmm:
      return {row_blocks(m, k, ranks), col_blocks(k, n, ranks), row_blocks(m, n, ranks)};
    case Cutoff::pdgemm: {
      auto [pr, pc] = most_square_grid(ranks);
      return {block_cyclic(m, k, cfg.nb, cfg.nb, pr, pc), block_cyclic(k, n, cfg.nb, cfg.nb, pr, pc),
              block_cyclic(m, n, cfg.nb, cfg.nb, pr, pc)};
    }
    case Cutoff::dgemm:
      if (ranks != 1) throw std::logic_error("strassen: a dgemm leaf needs a group of one rank");
      return {single_owner(m, k, 1, 0), single_owner(k, n, 1, 0), single_owner(m, n, 1, 0)};
  }
  throw std::logic_error("strassen: unknown cut-off");
}

namespace {
// The four quadrant layouts (each in its group's numbering) placed into one
// rows x cols layout over `ranks`.
Layout assemble(const std::array<const Layout*, 4>& quad, const GroupSplit& gs, Index rows, Index cols,
                int ranks) {
  std::vector<Rect> rects;
  for (int q = 0; q < 4; ++q) {
    std::vector<int> map(static_cast<std::size_t>(gs.size[q]));
    for (int i = 0; i < gs.size[q]; ++i) map[i] = gs.start[q] + i;
    Layout e = embed(*quad[q], (q / 2) * rows / 2, (q % 2) * cols / 2, rows, cols, ranks, map);
    rects.insert(rects.end(), e.rects().begin(), e.rects().end());
  }
  return Layout(rows, cols, ranks, std::move(rects), "strassen quadrants of [" + quad[0]->description() + "]");
}
}  // namespace

Layouts recursive_layouts(const Config& cfg, Index m, Index n, Index k, int ranks, int r) {
  if (r == 0) return leaf_layouts(cfg, m, n, k, ranks);
  if (m % 2 || n % 2 || k % 2) throw std::logic_error("strassen layout: odd size at a Strassen level");
  GroupSplit gs = split_groups(cfg, ranks, r);
  std::array<Layouts, 4> child;
  for (int g = 0; g < 4; ++g) child[g] = recursive_layouts(cfg, m / 2, n / 2, k / 2, gs.size[g], r - 1);
  return {assemble({&child[0].a, &child[1].a, &child[2].a, &child[3].a}, gs, m, k, ranks),
          assemble({&child[0].b, &child[1].b, &child[2].b, &child[3].b}, gs, k, n, ranks),
          assemble({&child[0].c, &child[1].c, &child[2].c, &child[3].c}, gs, m, n, ranks)};
}

Layout clip(const Layout& padded, Index rows, Index cols) {
  std::vector<Rect> rects;
  for (Rect r : padded.rects()) {
    if (r.row >= rows || r.col >= cols) continue;
    // Cutting the bottom/right keeps the top-left corner, so offset and ld stay.
    r.rows = std::min(r.rows, rows - r.row);
    r.cols = std::min(r.cols, cols - r.col);
    rects.push_back(r);
  }
  std::vector<Index> sizes(static_cast<std::size_t>(padded.ranks()));
  for (int i = 0; i < padded.ranks(); ++i) sizes[i] = padded.local_size(i);
  return Layout(rows, cols, padded.ranks(), std::move(rects), padded.description(), sizes);
}

}  // namespace mmbench::algos::strassen
