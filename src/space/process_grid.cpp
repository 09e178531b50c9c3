#include "space/process_grid.hpp"

#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace mmbench::space {

std::pair<int, int> most_square_grid(int p) {
  if (p < 1) throw std::invalid_argument("most_square_grid: p = " + std::to_string(p) + " ranks, needs p >= 1");
  // The models ask for the same few p again and again (predict at p = 1e5
  // spent 60 % of its time here): remembered per thread, a bounded table.
  thread_local std::unordered_map<int, std::pair<int, int>> known;
  if (auto it = known.find(p); it != known.end()) return it->second;
  // Start at floor(sqrt(p)) (corrected if the floating sqrt lands one off)
  // and walk down to the first divisor.
  int pr = static_cast<int>(std::sqrt(static_cast<double>(p)));
  while (static_cast<long long>(pr) * pr > p) --pr;
  while (static_cast<long long>(pr + 1) * (pr + 1) <= p) ++pr;
  while (p % pr != 0) --pr;
  if (known.size() >= 4096) known.clear();
  return known[p] = {pr, p / pr};
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

}  // namespace mmbench::space
