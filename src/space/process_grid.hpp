// Choosing a 2D process grid pr x pc for p ranks.
#pragma once

#include <string>
#include <utility>

#include "space/options.hpp"

namespace mmbench::space {

// The most square factorisation of p with pr <= pc. Example: p = 12 -> 3 x 4,
// p = 7 -> 1 x 7.
std::pair<int, int> most_square_grid(int p);
// The grid of the options (pr, pc), or the most square one when unset.
std::pair<int, int> resolve_grid(const Options& opt, int ranks);
// Empty if the options' grid fits `ranks`, else the reason.
std::string grid_problem(const Options& opt, int ranks);

}  // namespace mmbench::space
