// What `mmbench run` tells its exports (results/run_exports.hpp) about
// itself: the JSON export's metadata block and the Markdown export's
// heading, both from the command line and the machine's facts.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "cli/run_args.hpp"
#include "cli/run_header.hpp"

namespace mmbench::cli {

// The metadata block of the JSON export (docs/json-schema.md):
// {"command", "mmbench", "date", "started", "finished", "complete",
// "interrupted_by", "machine", "seed", "order_seed", "reps", "warmup",
// "precision", "budget_s", "simulated"?}.
nlohmann::ordered_json run_metadata(const RunArgs& a, const MachineFacts& machine, std::uint64_t order_seed,
                                    const std::string& started);

// The Markdown export's heading line: "`mmbench run ...`: vm, AMD EPYC 7B13
// (2 cores), 2 MPI ranks, BLAS Haswell, mmbench 0.1.0+1a2b3c4".
std::string markdown_heading(const std::string& command_line, const MachineFacts& machine);

}  // namespace mmbench::cli
