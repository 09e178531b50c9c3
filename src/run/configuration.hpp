// One configuration of a sweep: an algorithm, a problem, the options, and
// how it came to be in the sweep (named by the user, chosen by a model,
// one candidate of a validation). run_command expands the arguments into a
// list of these; measure_in_rounds runs them.
#pragma once

#include <map>
#include <string>

#include "algos/algorithm.hpp"

namespace mmbench::run {

struct Config {
  Config(const algos::Algorithm* al, const algos::Problem& p, const algos::Options& o) : algo(al), pb(p), opt(o) {}
  const algos::Algorithm* algo;
  algos::Problem pb;
  algos::Options opt;
  std::string selected_by = "user";
  std::string runner_up;
  // The runner-up's predicted time over the pick's, by the model that ranked
  // them (>= 1; 0 = no runner-up): on auto's row, and on the model's pick of
  // a --validate sweep (its -validate.csv). Near 1 the pick is a close call:
  // within the model's error either may run faster. Example: pick priced
  // 0.0325 s, runner-up 0.0333 s -> 1.025.
  double runner_up_ratio = 0;
  // Each swept option's value as asked, by CSV column ("local_levels" ->
  // "auto"); absent where the algorithm does not read the option.
  std::map<std::string, std::string> asked;
  std::string refuse;       // not applicable for a reason found while expanding
  int group = -1;           // index of the problem (--n x --m x --k) it belongs to
  bool model_pick = false;  // the candidate --algo auto runs (--validate, or auto in a sweep)

  // Cores the configuration computes on: ranks x BLAS threads. The dgemm
  // peer runs on one rank with threads x ranks threads, so at p = 2 with one
  // thread per rank it uses 2 cores, like ring on 2 ranks.
  int cores(int ranks) const;
  // The single-node peer of a sweep: plain DGEMM (no local levels, BLAS's
  // GEMM: L = 0 on the packed GEMM is a kernel under test) with all the
  // job's cores.
  bool is_peer() const;
  bool same_problem(const Config& o) const { return pb.m == o.pb.m && pb.n == o.pb.n && pb.k == o.pb.k; }
};

}  // namespace mmbench::run
