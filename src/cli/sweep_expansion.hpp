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

#include "cli/configuration.hpp"
#include "cli/machine_source.hpp"
#include "cli/run_command.hpp"
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
};

// One value of --local-strassen.
struct LocalChoice {
  int levels = 0;
  std::int64_t min_dim = 0;  // 0: the kernel's default (256)
  std::string label;         // as asked: "2", "auto"
};

// What --algo auto, --validate and --explain rank: the base options and the
// local levels to try (0..3 unless --local-strassen is given), with the
// profile's crossover as the kernel's cut-off where it was measured and the
// one --local-gemm value (expand() refuses a list there).
struct AutoSpace {
  algos::Options base;
  std::vector<int> levels;
};

// --local-gemm as given, or where it was not: "auto" when the profile has a
// packed GEMM step and --local-strassen asks for auto, or (ranking: what
// --algo auto, --validate and --explain rank) --algo does (the profile then
// chooses the leaf too), else "blas". Named algorithms of a sweep keep BLAS
// under --algo auto, so that the DGEMM peer stays among the rows.
std::string local_gemm_text(const RunArgs& a, const Selection& sel, bool ranking);

// given: the parsed --local-strassen values, empty when it was not given.
AutoSpace auto_space(const RunArgs& a, const Selection& sel, int nb, const std::vector<LocalChoice>& given);
// --local-strassen as parsed; empty when it was not given.
std::vector<LocalChoice> given_local_choices(const RunArgs& a, const Selection& sel);

// The candidates the model ranks for one problem (only: restrict to these
// algorithm names; empty = all). Throws UsageError when the model refuses.
ranking::Ranking rank_for(const algos::Problem& pb, const algos::Options& base, int ranks, const Selection& sel,
                        const std::vector<std::string>& only, const std::vector<int>& local_levels);

// What a swept option's parser may need besides its text.
struct SweepContext {
  const RunArgs& a;
  int ranks;
  const Selection& sel;
};
using Setter = std::function<void(Config&)>;

// One swept option of `run` -- everything about it in one entry: its flag
// and help (add_run_command registers it), the RunArgs field CLI11 fills,
// which algorithms take it (a flag of algos::Uses that each algorithm
// declares in uses()), how its text becomes values (each a change to a
// configuration; throws UsageError naming the bad value), and the neutral
// value an algorithm that does not take it gets. Adding an option: a
// RunArgs field, a Uses flag, one entry here (and a CSV column if the plan
// reports something new).
struct SweptOption {
  const char* flag;
  const char* help;
  std::string RunArgs::*field;
  bool algos::Uses::*used;
  std::function<std::vector<Setter>(const std::string&, const SweepContext&)> values;
  Setter neutral;
  bool show_default;  // --help shows the default value
  // Whether the option matters for a configuration the earlier options made
  // (null: always, where the algorithm uses it); where it does not, the
  // configuration takes the neutral value once instead of one copy per value
  // (--local-fusion without local levels: nothing to fuse).
  bool (*applies)(const Config&) = nullptr;
};
// The table, outermost axis first (the order rows come out in).
const std::vector<SweptOption>& swept_options();

// The sweep's configurations, problems outermost, then the algorithms in
// --algo order, then each swept option.
std::vector<Config> expand(const RunArgs& a, int ranks, const Selection& sel);

}  // namespace mmbench::cli
