// Where the cost models get their machine parameters: a profile file from
// `mmbench tune` (--profile), values on the command line (--lambda, --tau,
// --flops, --add-bandwidth), or both (the command line wins, so a profile
// tuned on one rank can be completed with a network by hand).
//
// Command-line units are the ones people quote: --lambda in seconds
// (17e-6), --tau in MB/s (146; the models use doubles/s = MB/s * 1e6 / 8),
// --flops in MFLOPS (3300; t_op = 1 / (MFLOPS * 1e6)), --add-bandwidth in
// MB/s of C = A + B (24 bytes per element).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "core/lb_in_force.hpp"
#include "model/machine_params.hpp"
#include "profile/profile_facts.hpp"

namespace mmbench::cli {

struct MachineArgs {
  std::string profile;
  double lambda_s = -1;  // -1: not given
  double tau_mb_s = -1;
  double flops_mflops = -1;
  double add_mb_s = -1;
  int cores_per_node = 0;  // 0: the profile's cores, else this host's
  bool one_level_network = false;  // ignore the profile's network_levels
  // --memory-per-rank as written ("4G", "512M"); "" = not given. Not a
  // machine for the models by itself (given() ignores it).
  std::string memory_per_rank;
  bool given() const { return !profile.empty() || lambda_s != -1 || tau_mb_s != -1 || flops_mflops != -1 || add_mb_s != -1; }
};

// Adds --profile, --lambda, --tau, --flops, --add-bandwidth, --cores-per-node,
// --one-level-network, --memory-per-rank. The profile's two-level network
// (network_levels) prices messages unless --one-level-network, --lambda or
// --tau is given: values on the command line describe one network.
void add_machine_options(CLI::App* cmd, MachineArgs& args);

struct Machine {
  model::MachineParams params;
  int cores = 0;       // cores of one node: --cores-per-node, the profile's, or this host's
  std::string origin;  // "configs/x.json", "command line", or both
  // What the profile says beyond the model's parameters (present = false
  // without a profile): its lb, local kernel findings, peak, layout, memory,
  // noise -- and the choices made from them (profile/profile_facts.hpp).
  profile::ProfileFacts facts;
};

// The memory a rank may use, for excluding candidates (predict, explain,
// --algo auto, --validate) and refusing configurations (run): bytes (0 =
// no limit known) and where it comes from, for the reasons that cite it.
struct MemoryLimit {
  double bytes = 0;
  std::string source;  // "--memory-per-rank", "the profile's memory per rank"
};
// --memory-per-rank if given (UsageError for a malformed size), else the
// profile's (machine may be null: no machine given).
MemoryLimit memory_limit(const MachineArgs& args, const Machine* machine);

// The machine of the arguments. Throws UsageError with one line naming the
// file and field, or the missing option, when the models could not use
// them: latency >= 0, tau > 0 and a flop rate are all required -- except
// the network where `needs_network` is false (a one-rank job sends
// nothing, so a profile tuned on one rank, which has no network, serves
// it): then a missing network is priced as free (latency 0, tau infinite)
// and describe() says so.
Machine load_machine(const MachineArgs& args, bool needs_network = true);

// model::MachineParams in words, one line: "lambda 1.7e-05 s, tau 146 MB/s,
// 3300 MFLOPS (t_op 3.03e-10 s), add bandwidth -, DGEMM profile 0 points",
// and the two-level network where it prices messages.
std::string describe(const Machine& m);

}  // namespace mmbench::cli
