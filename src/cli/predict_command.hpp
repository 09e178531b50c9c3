// `mmbench predict` and `mmbench explain`: the cost models without a
// measurement (docs/method.md §9). Both run as a single process (under mpirun every
// rank validates the arguments, rank 0 alone computes and prints), so p may
// be any number up to 2^20, far beyond the ranks at hand.
//
//   mmbench predict --profile configs/thesis-opteron.json --p 56 --n 2048:12288:2048
//   mmbench predict --lambda 17e-6 --tau 146 --flops 3300 --p 100000 --n 1000000 --json out.json
//   mmbench explain --profile configs/thesis-opteron.json --p 56 --n 8192
//   mmbench predict --profile configs/thesis-opteron.json --isoefficiency 0.5 --p 4:4096:*2 --csv iso.csv
//
// predict prints the best --top candidates per (p, n) and writes all of them
// to --csv / --json; explain is predict for the world size (or --p) that
// also lists every excluded candidate with its reason. Every candidate
// states its predicted peak memory per rank; --memory-per-rank (or the
// profile's) excludes those over it. predict --isoefficiency E prints, for
// each algorithm and p, the smallest n whose predicted efficiency reaches E
// (cli/isoefficiency_report.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "cli/machine_source.hpp"
#include "core/mpi/comm.hpp"

namespace mmbench::cli {

struct PredictArgs {
  std::string p, n, m, k;
  MachineArgs machine;
  std::string model = "refined";
  std::string algos;  // comma-separated names; empty = all registered
  std::string nb = "64";
  std::string lb = "default,64,128,256,512";
  int threads = 1;
  std::string local_levels = "0,1,2,3";  // local Strassen levels to rank (as run --algo auto)
  std::string local_gemm = "blas";       // the GEMM under them (one value, as run --algo auto)
  std::string csv, json;
  int top = 10;
  bool explain = false;  // set for `explain`
  // predict --isoefficiency E (ranking/isoefficiency.hpp): "" = off; n is
  // then searched up to --n-max instead of taken from --n.
  std::string isoefficiency;
  std::string n_max = "4194304";
};

CLI::App* add_predict_command(CLI::App& app, PredictArgs& args);
CLI::App* add_explain_command(CLI::App& app, PredictArgs& args);
// Returns the exit code. Throws UsageError for bad input (every rank).
int predict_command(const PredictArgs& args, const Comm& world);

}  // namespace mmbench::cli
