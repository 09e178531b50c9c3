#include "cli/run_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "core/byte_size.hpp"
#include "core/simulation.hpp"
#include "core/machine/sysinfo.hpp"
#include "core/usage_error.hpp"
#include "ranking/selection.hpp"

namespace mmbench::cli {

using run::Config;

namespace {
constexpr double kUsable = 0.9;  // of MemAvailable: the rest for MPI, the libraries, the OS
// What a simulated rank holds besides mmbench's buffers, on p ranks: SimGrid's
// actor, the used part of its stack, the rank's copy of the program's data,
// and mmbench's layouts, which hold a rectangle per rank for each of a few
// dozen matrices at most -- so it grows with p (docs/simulation.md,
// "Memory", has the measurements behind the two constants).
double simulated_rank_bytes(int ranks) { return double(1 << 20) + 1536.0 * ranks; }
}  // namespace

double RunMemory::ranking_bytes() const {
  if (limit.bytes > 0 && node_bytes > 0) return std::min(limit.bytes, node_bytes);
  return limit.bytes > 0 ? limit.bytes : node_bytes;
}

std::string RunMemory::ranking_source() const {
  if (limit.bytes > 0 && (node_bytes <= 0 || limit.bytes <= node_bytes)) return limit.source;
  if (host_budget > 0) return fmt::format("the simulation's host budget over its {} ranks", node_ranks);
  return fmt::format("this node's available memory (90 % of MemAvailable over its {} rank{})", node_ranks,
                     node_ranks == 1 ? "" : "s");
}

RunMemory run_memory(const MachineArgs& args, const Machine* machine, const Comm& world) {
  RunMemory mem;
  mem.limit = memory_limit(args, machine);
  Comm node = world.split_node();
  mem.node_ranks = node.size();
  const double avail = world.min(static_cast<double>(available_memory_bytes()));
  if (sim::simulated()) {
    const char* budget = std::getenv("MMBENCH_SIM_HOST_MEMORY");
    mem.host_budget = budget && *budget ? double(parse_byte_size("MMBENCH_SIM_HOST_MEMORY", budget)) : kUsable * avail;
    // Real computation: every simulated rank's buffers are its own, so the
    // ranking keeps each within its share of the budget.
    if (!sim::charged()) {
      mem.node_ranks = world.size();
      mem.node_bytes = mem.host_budget / world.size();
    }
  } else if (avail > 0) {
    mem.node_bytes = kUsable * world.min(avail / node.size());
  }
  return mem;
}

double simulated_host_bytes(const algos::MemoryEstimate& need, int ranks, bool charged) {
  const double holders = need.holders == 0 ? ranks : need.holders;
  double per_rank = need.bytes();
  if (charged) {
    // Buffers of 1 MiB or more map shared pages: only their page-table
    // entries (8 bytes per 4 KiB page) are the rank's; smaller ones are.
    const double shared = 8.0 * (need.own() - need.small);
    per_rank = 8.0 * (need.small + need.library) + shared / 4096.0 * 8.0;
  }
  return ranks * simulated_rank_bytes(ranks) + holders * per_rank;
}

std::string memory_refusal(const RunMemory& mem, const Config& c, int ranks) {
  const algos::MemoryEstimate need = c.algo->memory(c.pb, c.opt, ranks);
  if (mem.limit.bytes > 0 && !ranking::fits_memory(need, mem.limit.bytes, ranks))
    return ranking::over_memory_reason(need, mem.limit.bytes, mem.limit.source, ranks);
  if (mem.host_budget > 0) {
    const bool charged = sim::charged();
    const double host = simulated_host_bytes(need, ranks, charged);
    if (host > mem.host_budget)
      return fmt::format("simulation: {} ranks hold {} in this one process ({}), over the host budget of {} "
                         "(MMBENCH_SIM_HOST_MEMORY, simulate.sh --host-memory)",
                         ranks, format_bytes(host),
                         charged ? "charged: buffers below 1 MiB, page tables of the shared ones"
                                 : "real computation: every buffer",
                         format_bytes(mem.host_budget));
  }
  return {};
}

void check_node_memory(const RunMemory& mem, const std::vector<Config>& configs, int ranks) {
  if (mem.node_bytes <= 0 || mem.host_budget > 0) return;  // unknown, or simulated (memory_refusal's rows)
  for (const Config& c : configs) {
    if (!memory_refusal(mem, c, ranks).empty()) continue;  // a not-applicable row says why
    const algos::MemoryEstimate est = c.algo->memory(c.pb, c.opt, ranks);
    // Rank 0 alone holding everything (the dgemm peer) may use its node's
    // share of every rank of the job there.
    if (ranking::fits_memory(est, mem.node_bytes, std::min(ranks, mem.node_ranks))) continue;
    const double need = est.bytes();
    if (est.holders == 1)
      throw UsageError(fmt::format(
          "{} m={} n={} k={} needs about {:.1f} GiB on rank 0, but only {:.1f} GiB are available on its node; use "
          "smaller sizes",
          c.algo->name(), c.pb.m, c.pb.n, c.pb.k, need / (1 << 30),
          mem.node_bytes * std::min(ranks, mem.node_ranks) / (1 << 30)));
    throw UsageError(fmt::format(
        "{} m={} n={} k={} needs about {:.1f} GiB per rank, but only {:.1f} GiB per rank are available "
        "({} ranks on this node); use smaller sizes or more nodes",
        c.algo->name(), c.pb.m, c.pb.n, c.pb.k, need / (1 << 30), mem.node_bytes / (1 << 30), mem.node_ranks));
  }
}

}  // namespace mmbench::cli
