// tpMM's communication schedule (docs/method.md §2.4, thesis Alg. 2.1), without MPI:
// which B column block a rank multiplies in each step and with whom it
// swaps blocks in between, so the algorithm, its node-locality count and the
// tests share one simulation.
//
// tpmm(G): a group of one rank multiplies its current block; otherwise both
// halves run tpmm, then rank g of the first half swaps its current block
// with rank g + |G|/2, then both halves run tpmm again. Rank i starts with
// block i. Example, p = 4, rank 0: multiply block 0, swap with 1 (now holds
// 1), multiply 1, swap with 2 (rank 2 then holds block 3: it swapped 2 <-> 3
// with rank 3 before), multiply 3, swap with 1, multiply 2.
#pragma once

#include <vector>

namespace mmbench::algos {

struct TpmmStep {
  int block = 0;        // B column block multiplied in this step
  int partner = -1;     // rank swapped with after this step; -1 after the last
  int incoming = -1;    // block received in that swap
};

// The p steps of `rank` (p DGEMMs, p - 1 swaps). Requires p a power of two
// (>= 1) and 0 <= rank < p; throws std::invalid_argument otherwise.
std::vector<TpmmStep> tpmm_schedule(int p, int rank);

// How many of `rank`'s swaps are with a rank on the same node, given the
// node of every rank (node_of_rank[i] = any id shared by exactly the ranks
// of i's node). eq. 2.2: p = 32, 4 consecutive ranks per node -> 24 of 31.
int tpmm_node_local_swaps(const std::vector<int>& node_of_rank, int rank);

}  // namespace mmbench::algos
