#include "tuner/core_layout.hpp"

#include <fmt/format.h>

#include <cmath>

#include "tuner/machine_profile.hpp"
#include "tuner/threaded_dgemm.hpp"

namespace mmbench::tuner {

std::string_view to_string(CoreLayout layout) {
  return layout == CoreLayout::threads ? "threads" : "rank-per-core";
}

CoreLayoutRecord core_layout_of(const ThreadedDgemm& m, int ranks) {
  CoreLayoutRecord r;
  if (m.threads < 2 || ranks < 1 || !(m.single_mflops > 0) || !(m.threaded_mflops > 0)) return r;
  r.measured = true;
  r.n = m.n;
  r.ranks = ranks;
  r.threads = m.threads;
  r.ranks_mflops = m.single_mflops * ranks;
  r.threads_mflops = m.threaded_mflops;
  r.better = r.threads_per_core() > r.ranks_per_core() ? CoreLayout::threads : CoreLayout::rank_per_core;
  return r;
}

std::string describe(const CoreLayoutRecord& r) {
  if (!r.measured) return "not measured";
  const std::string ranks = fmt::format("{:.0f} MFLOPS per core as {} rank{} of one thread", r.ranks_per_core(),
                                        r.ranks, r.ranks == 1 ? "" : "s");
  const std::string threads =
      fmt::format("{:.0f} MFLOPS per core as one rank of {} threads", r.threads_per_core(), r.threads);
  if (r.better == CoreLayout::threads)
    return fmt::format("one rank with all cores as threads ({}; {}, {:.3f}x)", threads, ranks,
                       r.ranks_per_core() / r.threads_per_core());
  return fmt::format("one rank per core ({}; {}, {:.3f}x)", ranks, threads, r.threads_per_core() / r.ranks_per_core());
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
  CoreLayoutRecord r;
  try {
    r.measured = true;
    r.n = j.at("n").get<std::int64_t>();
    r.ranks = j.at("ranks").get<int>();
    r.threads = j.at("threads").get<int>();
    r.ranks_mflops = j.at("ranks_mflops").get<double>();
    r.threads_mflops = j.at("threads_mflops").get<double>();
    const std::string better = j.at("better").get<std::string>();
    if (better == "threads") r.better = CoreLayout::threads;
    else if (better == "rank-per-core") r.better = CoreLayout::rank_per_core;
    else throw ProfileError(origin, "field 'core_layout.better' = '" + better + "' is not rank-per-core or threads");
  } catch (const nlohmann::json::exception& e) {
    throw ProfileError(origin, std::string("field 'core_layout' is malformed: ") + e.what());
  }
  if (r.n < 1 || r.ranks < 1 || r.threads < 2)
    throw ProfileError(origin, fmt::format("field 'core_layout': n = {}, ranks = {}, threads = {} (needs n, ranks "
                                           ">= 1 and threads >= 2)",
                                           static_cast<long long>(r.n), r.ranks, r.threads));
  if (!(std::isfinite(r.ranks_mflops) && r.ranks_mflops > 0 && std::isfinite(r.threads_mflops) &&
        r.threads_mflops > 0))
    throw ProfileError(origin, "field 'core_layout': ranks_mflops and threads_mflops must be positive numbers");
  return r;
}

}  // namespace mmbench::tuner
