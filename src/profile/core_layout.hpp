// Ranks × threads: whether DGEMM on this machine's cores runs faster as one
// MPI rank per core (one BLAS thread each) or as one rank with every core
// as a BLAS thread, from tune's threaded DGEMM step (tuner/threaded_dgemm.hpp, core_layout_of)
// -- profile key "core_layout", docs/machine-profile.md.
//
// The two layouts use different numbers of cores where tune ran with fewer
// ranks than the node has cores, so they are compared per core used:
//   rank per core: ranks_mflops = single_mflops × ranks (every rank at once,
//                  one thread each), per core single_mflops;
//   threads:       threads_mflops = the threaded rate (rank 0 with `threads`
//                  threads, the others idle), per core threads_mflops / threads.
// Per core is also the fraction of peak either reaches (peak per core ×
// cores used). Example: 2 ranks at 47 000 MFLOPS each against 2 threads at
// 90 000: ranks_mflops 94 000, 47 000 per core against 45 000: one rank per
// core.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace mmbench::profile {

enum class CoreLayout { rank_per_core, threads };
std::string_view to_string(CoreLayout layout);  // "rank-per-core" / "threads"

struct CoreLayoutRecord {
  bool measured = false;      // false: not measured (the key is left out)
  std::int64_t n = 0;         // the DGEMM's size
  int ranks = 0;              // ranks of the one-rank-per-core layout
  int threads = 0;            // threads of the one-rank layout
  double ranks_mflops = 0;    // aggregate: single_mflops × ranks
  double threads_mflops = 0;  // aggregate: rank 0 with `threads` threads
  CoreLayout better = CoreLayout::rank_per_core;
  double ranks_per_core() const { return ranks > 0 ? ranks_mflops / ranks : 0; }
  double threads_per_core() const { return threads > 0 ? threads_mflops / threads : 0; }
};

// One line for tune's output and run's summary, e.g. "one rank per core
// (47000 MFLOPS per core on 2 ranks; one rank with 2 threads: 45000 per
// core, 0.957x)".
std::string describe(const CoreLayoutRecord& record);

nlohmann::ordered_json core_layout_to_json(const CoreLayoutRecord& record);
// Throws ProfileError(origin, "field 'core_layout.…' …") on a malformed record.
CoreLayoutRecord core_layout_from_json(const nlohmann::ordered_json& j, const std::string& origin);

}  // namespace mmbench::profile
