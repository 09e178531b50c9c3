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

#include <cstdint>
#include <string>

#include "cli/machine_source.hpp"
#include "core/comm.hpp"

namespace mmbench::cli {

struct RunArgs {
  std::string algos;
  std::string n, m, k;
  std::string reps = "3";     // rounds, or "auto"
  double precision = 0.02;    // --reps auto: relative half-width of every ratio's interval
  double budget = 600;        // --reps auto: seconds for the whole sweep
  std::string order_seed;     // per-round shuffle; "" = drawn at start
  int warmup = 1;
  std::string csv;
  std::string json, markdown;  // --json, --markdown exports (run_exports.hpp); "" = none
  std::string nb = "64";
  std::string lb = "default";
  std::string grid = "auto";
  std::string recursions = "max";
  int threads = 1;
  std::string local_levels;  // --local-strassen; "" = not given (0 for named algorithms, 0..3 for auto)
  std::string local_variant = "winograd";
  // --local-gemm: blas, packed, auto or a list; "" = not given (blas, or
  // auto with --local-strassen auto / --algo auto and a profile that has a
  // packed GEMM step: sweep_expansion.hpp, local_gemm_text)
  std::string local_gemm;
  std::string local_fusion = "all";  // --local-fusion: none, deepest, all or a list
  std::string q7_split = "paper";  // --q7-split: paper, model or both
  std::string replicas = "auto";   // --replicas: 2.5d layers c, numbers or auto
  std::uint64_t seed = 42;
  bool no_verify = false;
  bool keep_blas_kernel = false;  // read by switch_blas_kernel() from argv, before MPI_Init
  MachineArgs machine;          // --profile, --lambda, --tau, --flops: fills pred_* columns
  std::string model = "refined";  // which model --algo auto / --validate rank by
  bool explain = false;           // print the ranked candidates before running
  bool validate = false;          // run every applicable candidate, report regret and model error
  bool quiet = false;
  bool progress = false;
  std::string command_line;  // for the sidecar
};

CLI::App* add_run_command(CLI::App& app, RunArgs& args);
// Returns the process exit code: 0 all verified, 1 a run failed verification.
// Throws UsageError for bad input.
int run_command(const RunArgs& args, const Comm& world);

}  // namespace mmbench::cli
