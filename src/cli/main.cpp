// mmbench: benchmark and autotuner for distributed dense matrix multiplication.
//
// Every rank parses the same command line and validates it the same way, so
// bad input is detected everywhere without communication: rank 0 prints one
// message, all ranks exit with code 2 (never an MPI_Abort).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "cli/doctor_command.hpp"
#include "cli/census_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/blas_kernel_switch.hpp"
#include "cli/list_command.hpp"
#include "cli/predict_command.hpp"
#include "cli/run_command.hpp"
#include "cli/simulation_prices.hpp"
#include "cli/tune_command.hpp"
#include "core/usage_error.hpp"
#include "core/comm.hpp"
#include "core/mpi_check.hpp"
#include "core/mpi_env.hpp"
#include "core/sysinfo.hpp"
#include "tuner/blas_kernel_probe.hpp"

using namespace mmbench;

namespace {
std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

// The word in the subcommand's place when it names no registered
// subcommand ("" otherwise). CLI11 would answer "A subcommand is required"
// for `mmbench doctor`, which hides the typo; the top level has no option
// that takes a value, so the first word not starting with '-' is that place.
std::string unknown_command(const CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    for (const CLI::App* sub : app.get_subcommands({}))
      if (sub->check_name(word)) return "";
    return word;
  }
  return "";
}

// "list, run, tune, ...": the registered subcommands, in their order.
std::string command_names(const CLI::App& app) {
  std::string s;
  for (const CLI::App* sub : app.get_subcommands({})) s += (s.empty() ? "" : ", ") + sub->get_name();
  return s;
}
}  // namespace

int main(int argc, char** argv) {
  // The hidden child of tune's BLAS kernel probe: a fresh process with one
  // OPENBLAS_CORETYPE, no MPI (tuner/blas_kernel_probe.hpp).
  if (argc >= 2 && std::string(argv[1]) == "blas-probe") return tuner::blas_probe_child(argc, argv);
  // run --profile: the profile's fastest verified OpenBLAS core, by
  // re-executing before MPI_Init where it differs (cli/blas_kernel_switch.hpp).
  cli::switch_blas_kernel(argc, argv);
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  const bool root = world.rank() == 0;

  CLI::App app{"mmbench " + mmbench_version() +
               " -- benchmark and autotuner for distributed dense matrix multiplication (C = A*B).\n"
               "Run under MPI: mpirun -n P mmbench <command> ..."};
  app.require_subcommand(1);
  CLI::App* list = app.add_subcommand("list", "List the algorithms, what each needs (p, n) and its data layout");
  cli::RunArgs run_args;
  CLI::App* run = cli::add_run_command(app, run_args);
  run_args.command_line = command_line(argc, argv);
  cli::TuneArgs tune_args;
  CLI::App* tune = cli::add_tune_command(app, tune_args);
  tune_args.command_line = command_line(argc, argv);
  cli::PredictArgs predict_args, explain_args;
  CLI::App* predict = cli::add_predict_command(app, predict_args);
  CLI::App* explain = cli::add_explain_command(app, explain_args);
  explain_args.explain = true;
  cli::DoctorArgs doctor_args;
  CLI::App* doctor = cli::add_doctor_command(app, doctor_args);
  cli::CompareArgs compare_args;
  CLI::App* compare = cli::add_compare_command(app, compare_args);
  cli::CensusArgs census_args;
  CLI::App* census = cli::add_census_command(app, census_args);

  if (const std::string word = unknown_command(app, argc, argv); !word.empty()) {
    if (root) fmt::print(stderr, "mmbench: unknown command '{}' (commands: {})\n", word, command_names(app));
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (root) app.exit(e);
    return 0;
  } catch (const CLI::CallForAllHelp& e) {
    if (root) app.exit(e);
    return 0;
  } catch (const CLI::ParseError& e) {
    if (root) {
      std::string what = e.what();
      fmt::print(stderr, "mmbench: {} (see mmbench --help)\n", what);
    }
    return kExitUsage;
  }

  try {
    cli::set_simulation_prices();
    if (*list) {
      if (root) cli::list_command();
      return 0;
    }
    if (*run) return cli::run_command(run_args, world);
    if (*tune) return cli::tune_command(tune_args, world);
    if (*predict) return cli::predict_command(predict_args, world);
    if (*explain) return cli::predict_command(explain_args, world);
    if (*doctor) return cli::doctor_command(doctor_args, world);
    if (*compare) return cli::compare_command(compare_args, world);
    if (*census) return cli::census_command(census_args, world);
  } catch (const UsageError& e) {
    if (root) fmt::print(stderr, "mmbench: {}\n", e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    // An internal error on one rank may leave others inside a collective:
    // abort the job rather than hang.
    fmt::print(stderr, "mmbench: rank {}: internal error: {}\n", world.rank(), e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return 0;
}
