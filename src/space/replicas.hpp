// 2.5D matrix multiplication (Solomonik & Demmel, Euro-Par 2011): what the
// CLI, the selection and the cost model need to know about its replication
// factor c. The algorithm itself is in algos/two_point_five_d.cpp.
//
// p = q^2 * c ranks form c layers of a q x q grid. Memory per rank grows
// with c (each layer holds a copy of A and B), communication shrinks:
// bandwidth ~ n^2 / sqrt(c p), latency ~ sqrt(p / c^3). c = 1 is 2D SUMMA,
// c = p^(1/3) the 3D algorithm; here any c with p / c a perfect square is
// allowed, so c = p (q = 1: every rank multiplies a k-slice of the whole
// problem, then C is summed) works for every p.
#pragma once

#include <vector>

#include "space/problem.hpp"

namespace mmbench::space {

// Every c with p = q^2 * c, ascending. p = 8 -> {2, 8}; p = 18 -> {2, 18};
// p = 16 -> {1, 4, 16}; p = 2 -> {2}.
std::vector<int> replica_choices(int p);

// q for a valid c (sqrt(p / c)); 0 if c is not a choice for p.
int layer_grid_side(int p, int c);

// Doubles per rank a c-layer plan holds: its A, B, C blocks (every layer
// holds copies) and the two panel buffers. The largest over ranks.
double two_point_five_d_doubles_per_rank(const Problem& pb, int p, int c);

// --replicas auto: the largest c of replica_choices(p) whose memory fits in
// max_doubles_per_rank (<= 0: no limit); 0 if none fits.
int largest_replicas_that_fit(const Problem& pb, int p, double max_doubles_per_rank);

}  // namespace mmbench::space
