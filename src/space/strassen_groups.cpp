#include "space/strassen_groups.hpp"

#include "core/matrix/layout.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mmbench::space {

namespace {

bool is_power_of_two(int x) { return x >= 1 && (x & (x - 1)) == 0; }

int log2_exact(int x) {
  int l = 0;
  while ((1 << l) < x) ++l;
  return l;
}

// floor(log_base p) by repeated multiplication; the product is kept in 64
// bits so the last step cannot overflow for any int p.
int floor_log(int p, int base) {
  int r = 0;
  std::int64_t power = base;
  while (power <= p) {
    ++r;
    power *= base;
  }
  return r;
}

// Rank of group `ranks` (Ring's rule) owning global row `row`, 0 <= row < rows.
// The first `rem` ranks own base+1 rows each, the rest base rows each.
//   rows = 10, ranks = 4: base = 2, rem = 2; rows 0..5 belong to ranks 0,1
//   (6 / 3 = 2 rows in the big blocks), row 7 -> 2 + (7 - 6) / 2 = 2.
int owner_of_row(std::int64_t rows, int ranks, std::int64_t row) {
  const std::int64_t base = rows / ranks;
  const std::int64_t rem = rows % ranks;
  const std::int64_t in_big = rem * (base + 1);
  if (row < in_big) return static_cast<int>(row / (base + 1));
  return static_cast<int>(rem + (row - in_big) / base);  // base > 0 here: row < rows
}

}  // namespace

std::array<int, 4> q7_group_sizes(int p) {
  if (p < 4)
    throw std::invalid_argument("q7_group_sizes: p = " + std::to_string(p) +
                                " ranks, schema Q7 needs p >= 4 (one rank per group)");
  const int g22 = (p + 6) / 7;  // ceil(p/7)
  const int rest = p - g22;
  const int base = rest / 3, rem = rest % 3;
  return {base + (rem > 0 ? 1 : 0), base + (rem > 1 ? 1 : 0), base, g22};
}

std::array<int, 4> q7_split(int ranks, int levels, const Q7SplitTable* table) {
  if (table) {
    if (auto it = table->find({levels, ranks}); it != table->end()) {
      const std::array<int, 4>& g = it->second;
      if (g[0] < 1 || g[1] < 1 || g[2] < 1 || g[3] < 1 || g[0] + g[1] + g[2] + g[3] != ranks)
        throw std::invalid_argument("q7_split: split " + format_split(g) + " of a group of " +
                                    std::to_string(ranks) + " ranks (needs 4 groups of >= 1 adding up to it)");
      return g;
    }
  }
  return q7_group_sizes(ranks);
}

std::vector<std::array<int, 4>> q7_split_candidates(int p, int min_group) {
  if (min_group < 1)
    throw std::invalid_argument("q7_split_candidates: min_group = " + std::to_string(min_group) + ", needs >= 1");
  std::vector<std::array<int, 4>> out;
  if (p < 4 * min_group) return out;
  const std::array<int, 4> paper = q7_group_sizes(p);
  if (paper[0] >= min_group && paper[1] >= min_group && paper[2] >= min_group && paper[3] >= min_group)
    out.push_back(paper);
  const int window = p <= 1024 ? 4 : 2;
  auto lo = [&](int g) { return p <= 32 ? min_group : std::max(min_group, paper[g] - window); };
  auto hi = [&](int g) { return p <= 32 ? p : paper[g] + window; };
  for (int a = lo(0); a <= hi(0); ++a)
    for (int b = lo(1); b <= hi(1); ++b)
      for (int c = lo(2); c <= hi(2); ++c) {
        const int d = p - a - b - c;
        if (d < lo(3) || d > hi(3)) continue;
        const std::array<int, 4> g{a, b, c, d};
        if (g != paper) out.push_back(g);
      }
  return out;
}

std::string format_split(const std::array<int, 4>& g) {
  return std::to_string(g[0]) + "/" + std::to_string(g[1]) + "/" + std::to_string(g[2]) + "/" + std::to_string(g[3]);
}

std::array<int, 4> q8_group_sizes(int p) {
  if (p < 4 || p % 4 != 0)
    throw std::invalid_argument("q8_group_sizes: p = " + std::to_string(p) +
                                " ranks, schema Q8 needs p >= 4 and p divisible by 4");
  return {p / 4, p / 4, p / 4, p / 4};
}

int max_recursions_q7(int p) {
  if (p < 1) throw std::invalid_argument("max_recursions_q7: p = " + std::to_string(p) + ", needs p >= 1");
  return floor_log(p, 7);
}

int max_recursions_q8(int p) {
  if (p < 1) throw std::invalid_argument("max_recursions_q8: p = " + std::to_string(p) + ", needs p >= 1");
  return floor_log(p, 4);
}

int tpmm_total_exchanges(int p) {
  if (!is_power_of_two(p))
    throw std::invalid_argument("tpmm_total_exchanges: p = " + std::to_string(p) +
                                ", tpMM needs a power of two p >= 1");
  return p - 1;
}

int tpmm_node_local_exchanges(int p, int ranks_per_node) {
  if (!is_power_of_two(p))
    throw std::invalid_argument("tpmm_node_local_exchanges: p = " + std::to_string(p) +
                                ", tpMM needs a power of two p >= 1");
  if (!is_power_of_two(ranks_per_node))
    throw std::invalid_argument("tpmm_node_local_exchanges: ranks_per_node = " +
                                std::to_string(ranks_per_node) + ", needs a power of two >= 1");
  if (ranks_per_node >= p) return p - 1;  // one node holds every rank
  // Sum over group sizes |G| = 2, 4, ..., m of p/|G| (eq. 2.2).
  const int log_p = log2_exact(p), log_m = log2_exact(ranks_per_node);
  int local = 0;
  for (int i = 1; i <= log_m; ++i) local += 1 << (log_p - i);
  return local;
}

RowBlock ring_row_block(std::int64_t rows, int ranks, int rank) {
  if (rows < 0) throw std::invalid_argument("ring_row_block: rows = " + std::to_string(rows) + ", needs rows >= 0");
  if (ranks < 1) throw std::invalid_argument("ring_row_block: ranks = " + std::to_string(ranks) + ", needs >= 1");
  if (rank < 0 || rank >= ranks)
    throw std::invalid_argument("ring_row_block: rank = " + std::to_string(rank) + ", needs 0 <= rank < " +
                                std::to_string(ranks));
  const std::int64_t begin = block_start(rows, ranks, rank);
  return {begin, begin + block_size(rows, ranks, rank)};
}

int max_partners_1d(std::int64_t rows, int sa, int sb) {
  if (rows < 0) throw std::invalid_argument("max_partners_1d: rows = " + std::to_string(rows) + ", needs rows >= 0");
  if (sa < 1 || sb < 1)
    throw std::invalid_argument("max_partners_1d: group sizes " + std::to_string(sa) + ", " + std::to_string(sb) +
                                ", both need >= 1");
  // The b-blocks are contiguous, in rank order, and the empty ones (if any)
  // come last, so the b-ranks meeting [begin, end) are exactly
  // owner(begin) .. owner(end - 1).
  int best = 0;
  for (int a = 0; a < sa; ++a) {
    const RowBlock blk = ring_row_block(rows, sa, a);
    if (blk.begin == blk.end) continue;
    const int first = owner_of_row(rows, sb, blk.begin);
    const int last = owner_of_row(rows, sb, blk.end - 1);
    best = std::max(best, last - first + 1);
  }
  return best;
}

}  // namespace mmbench::space
