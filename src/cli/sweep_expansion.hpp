// `mmbench run`, first stage of its pipeline: arguments -> configurations.
// Every rank parses the same arguments and expands them into the same list
// of configurations (algorithm x problem x the options it takes), or throws
// the same UsageError. `--algo auto` and `--validate` ask the cost model
// (ranking/selection.hpp) for the candidates.
//
//   arguments (RunArgs) --expand--> configurations (Config)
//     --measure_in_rounds (sweep_rounds.hpp)--> measurements (Measured)
//     --result_row.hpp--> typed rows: table, CSV --validation_report.hpp--> regret report
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "run/configuration.hpp"
#include "cli/machine_source.hpp"
#include "cli/run_args.hpp"
#include "ranking/selection.hpp"

namespace mmbench::cli {

// --reps: a number of rounds, or auto (rounds until --precision or --budget).
struct RepsRule {
  bool automatic = false;
  int rounds = 3;
};
RepsRule parse_reps(const RunArgs& a);

// What the selection needs besides the arguments.
struct Selection {
  const Machine* machine = nullptr;  // null: no machine given
  model::ModelKind kind = model::ModelKind::refined;
  double max_doubles_per_rank = 0;   // memory per rank (same on every rank)
  std::string memory_limit_source;   // where that limit comes from, for the reasons
};

// --local-gemm as given, or where it was not: "auto" when the profile has a
// packed GEMM step and --local-strassen asks for auto, or (ranking: what
// --algo auto, --validate and --explain rank) --algo does (the profile then
// chooses the leaf too), else "blas". Named algorithms of a sweep keep BLAS
// under --algo auto, so that the DGEMM peer stays among the rows.
std::string local_gemm_text(const RunArgs& a, const Selection& sel, bool ranking);

// What the option table's parsers need (ranking/option_table.hpp): the
// ranks, and the machine profile's facts; ranking as for local_gemm_text.
ranking::OptionContext option_context(const RunArgs& a, int ranks, const Selection& sel, bool ranking);

// What --algo auto, --validate and --explain rank: the base options, the
// local levels to try (0..3 unless --local-strassen is given), with the
// profile's crossover as the kernel's cut-off where it was measured, and
// the given values of the rows auto does not search itself.
struct AutoSpace {
  algos::Options base;
  std::vector<int> levels;
  std::vector<std::vector<ranking::Setting>> given;  // per row of option_table()
};
AutoSpace auto_space(const RunArgs& a, const Selection& sel, int ranks);

// The candidates the model ranks for one problem (only: restrict to these
// algorithm names; empty = all). Throws UsageError when the model refuses.
ranking::Ranking rank_for(const algos::Problem& pb, const AutoSpace& as, int ranks, const Selection& sel,
                          const std::vector<std::string>& only);

// The sweep's configurations, problems outermost, then the algorithms in
// --algo order, then each swept option.
std::vector<run::Config> expand(const RunArgs& a, int ranks, const Selection& sel);

}  // namespace mmbench::cli
