// `mmbench tune`: measure this machine (DGEMM profile -> the rule's lb,
// PDGEMM check -> lb, network, memory bandwidth, threaded DGEMM) and write
// its machine profile (docs/method.md §8).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "core/mpi/comm.hpp"

namespace mmbench::cli {

struct TuneArgs {
  std::int64_t n = 4096;
  std::string grid = "auto";
  std::int64_t kmin = 32;
  std::int64_t kmax = 0;
  double x = 0.98;
  bool exhaustive = false;
  int passes = 5;
  bool no_lb_check = false;
  int lb_check_rounds = 7;
  int reps = 3;
  int warmup = 1;
  std::string profile;
  std::string csv;
  bool quiet = false;
  bool no_local = false;
  bool no_blas_probe = false;
  bool no_packed_tune = false;
  bool no_kernel_model = false;
  bool kernel_model_only = false;
  bool refresh = false;
  bool progress = false;
  std::string command_line;  // printed at the top (run_header.hpp)
};

CLI::App* add_tune_command(CLI::App& app, TuneArgs& args);
// Where the PDGEMM check's CSV goes: beside the DGEMM profile CSV,
// "x.csv" -> "x-lb-check.csv" (any other name: name + "-lb-check.csv").
std::string lb_check_csv_path(const std::string& profile_csv);
// Where the kernel model's timings go: "x.csv" -> "x-kernel-model.csv".
std::string kernel_model_csv_path(const std::string& profile_csv);
// Throws UsageError for bad input; returns the exit code.
int tune_command(const TuneArgs& args, const Comm& world);

}  // namespace mmbench::cli
