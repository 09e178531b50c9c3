// mmbench: benchmark and autotuner for distributed dense matrix multiplication.
//
// Every rank parses the same command line and validates it the same way, so
// bad input is detected everywhere without communication: rank 0 prints one
// message, all ranks exit with code 2 (never an MPI_Abort).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

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
#include "core/mpi/comm.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/mpi/mpi_env.hpp"
#include "core/machine/heap_policy.hpp"
#include "core/machine/sysinfo.hpp"
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

// One command of the table in main(): its subcommand, with options bound to
// arguments the command owns, and what runs it once parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int(const Comm&)> action;
};

// The usual command: Args filled by add(app, args), then run(args, world);
// `prepare` sets what comes from outside the options (the command line).
template <class Args>
Command command(CLI::App& app, CLI::App* (*add)(CLI::App&, Args&), int (*run)(const Args&, const Comm&),
                const std::function<void(Args&)>& prepare = {}) {
  auto args = std::make_shared<Args>();
  if (prepare) prepare(*args);
  CLI::App* sub = add(app, *args);
  return {sub, [args, run](const Comm& world) { return run(*args, world); }};
}

// "list, run, tune, ...": the registered subcommands, in their order.
std::string command_names(const CLI::App& app) {
  std::string s;
  for (const CLI::App* sub : app.get_subcommands({})) s += (s.empty() ? "" : ", ") + sub->get_name();
  return s;
}
}  // namespace

int main(int argc, char** argv) {
  // Before anything allocates: freed heap memory stays with the process, as
  // in a long-running program (core/machine/heap_policy.hpp).
  heap_policy::keep_freed_heap_memory();
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
  const std::string line = command_line(argc, argv);
  const auto with_line = [&line](auto& args) { args.command_line = line; };
  const std::vector<Command> commands = {
      {app.add_subcommand("list", "List the algorithms, what each needs (p, n) and its data layout"),
       [root](const Comm&) {
         if (root) cli::list_command();
         return 0;
       }},
      command<cli::RunArgs>(app, cli::add_run_command, cli::run_command, with_line),
      command<cli::TuneArgs>(app, cli::add_tune_command, cli::tune_command, with_line),
      command<cli::PredictArgs>(app, cli::add_predict_command, cli::predict_command),
      command<cli::PredictArgs>(app, cli::add_explain_command, cli::predict_command,
                                [](cli::PredictArgs& a) { a.explain = true; }),
      command<cli::DoctorArgs>(app, cli::add_doctor_command, cli::doctor_command),
      command<cli::CompareArgs>(app, cli::add_compare_command, cli::compare_command),
      command<cli::CensusArgs>(app, cli::add_census_command, cli::census_command),
  };

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
    for (const Command& c : commands)
      if (*c.app) return c.action(world);
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
