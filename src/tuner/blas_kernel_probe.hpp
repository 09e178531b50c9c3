// Which OpenBLAS core runs DGEMM fastest here, found by running each
// candidate core (core/machine/openblas_cores.hpp) in a child process of its own.
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

#include "profile/blas_kernel_record.hpp"

namespace mmbench::tuner {

struct ProbeOptions {
  std::string executable = "/proc/self/exe";  // a program that understands `blas-probe`
  int n = 1536;                                // the timed DGEMM's size
  double timeout_s = 30;                       // a child still running then is killed
};

// Runs one child; never throws for what the child does.
profile::KernelProbe probe_kernel(const std::string& core, const ProbeOptions& options);

// The detected core (asked "") first, then every candidate core of this CPU.
std::vector<profile::KernelProbe> probe_blas_kernels(const ProbeOptions& options);

// What the probes say, decided on recorded facts only (unit-tested without
// running anything). A faster core counts only when it is verified and at
// least kWorthSwitching times the running core's rate: closer than that is
// within what two one-second measurements on a shared machine can tell apart.
inline constexpr double kWorthSwitching = 1.05;
profile::KernelChoice choose_kernel(const std::vector<profile::KernelProbe>& probes, const std::string& running,
                                    bool pinned);

// The hidden `mmbench blas-probe [--n N]` command (the child's side), run
// before MPI is initialised. MMBENCH_BLAS_PROBE_FAULT=abort|hang|wrong|garbage
// makes it misbehave on purpose (tests of the parent's rejections).
int blas_probe_child(int argc, char** argv);

}  // namespace mmbench::tuner
