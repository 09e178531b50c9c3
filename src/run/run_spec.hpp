// What `mmbench run` was asked, typed: the algorithms, the problems, the
// rounds, and every swept option's values as settings. The command line's
// texts (cli/run_args.hpp) are parsed and checked into one RunSpec, once and
// alike on every rank, before anything runs; the expansion into
// configurations (sweep_expansion.hpp) and the rounds (sweep_rounds.hpp)
// read only this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algos/algorithm.hpp"
#include "model/machine_params.hpp"
#include "profile/profile_facts.hpp"
#include "ranking/option_table.hpp"
#include "ranking/selection.hpp"

namespace mmbench::run {

// --reps: a number of rounds, or auto (rounds until --precision or --budget).
struct RepsRule {
  bool automatic = false;
  int rounds = 3;
};

// What --algo auto, --validate and --explain rank: the base options, the
// local levels to try (0..3 unless --local-strassen is given), with the
// profile's crossover as the kernel's cut-off where it was measured, and
// the given values of the rows auto does not search itself.
struct AutoSpace {
  algos::Options base;
  std::vector<int> levels;
  std::vector<std::vector<ranking::Setting>> given;  // per row of ranking::option_table()
};

struct RunSpec {
  // --algo in its order; nullptr stands for auto (the model's pick).
  std::vector<const algos::Algorithm*> algorithms;
  std::vector<algos::Problem> problems;  // --n x --m x --k, n outermost
  RepsRule reps;
  int warmup = 1;
  double precision = 0.02;  // --reps auto: relative half-width of every ratio's interval
  double budget_s = 600;    // --reps auto: seconds for the whole sweep
  int threads = 1;          // BLAS threads per rank
  std::uint64_t data_seed = 42;
  bool verify = true;
  bool validate = false;  // every applicable candidate of --algo, and the regret report
  bool explain = false;   // the ranked candidates printed before running
  // Per row of ranking::option_table(): the values a named algorithm sweeps.
  std::vector<std::vector<ranking::Setting>> swept;
  // Where the model ranks candidates (ranks_candidates()); else empty.
  AutoSpace auto_space;

  bool wants_auto() const;
  bool ranks_candidates() const { return wants_auto() || validate || explain; }
};

// The model's side of a run: the machine's prices and the profile's facts
// (both null where no machine is given), which model ranks, and the memory
// a rank may use.
struct Selection {
  const model::MachineParams* params = nullptr;
  const profile::ProfileFacts* facts = nullptr;
  model::ModelKind kind = model::ModelKind::refined;
  double max_doubles_per_rank = 0;  // memory per rank (same on every rank), 0 = no limit known
  std::string memory_limit_source;  // where that limit comes from, for the reasons
  bool has_machine() const { return params != nullptr; }
};

}  // namespace mmbench::run
