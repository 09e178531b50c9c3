// `mmbench compare A B`: two results files (a run's CSV or its --json
// export), one line per configuration: both times and rates, B/A with its
// interval, the test that judged it, and a flag where the change is
// significant and larger than --threshold (docs/compare.md).
//
//   mmbench compare results/local/run-old.csv results/local/run-new.json --fail-on-regression
//
// Exit codes: 0 compared; 1 with --fail-on-regression when a configuration
// is significantly slower in B beyond the threshold (or failed in B after
// being measured in A); 2 a file is missing or malformed, or an option is
// out of range (one line naming the file and the problem).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "core/mpi/comm.hpp"

namespace mmbench::cli {

struct CompareArgs {
  std::string a, b;
  double threshold = 0.05;
  double alpha = 0.05;
  bool fail_on_regression = false;
  std::string csv;  // the compared lines as CSV, optional
};

CLI::App* add_compare_command(CLI::App& app, CompareArgs& args);
// Reads and prints on rank 0 only (nothing here needs the other ranks);
// every rank returns rank 0's exit code.
int compare_command(const CompareArgs& args, const Comm& world);

}  // namespace mmbench::cli
