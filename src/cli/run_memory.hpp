// The memory limits `mmbench run` applies, before anything is allocated
// (docs/method.md §7.7), all against the algorithms' own predictions
// (Algorithm::memory):
//
//   --memory-per-rank (or the profile's)  a configuration predicted to need
//       more per rank is a not-applicable row with the reason; --algo auto
//       and --validate exclude such candidates;
//   this node's available memory          (MemAvailable, 90 %, shared by the
//       ranks on the node) a sweep with a configuration over it is refused
//       as bad input (exit 2): it could not run here at all; --algo auto
//       and --validate exclude such candidates too;
//   a simulation's host budget            (SMPI: every simulated rank lives
//       in this one process) a configuration whose ranks together would hold
//       more than the budget is a not-applicable row: real computation holds
//       every buffer per rank; charged computation shares buffers of 1 MiB
//       or more between ranks (core/matrix/large_buffer.hpp), so a rank keeps its
//       smaller buffers and the page tables of its shared mappings (8 bytes
//       per 4 KiB page); every rank adds what SimGrid and the layouts keep
//       for it (1 MiB + 1.5 KiB per rank of the job). The
//       budget is MMBENCH_SIM_HOST_MEMORY (scripts/simulate.sh
//       --host-memory), else 90 % of this host's MemAvailable.
#pragma once

#include <string>
#include <vector>

#include "run/configuration.hpp"
#include "cli/machine_source.hpp"
#include "core/mpi/comm.hpp"

namespace mmbench::cli {

struct RunMemory {
  MemoryLimit limit;          // --memory-per-rank or the profile's; bytes 0 = none
  // Per rank on this node (a real simulation: the host budget's share per
  // rank); 0 = unknown, or a charged simulation.
  double node_bytes = 0;
  int node_ranks = 1;         // the ranks sharing the node
  double host_budget = 0;     // simulation: bytes for all simulated ranks; 0 = not simulated
  // What --algo auto, --validate and --explain exclude candidates above:
  // the smaller of the limit and the node's share, and its source.
  double ranking_bytes() const;
  std::string ranking_source() const;
};

// Collective over world (the node's ranks, the smallest share of any node).
// Throws UsageError for a malformed --memory-per-rank or
// MMBENCH_SIM_HOST_MEMORY.
RunMemory run_memory(const MachineArgs& args, const Machine* machine, const Comm& world);

// Why this configuration is refused ("" = it is not): over --memory-per-rank
// (or the profile's), or over a simulation's host budget.
std::string memory_refusal(const RunMemory& mem, const run::Config& c, int ranks);

// Bytes the simulated ranks of configuration c together keep in this one
// process (see above).
double simulated_host_bytes(const algos::MemoryEstimate& need, int ranks, bool charged);

// Throws UsageError when a configuration that memory_refusal does not
// refuse needs more than the node's share: the sweep could not run here.
void check_node_memory(const RunMemory& mem, const std::vector<run::Config>& configs, int ranks);

}  // namespace mmbench::cli
