#include "algos/tpmm_schedule.hpp"

#include <stdexcept>
#include <string>

namespace mmbench::algos {

namespace {

// Runs tpmm on ranks [g0, g0 + size) over the blocks `held` (held[i] = block
// rank i holds now), appending `rank`'s steps. All ranks are simulated so the
// block a partner sends is known; O(p log p) swaps per call in total.
void simulate(int g0, int size, std::vector<int>& held, int rank, std::vector<TpmmStep>& out) {
  if (size == 1) {
    if (g0 == rank) out.push_back(TpmmStep{held[g0], -1, -1});
    return;
  }
  const int half = size / 2;
  simulate(g0, half, held, rank, out);
  simulate(g0 + half, half, held, rank, out);
  for (int g = g0; g < g0 + half; ++g) {
    if (g == rank || g + half == rank) {
      const int partner = g == rank ? g + half : g;
      out.back().partner = partner;
      out.back().incoming = held[partner];
    }
    std::swap(held[g], held[g + half]);
  }
  simulate(g0, half, held, rank, out);
  simulate(g0 + half, half, held, rank, out);
}

}  // namespace

std::vector<TpmmStep> tpmm_schedule(int p, int rank) {
  if (p < 1 || (p & (p - 1)) != 0)
    throw std::invalid_argument("tpmm: p = " + std::to_string(p) + " ranks, tpMM needs a power of two");
  if (rank < 0 || rank >= p)
    throw std::invalid_argument("tpmm: rank " + std::to_string(rank) + " outside 0.." + std::to_string(p - 1));
  std::vector<int> held(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) held[i] = i;
  std::vector<TpmmStep> out;
  out.reserve(static_cast<std::size_t>(p));
  simulate(0, p, held, rank, out);
  return out;
}

int tpmm_node_local_swaps(const std::vector<int>& node_of_rank, int rank) {
  int local = 0;
  for (const TpmmStep& s : tpmm_schedule(static_cast<int>(node_of_rank.size()), rank))
    if (s.partner >= 0 && node_of_rank[s.partner] == node_of_rank[rank]) ++local;
  return local;
}

}  // namespace mmbench::algos
