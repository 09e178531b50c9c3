// `mmbench run`, the output stage of its pipeline (sweep_expansion.hpp): a
// configuration and its measurement become one row, keyed by the CSV's
// column names (results_schema.hpp), printed as a table line on rank 0 and
// appended to the CSV.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "cli/configuration.hpp"
#include "cli/machine_source.hpp"
#include "cli/run_command.hpp"
#include "cli/sweep_rounds.hpp"

namespace mmbench::cli {

using Row = std::map<std::string, std::string>;

// 6 significant digits, as every time column.
std::string fmt_sig(double v);

// The columns every row has, measured or not.
Row identity_row(const Config& c, const RunArgs& a, int p, std::uint64_t order_seed);
// Times, rates, noise and verification of a measured configuration.
void add_measurement(Row& row, const Config& c, const Measured& m);
// Speed relative to the peer, round by round (peer time / this time).
void add_peer_ratio(Row& row, const Measured& peer, const Measured& m);
// Both models' predictions for a configuration as it ran; nullopt where a
// model does not cover it.
struct Predicted {
  double paper = 0, refined = 0;
  double error_paper(double t) const { return (paper - t) / t; }  // relative to a measured time t > 0
  double error_refined(double t) const { return (refined - t) / t; }
};
std::optional<Predicted> predict_as_ran(const Config& c, const Measured& m, const Machine& machine);
// The pred_* and err_* columns (errors against the measured median).
void add_predictions(Row& row, const Predicted& pr, const Measured& m);

// The table on stdout.
void print_header();
void print_row(const Row& r);

}  // namespace mmbench::cli
