// The recursive data layouts of the parallel Strassen combinations
// (docs/method.md §3.3, Abb. 2.10-2.13), as Layouts, without MPI.
//
// layout(m x k, G, r): the cut-off algorithm's layout over the ranks of G
// when r = 0; otherwise quadrant q = (i, j) is stored as
// layout(m/2 x k/2, G_q, r - 1), placed into G's numbering with embed().
// The groups G_11, G_12, G_21, G_22 are consecutive rank ranges of G in
// this order (their sizes from the schema). Every rank lies in exactly one
// group per level, so its local buffer at every level IS its leaf buffer:
// the quadrant it owns at the top is stored exactly as the leaf algorithm
// wants it, and no level needs to copy its own quadrant.
//
// Example, Q8 + tpMM, p = 8, r = 1, 8 x 8 A: G11 = ranks 0-1 hold A11
// (rows 0-3, columns 0-3) in 2 row blocks: rank 0 rows 0-1, rank 1 rows 2-3;
// G12 = ranks 2-3 hold A12 (rows 0-3, columns 4-7); ... rank 7 holds rows
// 6-7 of A22, columns 4-7.
#pragma once

#include <algorithm>
#include <array>
#include <memory>

#include "algos/vocabulary.hpp"
#include "space/strassen_groups.hpp"
#include "core/matrix/layout.hpp"
#include "core/simulation.hpp"

namespace mmbench::algos::strassen {

// How a level moves data between its groups (strassen_transport.hpp).
enum class Transport { redistribution, pdgemr2d };

struct Config {
  Schema schema = Schema::q8;
  Cutoff cutoff = Cutoff::dgemm;
  int nb = 64;  // block-cyclic block of pdgemm leaves
  // Q7 splits chosen by the cost model; null = eq. 2.18 everywhere.
  std::shared_ptr<const Q7SplitTable> q7_splits;
  Transport transport = Transport::redistribution;
};

struct Layouts {
  Layout a, b, c;
};

// Group sizes and first ranks of G11, G12, G21, G22 in a group of `ranks`.
struct GroupSplit {
  std::array<int, 4> size{}, start{};
  int group_of(int rank) const;
};
// The paper's split (Q7: eq. 2.18; Q8: four equal groups).
GroupSplit split_groups(Schema s, int ranks);
// The split a level with `levels` levels to go (this one included) uses:
// cfg.q7_splits where it has an entry, else the paper's.
GroupSplit split_groups(const Config& cfg, int ranks, int levels);

// The cut-off algorithm's layouts for an m x k times k x n product on `ranks`
// ranks (ring/tpmm: row/column blocks; pdgemm: block-cyclic nb on the most
// square grid; dgemm: one rank).
Layouts leaf_layouts(const Config& cfg, Index m, Index n, Index k, int ranks);

// layout(m, n, k, ranks, r) as above; m, n, k must be divisible by 2^r.
Layouts recursive_layouts(const Config& cfg, Index m, Index n, Index k, int ranks, int r);

// The same rectangles cut to the top-left rows x cols (dropping what lies
// outside), keeping every rank's buffer as long as in `padded`: the caller
// fills only the true matrix, the pad entries behind it stay zero.
Layout clip(const Layout& padded, Index rows, Index cols);

// x rounded up to a multiple of `multiple` (the padded size: multiple = 2^r).
inline Index round_up(Index x, Index multiple) { return (x + multiple - 1) / multiple * multiple; }

// out = sum_q coef[q] * x(q) over n doubles (the first nonzero term
// initialises, so out need not be cleared). The quadrants a rank holds of
// one level all have the same local layout (see above), so the operand and
// result sums of Strassen's formulas are sums of local buffers.
template <class Get>
void signed_sum(double* out, Index n, const int* coef, int terms, Get x) {
  if (sim::charged()) {  // simulated, charged computation: t terms cost t - 1 sums (a copy at least)
    int t = 0;
    for (int q = 0; q < terms; ++q) t += coef[q] != 0;
    // Bytes as the loops below move them: the first term is read and out
    // written (2 touches per element), every further one reads out and the
    // term and writes out (3).
    const Index touches = t > 0 ? 2 + 3 * Index(t - 1) : 0;
    sim::charge_add(std::max(1, t - 1) * n, 8 * touches * n);
    return;
  }
  bool first = true;
  for (int q = 0; q < terms; ++q) {
    if (coef[q] == 0) continue;
    const double* s = x(q);
    const double c = coef[q];
    if (first)
      for (Index i = 0; i < n; ++i) out[i] = c * s[i];
    else
      for (Index i = 0; i < n; ++i) out[i] += c * s[i];
    first = false;
  }
}

}  // namespace mmbench::algos::strassen
