// The plan of a ranks x threads hybrid (space/hybrid.hpp): an algorithm's
// own plan on every t-th rank of the job, each with t x threads BLAS
// threads, seen by the caller as one plan over all the job's ranks.
//
// Layout: the inner plan's layouts with every owner renumbered to its world
// rank (inner rank i -> world rank i * t), so the caller generates, times
// and verifies A, B, C over the whole job as for any plan; the idle ranks
// own nothing and sit out the multiplication (takes_part() is false), as
// the dgemm peer's idle ranks do. The inner plan reads only its buffers'
// data, never their layouts, so it runs on the world-numbered matrices
// unchanged: rank i * t's buffer is inner rank i's, same size and offsets.
//
// Example: p = 4, t = 2, ring: ranks 0 and 2 run a 2-rank ring with 2
// threads each; A's row blocks [0, n/2) and [n/2, n) sit on ranks 0 and 2,
// ranks 1 and 3 hold nothing and wait.
#pragma once

#include <memory>

#include "algos/algorithm.hpp"

namespace mmbench::algos {

// Collective over `world`. `inner` is the plan on `workers` (null on the
// idle ranks, whose `workers` holds a null Comm), built with inner_opt
// (space::hybrid_inner); world rank 0 computes. The plan keeps `workers`
// alive for `inner`, which refers to it.
std::unique_ptr<Plan> make_hybrid_plan(std::unique_ptr<Plan> inner, std::unique_ptr<Comm> workers, const Comm& world,
                                       int t, const Options& inner_opt);

}  // namespace mmbench::algos
