// Group arithmetic of the parallel Strassen schemata and of tpMM, without MPI:
// how many ranks each M-task group gets (SPEC 2.6, eq. 2.18), how deep the
// recursion may go (eq. 2.9), how many of tpMM's exchanges stay inside a node
// (eq. 2.2), and how many messages a Q7 redistribution between two unequal
// groups costs one rank (eq. 2.19).
//
// Pure integer functions so the algorithms, the cost models and the tuner
// agree on one answer and the answers can be tested without ranks.
#pragma once

#include <array>
#include <cstdint>

namespace mmbench::algos {

// Q7 group sizes in the order G11, G12, G21, G22 (eq. 2.18).
// |G22| = ceil(p/7) (it computes one product, the others two); the remaining
// p - ceil(p/7) ranks are split as evenly as possible over G11, G12, G21, the
// first groups getting the remainder.
//   p = 7  -> {2, 2, 2, 1};   p = 16 -> {5, 4, 4, 3};   p = 4 -> {1, 1, 1, 1}
// Requires p >= 4 (every group needs a rank).
std::array<int, 4> q7_group_sizes(int p);

// Q8 group sizes: p/4 each. Requires p >= 4 and p % 4 == 0.
std::array<int, 4> q8_group_sizes(int p);

// floor(log7 p) and floor(log4 p) (eq. 2.9), in exact integer arithmetic:
// log(p) / log(7) is rounded and may land just below the integer at an exact
// power, and floor() then loses a level. Integer powers cannot.
// Requires p >= 1.
int max_recursions_q7(int p);
int max_recursions_q8(int p);

// tpMM on p = 2^i ranks with m = 2^j consecutive ranks per node (eq. 2.2).
// Each rank performs p - 1 pairwise exchanges; the exchange after the first
// half-recursion on a group G pairs rank g with g + |G|/2. Groups are aligned
// blocks of consecutive ranks, so the pair shares a node exactly when
// |G| <= m. A rank takes part in p/|G| exchanges on groups of size |G|, hence
//   o(p, m) = sum_{i=1..log2 m} 2^(log2 p - i) = p/2 + p/4 + ... + p/m.
//   o(32, 4) = 16 + 8 = 24 of 31.
// m > p (all ranks in one node) gives p - 1. Requires p and m powers of two.
int tpmm_node_local_exchanges(int p, int ranks_per_node);
// The total number of exchanges per rank, p - 1 (p a power of two).
int tpmm_total_exchanges(int p);

// Row interval of `rank` when `rows` rows are split over `ranks` ranks in
// Ring's rule (contiguous blocks, the first rows % ranks ranks get one row
// more). begin is inclusive, end exclusive; empty when rank >= rows.
//   rows = 10, ranks = 4 -> [0,3) [3,6) [6,8) [8,10)
struct RowBlock {
  std::int64_t begin = 0, end = 0;
};
RowBlock ring_row_block(std::int64_t rows, int ranks, int rank);

// Maximum, over the ranks of a group of size sa, of the number of ranks of a
// group of size sb whose row blocks (Ring's rule) intersect its own row block:
// the number of messages one rank of group a receives when a quadrant of
// `rows` rows moves from the 1D row layout on b to the 1D row layout on a.
// Eq. 2.19 claims this is at most 3 between any two Q7 groups for p >= 7.
//   rows = 10, sa = 2, sb = 4: a0 = [0,5) meets b0 [0,3), b1 [3,6) -> 2;
//   a1 = [5,10) meets b1, b2 [6,8), b3 [8,10) -> 3; the answer is 3.
// Requires rows >= 0, sa >= 1, sb >= 1. O(sa).
int max_partners_1d(std::int64_t rows, int sa, int sb);

}  // namespace mmbench::algos
