// Ranks x threads hybrids: one configuration of a job of p ranks run on
// p / t of them with t times the BLAS threads each (Options::hybrid = t),
// the other ranks idle. It keeps the same cores busy with t times fewer
// ranks: less communication, fewer and larger local GEMMs, at the price of
// the BLAS's thread efficiency. The algorithms (algos/algorithm.hpp), their
// models (model/algorithm_models.hpp) and the ranking read a hybrid as the
// plain algorithm on the computing ranks, through hybrid_inner.
//
// Which ranks compute: every t-th, ranks 0, t, 2t, ... Consecutive ranks
// share a node (mpirun --map-by core), so each node keeps R / t computing
// ranks of its R. Example: p = 8 on two nodes of 4, t = 2: ranks 0, 2 on
// node 0 and 4, 6 on node 1 compute with 2 threads each (4 ranks x 2).
#pragma once

#include <algorithm>
#include <vector>

#include "space/as_run.hpp"

namespace mmbench::space {

// The plain configuration a hybrid runs: opt with threads x t threads and
// hybrid 1, on ranks / t ranks. Identity for hybrid 1. Callers check
// ranks % t == 0 first (Algorithm::check).
inline AsRun hybrid_inner(const Options& opt, int ranks) {
  const int t = std::max(1, opt.hybrid);
  AsRun in{opt, std::max(1, ranks / t)};
  in.opt.threads = std::max(1, opt.threads) * t;
  in.opt.hybrid = 1;
  return in;
}

// The t a job of p ranks may run as, up to hybrid_max: 1, then every t that
// divides p and leaves two computing ranks or more (one rank with every
// thread is the dgemm peer, ranked on its own). Example: p = 8, hybrid_max
// 8 -> 1, 2, 4. `--algo auto`'s search and the dispatcher's both use it.
inline std::vector<int> hybrid_values(int p, int hybrid_max) {
  std::vector<int> out{1};
  for (int t = 2; t <= hybrid_max; ++t)
    if (p % t == 0 && p / t >= 2) out.push_back(t);
  return out;
}

// World rank of the computing rank `inner_rank` (0 .. p/t - 1), and whether
// world rank `rank` computes.
inline int hybrid_world_rank(int inner_rank, int t) { return inner_rank * std::max(1, t); }
inline bool hybrid_computes(int rank, int t) { return rank % std::max(1, t) == 0; }

}  // namespace mmbench::space
