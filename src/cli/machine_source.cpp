#include "cli/machine_source.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "core/byte_size.hpp"
#include "core/usage_error.hpp"
#include "core/machine/sysinfo.hpp"

#include "model/refined_model.hpp"
#include "profile/machine_profile.hpp"

namespace mmbench::cli {

void add_machine_options(CLI::App* cmd, MachineArgs& a) {
  cmd->add_option("--profile", a.profile, "Machine profile JSON (configs/<host>.json from `mmbench tune`)");
  cmd->add_option("--lambda", a.lambda_s, "Network latency in SECONDS, e.g. 17e-6 (overrides the profile)");
  cmd->add_option("--tau", a.tau_mb_s,
                  "Network throughput per rank in MB/s, e.g. 146 (models use doubles/s = MB/s*1e6/8; overrides the profile)");
  cmd->add_option("--flops", a.flops_mflops, "DGEMM rate per rank in MFLOPS, e.g. 3300 (t_op = 1/rate; overrides the profile)");
  cmd->add_option("--cores-per-node", a.cores_per_node,
                  "Cores of one node; dgemm (one node, p x threads threads) applies only within it (default: the profile's, else this host's)");
  cmd->add_option("--add-bandwidth", a.add_mb_s, "Memory bandwidth of C = A + B in MB/s (refined model; overrides the profile)");
  cmd->add_flag("--one-level-network", a.one_level_network,
                "Price every message with the profile's one latency and tau, not its two-level network "
                "(--lambda and --tau imply it)");
  cmd->add_option("--memory-per-rank", a.memory_per_rank,
                  "Memory one rank may use, e.g. 4G or 512M (binary units); candidates predicted to need more are "
                  "excluded, configurations refused (default: the profile's, if it has one)");
}

MemoryLimit memory_limit(const MachineArgs& a, const Machine* machine) {
  if (!a.memory_per_rank.empty())
    return {double(parse_byte_size("--memory-per-rank", a.memory_per_rank)), "--memory-per-rank"};
  if (machine && machine->facts.memory_per_rank_bytes > 0)
    return {machine->facts.memory_per_rank_bytes, "the profile's memory per rank"};
  return {};
}

Machine load_machine(const MachineArgs& a, bool needs_network) {
  Machine m;
  if (!a.profile.empty()) {
    try {
      const profile::MachineProfile prof = profile::read_profile(a.profile);
      m.params = profile::to_params(prof);
      m.cores = prof.cores;
      m.facts = profile::facts_of(prof);
    } catch (const std::exception& e) {
      throw UsageError(std::string("--profile: ") + e.what());
    }
    m.origin = a.profile;
  }
  bool cmdline = false;
  auto bad = [](const std::string& opt, double v, const char* allowed) {
    throw UsageError(fmt::format("{}: {} is out of range; allowed {}", opt, v, allowed));
  };
  if (a.lambda_s != -1) {
    if (!(a.lambda_s >= 0) || !std::isfinite(a.lambda_s) || a.lambda_s > 1) bad("--lambda", a.lambda_s, "0 to 1 second");
    m.params.latency_s = a.lambda_s;
    cmdline = true;
  }
  if (a.tau_mb_s != -1) {
    if (!(a.tau_mb_s > 0) || !std::isfinite(a.tau_mb_s)) bad("--tau", a.tau_mb_s, "> 0 MB/s");
    m.params.tau = a.tau_mb_s * 1e6 / 8.0;
    cmdline = true;
  }
  if (a.flops_mflops != -1) {
    if (!(a.flops_mflops > 0) || !std::isfinite(a.flops_mflops)) bad("--flops", a.flops_mflops, "> 0 MFLOPS");
    m.params.t_op = 1.0 / (a.flops_mflops * 1e6);
    m.params.dgemm_profile.clear();  // the rate given replaces the measured one
    cmdline = true;
  }
  if (a.add_mb_s != -1) {
    if (!(a.add_mb_s > 0) || !std::isfinite(a.add_mb_s)) bad("--add-bandwidth", a.add_mb_s, "> 0 MB/s");
    m.params.add_bytes_per_s = a.add_mb_s * 1e6;
    cmdline = true;
  }
  // Values on the command line describe one network; so does the flag.
  if (a.one_level_network || a.lambda_s != -1 || a.tau_mb_s != -1) m.params.network = {};
  if (a.cores_per_node < 0) bad("--cores-per-node", a.cores_per_node, ">= 1");
  if (a.cores_per_node > 0) m.cores = a.cores_per_node;
  if (m.cores <= 0) m.cores = cpu_cores();
  if (cmdline) m.origin += m.origin.empty() ? "command line" : " + command line";

  const std::string where = a.profile.empty() ? "" : " (profile " + a.profile + " has none)";
  if (!(m.params.t_op > 0) && m.params.dgemm_profile.empty())
    throw UsageError("missing machine value: the flop rate; give --flops MFLOPS or --profile FILE" + where);
  const bool no_tau = !(m.params.tau > 0), no_latency = a.profile.empty() && a.lambda_s == -1;
  if (!needs_network && (no_tau || no_latency)) {
    if (no_tau) m.params.tau = std::numeric_limits<double>::infinity();
    if (no_latency) m.params.latency_s = 0;
    m.origin += " (no network: one rank sends nothing)";
    return m;
  }
  if (no_tau)
    throw UsageError("missing machine value: the network throughput; give --tau MB/s or --profile FILE" + where +
                     (a.profile.empty() ? "" : "; a tune on one rank measures none: tune with the job's ranks"));
  if (no_latency)
    throw UsageError("missing machine value: the network latency; give --lambda SECONDS or --profile FILE");
  return m;
}

namespace {

// "; DGEMM prices timed with 16 cores of a node busy, faster where a run
// keeps fewer busy (busy-core ladder: 1.98x with one)": that the models
// scale compute for a run's busy cores (refined_model.hpp,
// busy_core_speed); "" without a ladder.
std::string busy_cores_text(const model::MachineParams& p) {
  if (p.peak_per_core_by_busy.empty() || p.profiled_busy_cores < 1) return "";
  const int tuned = p.profiled_busy_cores;
  return fmt::format(
      "; DGEMM prices timed with {} core{} of a node busy, faster where a run keeps fewer busy "
      "(busy-core ladder: {:.2f}x with one)",
      tuned, tuned == 1 ? "" : "s", model::busy_core_speed(1, p));
}

}  // namespace

std::string describe(const Machine& m) {
  const model::MachineParams& p = m.params;
  return fmt::format(
             "{}: lambda {:.3g} s, tau {:.4g} MB/s ({:.4g} doubles/s), {} MFLOPS (t_op {:.3g} s), add bandwidth {}, "
             "DGEMM profile {} points, {} cores per node{}{}",
             m.origin, p.latency_s, p.tau * 8 / 1e6, p.tau, p.t_op > 0 ? fmt::format("{:.5g}", 1e-6 / p.t_op) : "-",
             p.t_op, p.add_bytes_per_s > 0 ? fmt::format("{:.4g} MB/s", p.add_bytes_per_s / 1e6) : "-",
             p.dgemm_profile.size(), m.cores, m.facts.lb > 0 ? fmt::format(", lb {}", m.facts.lb) : "",
             m.facts.memory_per_rank_bytes > 0 ? ", " + format_bytes(m.facts.memory_per_rank_bytes) + " per rank"
                                               : "") +
         (p.network.two_level() ? "; two-level network: " + profile::describe(p.network) : "") +
         busy_cores_text(p);
}

}  // namespace mmbench::cli
