#include "cli/doctor_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/machine_facts.hpp"
#include "cli/usage_error.hpp"
#include "tuner/machine_check.hpp"

namespace mmbench::cli {

namespace {

constexpr std::int64_t kMinDgemmN = 64, kMaxDgemmN = 8192;

// ---- HOOK (lead): the faster verified kernels doctor measured ----------
// Here doctor will list, one line each, the faster kernels a quick form of
// tune's kernel check found and verified (each OpenBLAS core type the CPU
// supports, probed in a child process, checked against a reference
// product, timed), with the exact setting that selects each, e.g.
//   "faster kernel: Cooperlake 86.1 GFLOP/s (1.71x Haswell), verified; select: OPENBLAS_CORETYPE=Cooperlake"
// and add a warning to `warnings` where one is faster than the running
// kernel. Until that probe is wired in, doctor says it did not probe.
std::vector<std::string> faster_kernel_lines(const MachineFacts& facts, std::vector<std::string>& warnings) {
  (void)facts;
  (void)warnings;
  return {"faster kernels: not probed (this build of doctor does not try other BLAS kernels)"};
}
// ---- end of HOOK --------------------------------------------------------

}  // namespace

CLI::App* add_doctor_command(CLI::App& app, DoctorArgs& a) {
  CLI::App* d = app.add_subcommand(
      "doctor", "Check this machine in seconds: CPU, measured peak, the BLAS's kernel and its DGEMM against the peak, "
                "threads, MPI/ScaLAPACK, pins in the environment, and warnings with their fixes");
  d->add_option("--dgemm-n", a.dgemm_n,
                "DGEMM size of the BLAS check (one thread; smaller sizes understate the BLAS's best rate)")
      ->capture_default_str();
  return d;
}

int doctor_command(const DoctorArgs& a, const Comm& world) {
  if (a.dgemm_n < kMinDgemmN || a.dgemm_n > kMaxDgemmN)
    throw UsageError(fmt::format("--dgemm-n: {} is out of range; allowed {} to {}", static_cast<long long>(a.dgemm_n),
                                 static_cast<long long>(kMinDgemmN), static_cast<long long>(kMaxDgemmN)));
  tuner::MachineCheckOptions o;
  o.dgemm_n = a.dgemm_n;
  const tuner::PeakRecord record = tuner::check_machine(o, world.get());
  if (world.rank() != 0) return 0;

  const MachineFacts facts = gather_machine_facts(record, "measured by doctor");
  std::vector<std::string> warnings = machine_warnings(facts);
  for (const std::string& line : machine_lines(facts)) fmt::print("{}\n", line);
  for (const std::string& line : faster_kernel_lines(facts, warnings)) fmt::print("{}\n", line);
  if (warnings.empty()) fmt::print("warnings: none\n");
  for (const std::string& w : warnings) fmt::print("{}\n", w);
  std::fflush(stdout);
  return 0;
}

}  // namespace mmbench::cli
