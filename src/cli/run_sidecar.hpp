// The run's sidecar, <csv>.json: every run appended to a CSV leaves one
// entry there (command, build, libraries, seeds, the machine, the interval
// rule, a simulation's platform), the only record of how its rows came to
// be. docs/csv-columns.md describes it.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/run_args.hpp"
#include "core/mpi/comm.hpp"

namespace mmbench::cli {

// Appends this run's entry (started at `started`) to csv_path + ".json",
// rewritten atomically. A sidecar that cannot be read is kept under another
// name (…unreadable-<started>), with a word on stderr, never replaced
// silently; throws std::runtime_error where even that fails. reps: the
// rounds as parsed (a fixed number records its intervals' coverage).
void write_sidecar(const std::string& csv_path, const RunArgs& a, const run::RepsRule& reps, const Comm& world,
                   std::uint64_t order_seed, const std::string& started, const nlohmann::json& machine);

// Adds `key` to this run's entry of the sidecar (the one write_sidecar
// started with `started`), rewritten atomically; a sidecar that cannot be
// read or lacks the entry is left as it is, with a word on stderr: the
// results themselves are already written.
void add_to_sidecar(const std::string& csv_path, const std::string& started, const std::string& key,
                    const nlohmann::json& value);

}  // namespace mmbench::cli
