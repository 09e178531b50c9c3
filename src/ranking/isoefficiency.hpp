// Isoefficiency (docs/method.md §9.1): for an algorithm on p ranks, the
// smallest square n at which its predicted efficiency reaches a target E,
//
//   efficiency(n, p) = T_1(n) / (p x threads) / T(n, p),
//
// T_1 the model's time of one rank's DGEMM on the whole n x n x n problem
// with one thread (the dgemm algorithm's own model at p = 1, no local
// levels: p x threads such ranks would finish in T_1 / (p x threads)), and
// T the time of the algorithm's best member at (n, p): the fastest of its
// candidates (grids, lb, r, L, ...) as the ranking prices them, with the
// same model, machine and memory limit. A member with local Strassen levels
// does fewer flops and can exceed 1.
//
// The search: n doubles from 16 until the efficiency reaches E (or n_max,
// or no member of the algorithm fits the memory limit any more), then
// bisection between the last n below E and the first at or above it, on
// the assumption that efficiency grows with n there (communication grows
// like n^2, computation like n^3). Where ceilings make it a saw-tooth
// (ring's ceil(n/p), PDGEMM's ceil(n/nb)) the n found is one where the
// efficiency crosses E within that bracket, which may lie a tooth above the
// first crossing. Example, the thesis' Opteron profile, paper model, ring,
// E = 0.5: about 180 p.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ranking/selection.hpp"

namespace mmbench::ranking {

struct IsoPoint {
  const algos::Algorithm* algo = nullptr;
  int p = 0;
  bool reached = false;
  // reached: the smallest n found with efficiency >= E; else the largest n
  // the search priced (0 if none: no member applies at all).
  std::int64_t n = 0;
  double efficiency = 0;  // at n (0 where no member applies)
  // The best member at (n, p), with its predictions and memory (algo null
  // where none applies).
  Candidate best;
  // Why not reached, in words ("" when reached): "efficiency 0.41 at
  // n = 1048576 (--n-max)", "no member fits the memory limit above
  // n = 65536 (efficiency 0.38 there)", or the reason no member applies.
  std::string why_not;
};

// Efficiency of a candidate's predicted time t at square n on p ranks with
// `threads` BLAS threads per rank, against T_1 of the same model.
double efficiency(double t, std::int64_t n, int p, int threads, const MachineParams& mp, ModelKind model);

// One algorithm on p ranks; target in (0, 1), n_max >= 16. base and space
// as rank_candidates (space.only is set to this algorithm here). Throws
// what rank_candidates throws.
IsoPoint isoefficiency(const algos::Algorithm& algo, int p, double target, std::int64_t n_max,
                       const algos::Options& base, const MachineParams& mp, ModelKind model,
                       const CandidateSpace& space);

}  // namespace mmbench::ranking
