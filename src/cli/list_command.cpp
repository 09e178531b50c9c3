#include "cli/list_command.hpp"

#include <fmt/format.h>

#include "algos/registry.hpp"
#include "ranking/option_table.hpp"

namespace mmbench::cli {

void list_command() {
  for (const algos::Algorithm* a : algos::all_algorithms()) {
    fmt::print("{}\n  {}\n  needs:  {}\n  layout: {}\n", a->name(), a->summary(), a->requirements(), a->layout());
    // The options it reads: the rows of the option table its uses() names.
    const algos::Uses u = a->uses();
    std::string opts;
    for (const ranking::OptionRow& row : ranking::option_table())
      if (u.*row.used) opts += std::string(" ") + row.flag;
    if (!opts.empty()) fmt::print("  options:{}\n", opts);
    fmt::print("\n");
  }
}

}  // namespace mmbench::cli
