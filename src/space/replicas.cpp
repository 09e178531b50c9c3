#include "space/replicas.hpp"

#include <algorithm>
#include <cmath>

namespace mmbench::space {

std::vector<int> replica_choices(int p) {
  std::vector<int> out;
  for (int c = 1; c <= p; ++c)
    if (p % c == 0 && layer_grid_side(p, c) > 0) out.push_back(c);
  return out;
}

int layer_grid_side(int p, int c) {
  if (c < 1 || p % c != 0) return 0;
  const int sq = p / c;
  int q = static_cast<int>(std::lround(std::sqrt(static_cast<double>(sq))));
  while (q * q > sq) --q;
  while ((q + 1) * (q + 1) <= sq) ++q;
  return q * q == sq ? q : 0;
}

double two_point_five_d_doubles_per_rank(const Problem& pb, int p, int c) {
  const int q = layer_grid_side(p, c);
  if (q == 0) return 0;
  const double bm = double(block_size(pb.m, q, 0)), bn = double(block_size(pb.n, q, 0)),
               bk = double(block_size(pb.k, q, 0));
  // A, B, C blocks + an A panel (bm x bk) and a B panel (bk x bn).
  return bm * bk + bk * bn + bm * bn + bm * bk + bk * bn;
}

int largest_replicas_that_fit(const Problem& pb, int p, double max_doubles_per_rank) {
  const std::vector<int> cs = replica_choices(p);
  for (auto it = cs.rbegin(); it != cs.rend(); ++it)
    if (max_doubles_per_rank <= 0 || two_point_five_d_doubles_per_rank(pb, p, *it) <= max_doubles_per_rank)
      return *it;
  return 0;
}

}  // namespace mmbench::space
