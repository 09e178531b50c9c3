// The tunable choices of one configuration and which of them an algorithm
// reads: the vocabulary shared by the algorithms (src/algos/), their cost
// models (src/model/), the ranking of candidates (src/ranking/) and the CLI.
// Plain data, no behaviour beyond defaults.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/lb_in_force.hpp"
#include "local/local_kernel_spec.hpp"
#include "space/strassen_groups.hpp"

namespace mmbench::space {

// The tunable choices of one configuration. Algorithms ignore what they do
// not use (uses() says which they use).
struct Options {
  int threads = 1;        // BLAS threads per rank
  // Ranks x threads hybrid (space/hybrid.hpp): t > 1 runs the algorithm on
  // every t-th rank of the job with t x threads BLAS threads each, the other
  // ranks idle, so it keeps the job's cores busy with t times fewer ranks.
  int hybrid = 1;
  int nb = 64;            // block-cyclic block size
  int lb = 0;             // PBLAS logical block size; 0 = library default (32)
  // lb is a tuned width (--lb auto, a profile's lb), not an explicit one:
  // every PDGEMM -- also each leaf of parallel Strassen -- runs
  // lb_in_force(lb, lb_cap_rule(), its k, its grid, nb, its panels' length)
  // (core/lb_in_force.hpp) with the profile's rule, lb_tuned_cap: its
  // measured lb curve, or its lb_panels panels per share.
  bool lb_tuned = false;
  LbCap lb_tuned_cap = LbCap::tuned();
  LbCap lb_cap_rule() const { return lb_tuned ? lb_tuned_cap : LbCap::none(); }
  int pr = 0, pc = 0;     // process grid; 0 = most square
  int recursions = -1;    // parallel Strassen levels; -1 = deepest that applies
  // The local kernel in each rank (levels, variant, cut-off, the GEMM at
  // the bottom and its blocking), one value (local/local_kernel_spec.hpp).
  local::LocalKernelSpec local;
  // Q7 group splits chosen by the cost model (--q7-split model); null = the
  // paper's eq. 2.18.
  std::shared_ptr<const Q7SplitTable> q7_splits;
  // 2.5d: layers c (p = q^2 c); 0 = the largest that applies.
  int replicas = 0;
  // ring: at most this many column chunks a step (space/ring_chunks.hpp),
  // MPI_Testall between them; 0 = up to 4. --ring-chunks auto sets 1 where
  // the refined model prices one chunk faster (e.g. the profile's overlap
  // hides nothing of the shift, so chunks only narrow the multiplies).
  int ring_chunks = 0;
};

// Which Options an algorithm reads (so a sweep does not repeat identical
// configurations for options the algorithm ignores).
struct Uses {
  bool grid = false, nb = false, lb = false, recursions = false, local_levels = false, q7_split = false,
       replicas = false, ring_chunks = false;
  // Every algorithm that computes on all its ranks can run as a ranks x
  // threads hybrid; the dgemm peer (one rank with every core) cannot.
  bool hybrid = true;
};

}  // namespace mmbench::space
