// Which OpenBLAS core runs DGEMM fastest here, found by running each
// candidate core (core/openblas_cores.hpp) in a child process of its own.
//
// Why a child per core: OPENBLAS_CORETYPE is read once, when OpenBLAS is
// loaded, so a core can only be tried in a fresh process; and a core may
// crash (SIGILL where the CPU lacks an instruction), hang or compute wrongly
// (the reason some environments pin a core on purpose). A child that does
// any of these is rejected and reported, never fatal. The child is this
// executable's hidden `blas-probe` command: it verifies DGEMM against a
// reference product on odd shapes with every transpose combination before
// it times anything, and prints one JSON line.
#pragma once

#include <string>
#include <vector>

namespace mmbench::tuner {

// One core's outcome. asked: the OPENBLAS_CORETYPE value given ("" = none:
// the core OpenBLAS detects); ran: the core the child reported
// (openblas_get_corename), which may differ where OpenBLAS ignores a name.
struct KernelProbe {
  std::string asked;
  std::string ran;
  bool verified = false;
  std::string reason;     // why rejected ("" when verified)
  double max_rel_err = 0;  // of the verification products
  double mflops = 0;       // one-thread DGEMM n x n x n, best of the timed calls
};

struct ProbeOptions {
  std::string executable = "/proc/self/exe";  // a program that understands `blas-probe`
  int n = 1536;                                // the timed DGEMM's size
  double timeout_s = 30;                       // a child still running then is killed
};

// Runs one child; never throws for what the child does.
KernelProbe probe_kernel(const std::string& core, const ProbeOptions& options);

// The detected core (asked "") first, then every candidate core of this CPU.
std::vector<KernelProbe> probe_blas_kernels(const ProbeOptions& options);

// What the probes say, decided on recorded facts only (unit-tested without
// running anything). A faster core counts only when it is verified and at
// least kWorthSwitching times the running core's rate: closer than that is
// within what two one-second measurements on a shared machine can tell apart.
inline constexpr double kWorthSwitching = 1.05;
struct KernelChoice {
  std::string running;       // the core this process runs
  double running_mflops = 0;  // its probe's rate (0: not probed or rejected)
  std::string fastest;       // the fastest verified core ("" = none verified)
  double fastest_mflops = 0;
  bool pinned = false;       // OPENBLAS_CORETYPE set by the user
  bool switch_pays = false;  // fastest >= kWorthSwitching x running
  std::string advice;        // one line for the user ("" = nothing to do)
};
KernelChoice choose_kernel(const std::vector<KernelProbe>& probes, const std::string& running, bool pinned);

// The hidden `mmbench blas-probe [--n N]` command (the child's side), run
// before MPI is initialised. MMBENCH_BLAS_PROBE_FAULT=abort|hang|wrong|garbage
// makes it misbehave on purpose (tests of the parent's rejections).
int blas_probe_child(int argc, char** argv);

}  // namespace mmbench::tuner
