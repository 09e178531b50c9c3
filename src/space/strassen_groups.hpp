// Group arithmetic of the parallel Strassen schemata and of tpMM, without MPI:
// how many ranks each M-task group gets (docs/method.md §3.2, eq. 2.18), how deep the
// recursion may go (eq. 2.9), how many of tpMM's exchanges stay inside a node
// (eq. 2.2), and how many messages a Q7 redistribution between two unequal
// groups costs one rank (eq. 2.19).
//
// Pure integer functions so the algorithms, the cost models and the tuner
// agree on one answer and the answers can be tested without ranks.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mmbench::space {

// Q7 group sizes in the order G11, G12, G21, G22 (eq. 2.18).
// |G22| = ceil(p/7) (it computes one product, the others two); the remaining
// p - ceil(p/7) ranks are split as evenly as possible over G11, G12, G21, the
// first groups getting the remainder.
//   p = 7  -> {2, 2, 2, 1};   p = 16 -> {5, 4, 4, 3};   p = 4 -> {1, 1, 1, 1}
// Requires p >= 4 (every group needs a rank).
std::array<int, 4> q7_group_sizes(int p);

// Q7 splits chosen by something other than eq. 2.18 -- the cost model, for
// `--q7-split model` (model::choose_q7_splits in model/algorithm_models.hpp).
// Key: (Q7 levels still to do on the group, this one included; the group's
// size). The rule for one
// group must not depend on where the group sits, only on its size and depth,
// since at depth d every group works on the same quadrant size.
//   {{2, 64}, {19, 18, 17, 10}}: a 64-rank job with r = 2 splits 19/18/17/10;
//   groups of those sizes at the next level fall back to eq. 2.18 unless the
//   table has {1, 19}, {1, 18}, ... entries too.
using Q7SplitTable = std::map<std::pair<int, int>, std::array<int, 4>>;

// The split of a group of `ranks` ranks with `levels` Q7 levels to go: the
// table's entry if there is one (table may be null), else q7_group_sizes.
// Throws std::invalid_argument if an entry has an empty group or does not
// add up to `ranks`.
std::array<int, 4> q7_split(int ranks, int levels, const Q7SplitTable* table);

// The splits of p ranks a model should compare (every group >= min_group),
// the paper's split q7_group_sizes(p) first:
//   p <= 32: every composition of p into four groups (4495 at p = 32);
//   p > 32:  the splits within +-4 ranks of the paper's in each group (at
//            most 9^3 = 729; +-2, 125, above p = 1024 where a rank is
//            under 0.4% of a group), since far-off splits leave a group
//            with far too much or too little work: 64 -> 18/18/18/10 and
//            e.g. 20/18/16/10, 18/18/17/11, but not 16/16/16/16.
// Empty when p < 4 * min_group. Requires min_group >= 1.
std::vector<std::array<int, 4>> q7_split_candidates(int p, int min_group);

// "18/18/18/10".
std::string format_split(const std::array<int, 4>& sizes);

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

}  // namespace mmbench::space
