// Deterministic matrix entries from the global index: any layout can be
// filled in place, without communication, and two layouts of the same
// (seed) hold the same matrix.
#pragma once

#include <cstdint>

#include "core/matrix/dist_matrix.hpp"

namespace mmbench {

// Uniform in [-1, 1), a pure function of (i, j, seed) (splitmix64 hash).
double matrix_entry(Index i, Index j, std::uint64_t seed);

// Fill this rank's part of `m` with matrix_entry(i, j, seed).
void generate(DistMatrix& m, std::uint64_t seed);

}  // namespace mmbench
