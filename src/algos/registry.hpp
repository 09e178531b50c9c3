// The table of all algorithms. Adding an algorithm = one file in this
// folder plus one line in registry.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "algos/algorithm.hpp"
#include "model/algorithm_models.hpp"

namespace mmbench::algos {

const std::vector<const Algorithm*>& all_algorithms();
// nullptr if unknown.
const Algorithm* find_algorithm(std::string_view name);
// The models of the registered algorithm with this name (a view of the
// registry, not a table of its own); nullptr if no algorithm has it.
const model::AlgorithmModel* find_model(std::string_view name);
// The known name closest to `name` (edit distance), for "did you mean".
std::string closest_algorithm(std::string_view name);

}  // namespace mmbench::algos
