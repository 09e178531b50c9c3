#include "cli/census_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "core/usage_error.hpp"
#include "dispatch/census.hpp"

namespace mmbench::cli {

CLI::App* add_census_command(CLI::App& app, CensusArgs& a) {
  CLI::App* c = app.add_subcommand(
      "census", "Summarize a PDGEMM call census written by libmmbench-dispatch.so (MMBENCH_DISPATCH_LOG)");
  c->add_option("FILE", a.file, "The census CSV")->required();
  c->add_option("--top", a.top, "Shapes listed, by time")->capture_default_str()->check(CLI::Range(1, 100000));
  return c;
}

int census_command(const CensusArgs& a, const Comm& world) {
  int code = 0;
  if (world.rank() == 0) {
    try {
      fmt::print("{}", dispatch::census_summary(dispatch::read_census(a.file), a.top));
    } catch (const std::exception& e) {
      fmt::print(stderr, "mmbench: {}\n", e.what());
      code = kExitUsage;
    }
    std::fflush(stdout);
  }
  return static_cast<int>(world.max(static_cast<double>(code)));
}

}  // namespace mmbench::cli
