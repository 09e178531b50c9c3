#include "algos/process_grid.hpp"

namespace mmbench::algos {

std::pair<int, int> most_square_grid(int p) {
  int pr = 1;
  for (int d = 1; static_cast<long long>(d) * d <= p; ++d)
    if (p % d == 0) pr = d;
  return {pr, p / pr};
}

std::pair<int, int> resolve_grid(const Options& opt, int ranks) {
  if (opt.pr > 0 && opt.pc > 0) return {opt.pr, opt.pc};
  return most_square_grid(ranks);
}

std::string grid_problem(const Options& opt, int ranks) {
  if (opt.pr > 0 && opt.pc > 0 && opt.pr * opt.pc != ranks)
    return "grid " + std::to_string(opt.pr) + "x" + std::to_string(opt.pc) + " needs " +
           std::to_string(opt.pr * opt.pc) + " ranks, have " + std::to_string(ranks);
  return {};
}

}  // namespace mmbench::algos
