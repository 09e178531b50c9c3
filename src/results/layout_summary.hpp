// `mmbench run`, after a sweep that ran ranks x threads hybrids (--hybrid,
// or --algo auto's pick of one): per problem, which layout won -- the
// fastest verified row with one BLAS thread per rank as mpirun placed the
// ranks against the fastest hybrid row, their speed paired round by round
// (the rounds interleave every configuration). The dgemm peer, one rank
// with every core, has its own column (`vs peer`) and is not counted.
// Rank 0 only.
//
// Example line:
//   layouts, m=n=k=2048: ring hybrid=2 (2 ranks x 2 threads) 1.08x [1.02, 1.11] the speed of
//   tpmm (4 ranks x 1 thread), 50 % interval, 3 rounds
#pragma once

#include <string>
#include <vector>

#include "results/result_row.hpp"
#include "run/configuration.hpp"
#include "run/sweep_rounds.hpp"

namespace mmbench::results {

// rows[i], measured[i] and configs[i] describe configuration i. One line
// per problem that has both layouts measured and verified; none otherwise.
std::vector<std::string> layout_summary(const std::vector<ResultRow>& rows, const std::vector<run::Measured>& measured,
                                        const std::vector<run::Config>& configs);

}  // namespace mmbench::results
