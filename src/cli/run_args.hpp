// What `mmbench run` was asked, as written on its command line: the sizes,
// the rounds, the files, and the swept options' texts (one entry per row of
// ranking/option_table.hpp); and the one parser that turns them into the
// typed request the run engine reads (run/run_spec.hpp). Its own header so
// that the units that read it (the sidecar, the exports) need not include
// the command.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "cli/machine_source.hpp"
#include "run/run_spec.hpp"

namespace mmbench::cli {

// Every row of the option table with its default text.
std::map<std::string, std::string> default_option_texts();

struct RunArgs {
  std::string algos;
  std::string n, m, k;
  std::string reps = "3";   // rounds, or "auto"
  double precision = 0.02;  // --reps auto: relative half-width of every ratio's interval
  double budget = 600;      // --reps auto: seconds for the whole sweep
  std::string order_seed;   // per-round shuffle; "" = drawn at start
  int warmup = 1;
  std::string csv;
  std::string json, markdown;  // --json, --markdown exports (results/run_exports.hpp); "" = none
  // The text of every swept option (ranking/option_table.hpp), keyed by its
  // flag, each starting as its row's default text: "--nb" -> "64". An
  // empty --local-strassen means not given (0 for named algorithms, 0..3
  // for auto), an empty --local-gemm likewise (parse_run_spec below).
  std::map<std::string, std::string> options = default_option_texts();
  const std::string& option(const std::string& flag) const { return options.at(flag); }
  int threads = 1;
  std::uint64_t seed = 42;
  bool no_verify = false;
  bool keep_blas_kernel = false;  // read by switch_blas_kernel() from argv, before MPI_Init
  MachineArgs machine;            // --profile, --lambda, --tau, --flops: fills pred_* columns
  std::string model = "refined";  // which model --algo auto / --validate rank by
  bool explain = false;           // print the ranked candidates before running
  bool validate = false;          // run every applicable candidate, report regret and model error
  bool quiet = false;
  bool progress = false;
  std::string command_line;  // for the sidecar
};

// Every argument of `run` parsed and checked, once, before anything runs:
// the same RunSpec on every rank, or the same UsageError (one line naming
// the option, the value and what is allowed). sel: the machine, if any
// (--algo auto, --validate and --explain need one), and the memory limit.
//
// --local-gemm where it is not given means "auto" when the profile has a
// packed GEMM step and --local-strassen asks for auto, or (for what auto,
// --validate and --explain rank) --algo does: the profile then chooses the
// leaf too; else "blas". Named algorithms of a sweep keep BLAS under
// --algo auto, so that the DGEMM peer stays among the rows.
run::RunSpec parse_run_spec(const RunArgs& a, int ranks, const run::Selection& sel);

}  // namespace mmbench::cli
