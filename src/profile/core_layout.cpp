#include "profile/core_layout.hpp"

#include <fmt/format.h>

#include <cmath>

#include "profile/group_reader.hpp"

namespace mmbench::profile {

std::string_view to_string(CoreLayout layout) { return layout == CoreLayout::threads ? "threads" : "rank-per-core"; }

std::string describe(const CoreLayoutRecord& r) {
  if (!r.measured) return "not measured";
  const std::string ranks = fmt::format("{:.0f} MFLOPS per core as {} rank{} of one thread", r.ranks_per_core(),
                                        r.ranks, r.ranks == 1 ? "" : "s");
  const std::string threads =
      fmt::format("{:.0f} MFLOPS per core as one rank of {} threads", r.threads_per_core(), r.threads);
  // Tuned on one rank, the one-thread rate ran with every other core idle
  // (the most clock and memory bandwidth a core gets), while the threads
  // shared them: a comparison that favours ranks (on the lent 16-core Xeon,
  // docs/results.md "xeon16 again", whole algorithms on 16 ranks ran far
  // below that one thread's rate, and 2 ranks x 8 threads beat 16 x 1).
  const std::string caveat =
      r.ranks == 1 ? "; from a one-rank tune, whose one thread ran with the other cores idle: tune with the "
                     "job's ranks to compare both layouts with every core busy"
                   : "";
  if (r.better == CoreLayout::threads)
    return fmt::format("one rank with all cores as threads ({}; {}, {:.3f}x{})", threads, ranks,
                       r.ranks_per_core() / r.threads_per_core(), caveat);
  return fmt::format("one rank per core ({}; {}, {:.3f}x{})", ranks, threads, r.threads_per_core() / r.ranks_per_core(),
                     caveat);
}

nlohmann::ordered_json core_layout_to_json(const CoreLayoutRecord& r) {
  return {{"n", r.n},
          {"ranks", r.ranks},
          {"threads", r.threads},
          {"ranks_mflops", r.ranks_mflops},
          {"threads_mflops", r.threads_mflops},
          {"better", std::string(to_string(r.better))}};
}

CoreLayoutRecord core_layout_from_json(const nlohmann::ordered_json& j, const std::string& origin) {
  const GroupReader g(origin);
  if (!j.is_object()) g.fail(std::string("field 'core_layout' must be an object, got ") + j.type_name());
  CoreLayoutRecord r;
  r.measured = true;
  r.n = g.integer(j, "core_layout.n", "n", 1, std::int64_t{1} << 40);
  r.ranks = static_cast<int>(g.integer(j, "core_layout.ranks", "ranks", 1, 1 << 24));
  r.threads = static_cast<int>(g.integer(j, "core_layout.threads", "threads", 2, 1 << 16));
  r.ranks_mflops = g.number(j, "core_layout.ranks_mflops", "ranks_mflops", true);
  r.threads_mflops = g.number(j, "core_layout.threads_mflops", "threads_mflops", true);
  const std::string better = g.string(j, "core_layout.better", "better");
  if (better == "threads")
    r.better = CoreLayout::threads;
  else if (better == "rank-per-core")
    r.better = CoreLayout::rank_per_core;
  else
    g.fail("field 'core_layout.better' = '" + better + "' is not rank-per-core or threads");
  return r;
}

}  // namespace mmbench::profile
