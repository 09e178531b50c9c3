// How deep a parallel Strassen recursion may go on p ranks: one rule for the
// plans, check(), the memory estimates and the cost models.
//
// Applicability of r levels on p ranks, recursively: a Q7 level needs
// p >= 4 (groups of eq. 2.18), a Q8 level p divisible by 4; every group of
// the last level must suit the cut-off (ring: any; tpmm: a power of two;
// pdgemm: >= 2 ranks under Q8, as Tab. 2.4 says p = p_cut 4^r with
// p_cut >= 2 -- p_cut = 1 is q8+dgemm; under Q7 any size; dgemm: exactly
// one rank).
// Example: q8+tpmm at p = 32: r = 1 -> groups of 8 (tpMM on 8, fine);
// r = 2 -> groups of 2; so the default is r = 2 (r <= floor(log4 32) = 2).
#pragma once

#include <string>

#include "space/strassen_formulas.hpp"
#include "space/strassen_groups.hpp"

namespace mmbench::space {

// Empty if r levels of schema s with cut-off c apply on p ranks, else why
// not, in words. splits: Q7 splits chosen by the model (may be null).
std::string strassen_depth_problem(strassen::Schema s, strassen::Cutoff c, int p, int r,
                                   const Q7SplitTable* splits = nullptr);

// The default r: the deepest r <= floor(log7 p) (Q7; at least 1) or
// floor(log4 p) (Q8) that applies with the paper's splits; 0 if none does.
int strassen_default_depth(strassen::Schema s, strassen::Cutoff c, int p);

}  // namespace mmbench::space
