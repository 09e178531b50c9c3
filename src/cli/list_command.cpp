#include "cli/list_command.hpp"

#include <fmt/format.h>

#include "algos/registry.hpp"

namespace mmbench::cli {

void list_command() {
  for (const algos::Algorithm* a : algos::all_algorithms()) {
    fmt::print("{}\n  {}\n  needs:  {}\n  layout: {}\n", a->name(), a->summary(), a->requirements(), a->layout());
    auto u = a->uses();
    std::string opts;
    if (u.grid) opts += " --grid";
    if (u.nb) opts += " --nb";
    if (u.lb) opts += " --lb";
    if (u.recursions) opts += " --recursions";
    if (u.local_levels) opts += " --local-strassen --local-variant --local-gemm";
    if (u.q7_split) opts += " --q7-split";
    if (!opts.empty()) fmt::print("  options:{}\n", opts);
    fmt::print("\n");
  }
}

}  // namespace mmbench::cli
