// `mmbench run --validate`, last stage of the run pipeline
// (run/sweep_expansion.hpp): per problem, the measured best against the model's
// pick. Candidates count when they compute on the same cores as the pick
// (ranks x threads; the dgemm peer's one rank with all cores counts as all
// cores), whatever rank count their row shows. regret = t(pick) / t(best)
// formed round by round from the interleaved measurement (median and its
// order-statistics interval, whose coverage the rounds set: 75 % at 3,
// >= 95 % from 6; 1 = the model chose right), and the spread of both
// models' |relative error|. Rank 0 only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "run/configuration.hpp"
#include "results/result_row.hpp"
#include "run/sweep_rounds.hpp"
#include "core/csv_file.hpp"
#include "ranking/selection.hpp"

namespace mmbench::results {

// <csv stem>: the path without ".csv".
std::string validation_stem(const std::string& csv_path);

// What the report needs of each configuration, typed: its measurement
// (null when it did not run), whether it ran and passed verification, and
// the models' predictions as it ran.
struct CandidateResult {
  const run::Measured* measured = nullptr;
  bool verified = false;
  std::optional<Predicted> predicted;
};

// Appends one row per problem to `out` (<stem>-validate.csv) and the report
// to <stem>-validate.txt, and prints it.
void write_validation(CsvFile& out, const std::string& stem, const std::vector<run::Config>& configs,
                      const std::vector<CandidateResult>& results, model::ModelKind kind, int ranks);

}  // namespace mmbench::results
