// `mmbench run`: sweep algorithms x sizes x options, measure, verify, print
// a table on rank 0 and append one CSV row per configuration.
//
// With a machine (--profile or --lambda/--tau/--flops) every row also gets
// both model predictions and their relative errors. `--algo auto` runs the
// candidate the model ranks first (ranking/selection.hpp); `--explain` prints
// the ranking; `--validate` runs every applicable candidate and reports,
// per problem, the measured best, auto's pick, the regret and the models'
// errors (<csv stem>-validate.csv and .txt).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/run_args.hpp"
#include "core/mpi/comm.hpp"

namespace mmbench::cli {

CLI::App* add_run_command(CLI::App& app, RunArgs& args);
// Returns the process exit code: 0 all verified, 1 a run failed verification.
// Throws UsageError for bad input.
int run_command(const RunArgs& args, const Comm& world);

}  // namespace mmbench::cli
