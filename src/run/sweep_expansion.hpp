// `mmbench run`, first stage of its pipeline: the request -> configurations.
// Every rank expands the same RunSpec (run_spec.hpp) into the same list of
// configurations (algorithm x problem x the options it takes), or throws
// the same UsageError. `--algo auto` and `--validate` ask the cost model
// (ranking/selection.hpp) for the candidates.
//
//   command line (cli/run_args.hpp) --parse_run_spec--> RunSpec
//     --expand--> configurations (Config)
//     --measure_in_rounds (sweep_rounds.hpp)--> measurements (Measured)
//     --results/result_row.hpp--> typed rows: table, CSV
//     --results/validation_report.hpp--> regret report
#pragma once

#include <string>
#include <vector>

#include "ranking/selection.hpp"
#include "run/configuration.hpp"
#include "run/run_spec.hpp"

namespace mmbench::run {

// The candidates the model ranks for one problem (only: restrict to these
// algorithm names; empty = all). Needs a machine; throws UsageError when
// the model refuses.
ranking::Ranking rank_for(const algos::Problem& pb, const RunSpec& spec, int ranks, const Selection& sel,
                          const std::vector<std::string>& only);

// The sweep's configurations, problems outermost, then the algorithms in
// --algo order, then each swept option.
std::vector<Config> expand(const RunSpec& spec, int ranks, const Selection& sel);

}  // namespace mmbench::run
