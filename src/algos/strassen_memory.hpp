// What a parallel Strassen plan (parallel_strassen.hpp) holds per rank, for
// the rank that holds the most, worked out from the same group splits, task
// tables and derived moves as the plan, without building its layouts
// (docs/method.md §7.7).
//
// Redistribution transport (strassen-q7+ring and the Q8 combinations): a
// rank's share of a level's matrices is its leaf share at every level
// (strassen_layout.hpp: its buffer at every level IS its leaf buffer), so a
// rank whose groups are g_0 .. g_{r-1} holds, with (a, b, c) the leaf
// algorithm's share of A, B, C on its leaf group:
//   A, B, C            a, b, c (the caller's padded matrices)
//   per level, task g  S, T: a + b; its products: |tasks(g)| c;
//                      received quadrants and products (one buffer each),
//                      and the two redistributions' packed messages (what
//                      it sends and receives: each move one share)
//   the leaf           the leaf algorithm's own buffers (ring's B blocks, the
//                      local kernel's workspace, PBLAS's panels)
// The most is the maximum over the group paths of the first rank of each
// leaf group (the first ranks take the remainders). Q8's groups are equal,
// so every leaf is alike and each level's worst task is chosen on its own;
// Q7's are walked path by path (4^r paths, r <= 7 for p <= 2^20).
//
// pdgemr2d transport (strassen-q7+pdgemm): every level is block-cyclic on
// its own group's grid, so shares differ per level; per level the operand
// quadrants its products read and the scratch W (the level's C share),
// S, T and its products on the group grid; ScaLAPACK's pdgemr2d and PBLAS
// allocate their own buffers (the library part, an estimate: one move's
// shares on both sides, or the leaf PDGEMM's panels, whichever is larger).
// Walked path by path for the first rank of each leaf group.
#pragma once

#include "algos/memory_estimate.hpp"
#include "algos/strassen_layout.hpp"

namespace mmbench::algos::strassen {

// The plan StrassenPlan(cfg, opt, pb, r, comm) builds on `ranks` ranks;
// r >= 1 levels that apply there (the combination's check() passed).
MemoryEstimate plan_memory(const Config& cfg, const Options& opt, const Problem& pb, int r, int ranks);

}  // namespace mmbench::algos::strassen
