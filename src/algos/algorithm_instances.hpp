// The one instance of each algorithm, each defined in its own file. The
// registry lists them (registry.cpp); the Strassen combinations run the
// classical ones at their leaves and plan their memory with them.
#pragma once

#include "algos/algorithm.hpp"

namespace mmbench::algos {

const Algorithm& dgemm_algorithm();
const Algorithm& pdgemm_algorithm();
const Algorithm& ring_algorithm();
const Algorithm& tpmm_algorithm();
const Algorithm& strassen_algorithm(int i);  // strassen_combinations.cpp, rows 0..4
const Algorithm& two_point_five_d_algorithm();

}  // namespace mmbench::algos
