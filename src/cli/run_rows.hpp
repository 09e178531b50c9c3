// `mmbench run`, the output stage of its pipeline (sweep_expansion.hpp): a
// configuration and its measurement become one row, keyed by the CSV's
// column names (results_schema.hpp), printed as a table line on rank 0 and
// appended to the CSV.
#pragma once

#include <cstdint>
#include <map>
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
// Both models' predictions for the configuration as it ran, and their
// relative errors against the measured median.
void add_predictions(const Config& c, const Machine& machine, int ranks, Row& row);

// The table on stdout.
void print_header();
void print_row(const Row& r);

}  // namespace mmbench::cli
