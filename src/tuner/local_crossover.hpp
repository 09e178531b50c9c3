// Where local Strassen–Winograd starts to pay on this machine:
// the smallest n at which L levels beat plain DGEMM on n x n x n.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mmbench::tuner {

struct CrossoverPoint {
  std::int64_t n = 0;
  double t_dgemm = 0, t_l1 = 0, t_l2 = 0;  // seconds, best of the repetitions, max over ranks
};

struct LocalCrossover {
  std::int64_t l1_n = 0;  // smallest measured n from which on L = 1 beats DGEMM (0: none)
  std::int64_t l2_n = 0;  // likewise L = 2
  std::vector<CrossoverPoint> points;
};

// The crossover of a list of (n, t_dgemm, t_fast) points: the smallest n
// such that the fast time is below DGEMM's at n and at every larger n
// measured (one lucky point below a noisy DGEMM does not count).
// Example: wins at 512 no, 1024 yes, 1536 no, 2048 yes, 3072 yes -> 2048.
std::int64_t crossover_n(const std::vector<std::int64_t>& n, const std::vector<double>& t_dgemm,
                         const std::vector<double>& t_fast);

// Every rank times DGEMM and the fast kernel with 1 and 2 levels on its own
// n x n matrices at each size (all cores busy, as in the algorithms), best
// of `reps` after `warmup`, max over ranks.
LocalCrossover measure_local_crossover(const std::vector<std::int64_t>& sizes, int reps, int warmup, MPI_Comm comm,
                                       const std::function<void(const std::string&)>& say);

}  // namespace mmbench::tuner
