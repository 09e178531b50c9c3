#include "algos/registry.hpp"

#include <algorithm>
#include <limits>

#include "algos/algorithm_instances.hpp"

namespace mmbench::algos {

const std::vector<const Algorithm*>& all_algorithms() {
  static const std::vector<const Algorithm*> table = {
      &dgemm_algorithm(),
      &pdgemm_algorithm(),
      &ring_algorithm(),
      &tpmm_algorithm(),
      &strassen_algorithm(0),  // strassen-q7+ring
      &strassen_algorithm(1),  // strassen-q7+pdgemm
      &strassen_algorithm(2),  // strassen-q8+pdgemm
      &strassen_algorithm(3),  // strassen-q8+tpmm
      &strassen_algorithm(4),  // strassen-q8+dgemm
      &two_point_five_d_algorithm(),
  };
  return table;
}

const Algorithm* find_algorithm(std::string_view name) {
  for (const Algorithm* a : all_algorithms())
    if (a->name() == name) return a;
  return nullptr;
}

const model::AlgorithmModel* find_model(std::string_view name) {
  const Algorithm* a = find_algorithm(name);
  return a ? &a->models() : nullptr;
}

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string closest_algorithm(std::string_view name) {
  std::string best;
  std::size_t bd = std::numeric_limits<std::size_t>::max();
  for (const Algorithm* a : all_algorithms()) {
    std::size_t d = edit_distance(name, a->name());
    if (d < bd) { bd = d; best = std::string(a->name()); }
  }
  return best;
}

}  // namespace mmbench::algos
