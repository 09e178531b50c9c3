// `mmbench census FILE`: the summary of a call census that
// libmmbench-dispatch.so wrote (MMBENCH_DISPATCH_LOG; docs/dispatch.md):
// the totals, then the shapes that took the time, what ran them and how
// close the prediction came. `--top N` shapes (default 20). A plot:
// plots/mmbench_plot.py CENSUS.
//
// Exit codes: 0 printed; 2 a missing or malformed file (one line naming it).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "core/mpi/comm.hpp"

namespace mmbench::cli {

struct CensusArgs {
  std::string file;
  int top = 20;
};

CLI::App* add_census_command(CLI::App& app, CensusArgs& args);
// Reads and prints on rank 0; every rank returns rank 0's exit code.
int census_command(const CensusArgs& args, const Comm& world);

}  // namespace mmbench::cli
