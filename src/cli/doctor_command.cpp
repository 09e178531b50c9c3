#include "cli/doctor_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/machine_report.hpp"
#include "core/machine/blas.hpp"
#include "core/usage_error.hpp"
#include "tuner/blas_kernel_probe.hpp"
#include "tuner/machine_check.hpp"

namespace mmbench::cli {

namespace {

constexpr std::int64_t kMinDgemmN = 64, kMaxDgemmN = 8192;

// OPENBLAS_CORETYPE as the environment sets it ("" = unset or empty).
std::string pin_of(const MachineReport& facts) {
  for (const auto& [name, value] : facts.pins)
    if (name == "OPENBLAS_CORETYPE") return value;
  return "";
}

// The quick form of tune's BLAS kernel probe (tuner/blas_kernel_probe.hpp):
// every OpenBLAS core this CPU can run, each in a child process, verified
// before it is timed at a small size (n = 768, so the whole probe takes a
// few seconds). One line per core; where a verified core beats the running
// one by kWorthSwitching, its setting becomes a warning. --no-blas-probe
// skips it.
tuner::ProbeOptions quick_probe() {
  tuner::ProbeOptions o;
  o.n = 768;
  o.timeout_s = 20;
  return o;
}

std::vector<std::string> faster_kernel_lines(const MachineReport& facts, std::vector<std::string>& warnings,
                                             bool probe) {
  if (!probe) return {"blas kernels: not probed (--no-blas-probe)"};
  const tuner::ProbeOptions o = quick_probe();
  const std::vector<profile::KernelProbe> probes = tuner::probe_blas_kernels(o);
  const profile::KernelChoice c = tuner::choose_kernel(probes, facts.blas_core, !pin_of(facts).empty());
  std::vector<std::string> out;
  for (const profile::KernelProbe& k : probes) {
    const std::string name = k.asked.empty() ? "detected (" + k.ran + ")" : k.asked;
    out.push_back(k.verified ? fmt::format("blas kernel {}: {:.1f} GFLOP/s (n = {}, one thread), verified", name,
                                           k.mflops / 1e3, o.n)
                             : fmt::format("blas kernel {}: rejected, {}", name, k.reason));
  }
  if (!c.advice.empty()) warnings.push_back("warning: " + c.advice);
  return out;
}

}  // namespace

CLI::App* add_doctor_command(CLI::App& app, DoctorArgs& a) {
  CLI::App* d = app.add_subcommand(
      "doctor", "Check this machine in seconds: CPU, measured peak, the BLAS's kernel and its DGEMM against the peak, "
                "threads, MPI/ScaLAPACK, pins in the environment, and warnings with their fixes");
  d->add_option("--dgemm-n", a.dgemm_n,
                "DGEMM size of the BLAS check (one thread; smaller sizes understate the BLAS's best rate)")
      ->capture_default_str();
  d->add_flag("--no-blas-probe", a.no_blas_probe, "Skip trying OpenBLAS's other cores in child processes");
  d->add_flag("--faster-blas-core", a.faster_blas_core,
              "Print only the OpenBLAS core worth pinning (OPENBLAS_CORETYPE) where the probe verified one "
              "faster than the running core, else nothing (for scripts; nothing when OPENBLAS_CORETYPE is set)");
  return d;
}

int doctor_command(const DoctorArgs& a, const Comm& world) {
  if (a.dgemm_n < kMinDgemmN || a.dgemm_n > kMaxDgemmN)
    throw UsageError(fmt::format("--dgemm-n: {} is out of range; allowed {} to {}", static_cast<long long>(a.dgemm_n),
                                 static_cast<long long>(kMinDgemmN), static_cast<long long>(kMaxDgemmN)));
  if (a.faster_blas_core) {
    if (a.no_blas_probe) throw UsageError("--faster-blas-core needs the probe: leave out --no-blas-probe");
    if (world.rank() != 0) return 0;
    if (!pinned_blas_core().empty()) return 0;  // the environment's decision
    const profile::KernelChoice c =
        tuner::choose_kernel(tuner::probe_blas_kernels(quick_probe()), blas_core_name(blas_config()), false);
    if (c.switch_pays) fmt::print("{}\n", c.fastest);
    std::fflush(stdout);
    return 0;
  }
  tuner::MachineCheckOptions o;
  o.dgemm_n = a.dgemm_n;
  const profile::PeakRecord record = tuner::check_machine(o, world.get());
  if (world.rank() != 0) return 0;

  const MachineReport facts = gather_machine_report(record, "measured by doctor");
  std::vector<std::string> warnings = machine_report_warnings(facts);
  for (const std::string& line : machine_report_lines(facts)) fmt::print("{}\n", line);
  for (const std::string& line : faster_kernel_lines(facts, warnings, !a.no_blas_probe)) fmt::print("{}\n", line);
  if (warnings.empty()) fmt::print("warnings: none\n");
  for (const std::string& w : warnings) fmt::print("{}\n", w);
  std::fflush(stdout);
  return 0;
}

}  // namespace mmbench::cli
