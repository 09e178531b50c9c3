#include "space/strassen_depth.hpp"

#include <algorithm>
#include <set>

namespace mmbench::space {

using strassen::Cutoff;
using strassen::Schema;

std::string strassen_depth_problem(Schema s, Cutoff c, int p, int r, const Q7SplitTable* splits) {
  if (r == 0) {
    switch (c) {
      case Cutoff::ring: return {};
      case Cutoff::tpmm:
        return (p & (p - 1)) == 0 ? "" : "a leaf group of " + std::to_string(p) + " ranks is not a power of two (tpMM)";
      case Cutoff::pdgemm:
        return s == Schema::q7 || p >= 2 ? "" : "leaf groups of 1 rank (p_cut >= 2 needed; use strassen-q8+dgemm)";
      case Cutoff::dgemm: return p == 1 ? "" : "leaf groups of " + std::to_string(p) + " ranks (DGEMM needs 1)";
    }
  }
  if (s == Schema::q7 && p < 4) return "a Q7 level on a group of " + std::to_string(p) + " ranks (needs >= 4)";
  if (s == Schema::q8 && (p < 4 || p % 4 != 0))
    return "a Q8 level on a group of " + std::to_string(p) + " ranks (needs a multiple of 4)";
  const auto sizes = s == Schema::q7 ? q7_split(p, r, splits) : q8_group_sizes(p);
  for (int size : std::set<int>(sizes.begin(), sizes.end()))
    if (auto why = strassen_depth_problem(s, c, size, r - 1, splits); !why.empty()) return why;
  return {};
}

int strassen_default_depth(Schema s, Cutoff c, int p) {
  const int deepest = s == Schema::q7 ? std::max(1, max_recursions_q7(p)) : max_recursions_q8(p);
  for (int r = deepest; r >= 1; --r)
    if (strassen_depth_problem(s, c, p, r).empty()) return r;
  return 0;
}

}  // namespace mmbench::space
