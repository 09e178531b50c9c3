// Every environment variable that mmbench, libmmbench-lb.so, mmbench's
// scripts and the libraries under them read, with what holds when it is
// unset: the one list in the code. docs/environment.md mirrors it for users.
//
// tests/unit/test_environment_variables.cpp keeps the list honest: every
// variable name that a file under src/ reads (a string literal shaped like
// NAME_NAME in a file that calls std::getenv) must be here, every entry
// read by mmbench or libmmbench-lb.so must still be read under src/, and
// docs/environment.md must name every entry.
#pragma once

#include <string_view>

namespace mmbench {

// Who reads a variable.
enum class EnvironmentReader {
  mmbench,   // the mmbench executable (src/)
  preload,   // libmmbench-lb.so and libmmbench-dispatch.so (src/preload, src/dispatch)
  scripts,   // scripts/ and plots/ (make run, simulate.sh, the plotter)
  openblas,  // OpenBLAS, in every process that loads it
  open_mpi,  // Open MPI's mpirun and MPI_Init
  glibc,     // the C library's malloc, in every process
};

struct EnvironmentVariable {
  std::string_view name;
  EnvironmentReader reader;
  std::string_view when_unset;  // what holds when the variable is unset
  std::string_view meaning;
};

inline constexpr EnvironmentVariable kEnvironmentVariables[] = {
    // mmbench
    {"OPENBLAS_CORETYPE", EnvironmentReader::mmbench, "OpenBLAS picks the core for the CPU",
     "pins the OpenBLAS core; mmbench records it with the BLAS in every sidecar and profile and "
     "prints a note when the pin leaves out the CPU's AVX-512"},
    {"OPENBLAS_NUM_THREADS", EnvironmentReader::mmbench, "not recorded",
     "recorded in the sidecar (omp_openblas_threads_env); mmbench sets the BLAS threads itself "
     "(--threads, default 1 per rank)"},
    {"MMBENCH_PACKED_ISA", EnvironmentReader::mmbench,
     "the widest kernel the CPU runs (cpuid): avx512, else avx2, else portable",
     "forces the packed GEMM's micro-kernel: avx512, avx2 or portable; match-blas keeps it at the "
     "running OpenBLAS core's width (--local-gemm packed)"},
    {"MMBENCH_BLAS_PROBE_FAULT", EnvironmentReader::mmbench, "no fault",
     "test hook of tune's BLAS kernel probe: abort, hang, wrong or garbage makes the probe's child "
     "misbehave, so the parent's rejection can be tested"},
    {"MMBENCH_BLAS_KERNEL_SWITCHED", EnvironmentReader::mmbench, "no switch",
     "set by run itself when it re-executes with its profile's fastest OpenBLAS core (the core, "
     "the one it replaced, the profile); recorded in the sidecar, guards against a second switch"},
    {"MMBENCH_FAULT_INJECT", EnvironmentReader::mmbench, "no fault",
     "test hook: algo@phase[@rank|@all] makes a phase (plan, alloc, multiply) fail"},
    {"MMBENCH_SIM_PLATFORM", EnvironmentReader::mmbench, "smpi",
     "SMPI build only, set by scripts/simulate.sh: the platform file's name (CSV column simulated)"},
    {"MMBENCH_SIM_PLATFORM_SHA256", EnvironmentReader::mmbench, "empty",
     "SMPI build only, set by scripts/simulate.sh: the platform file's sha256 (sidecar)"},
    {"MMBENCH_SIM_COMPUTE", EnvironmentReader::mmbench, "real",
     "SMPI build only, set by scripts/simulate.sh: real (compute and verify) or charged (charge "
     "local work as simulated time)"},
    {"MMBENCH_SIM_PROFILE", EnvironmentReader::mmbench, "the platform's host speed",
     "SMPI build only, set by scripts/simulate.sh (--sim-profile, or the profile a platform from "
     "platform_from_profile.py names): a machine profile whose kernel model (else its DGEMM rate and "
     "addition bandwidth) prices charged work"},
    {"MMBENCH_SIM_NOISE", EnvironmentReader::mmbench, "on",
     "SMPI build only, set by scripts/simulate.sh --noise: on or off, the kernel model's multiplicative "
     "noise on charged prices (no effect on flat prices)"},
    {"MMBENCH_SIM_SEED", EnvironmentReader::mmbench, "1",
     "SMPI build only, set by scripts/simulate.sh --seed: the seed of that noise, an integer in "
     "[0, 2^63 - 1] (the same seed replays the same draws)"},
    {"MMBENCH_SIM_HOST_MEMORY", EnvironmentReader::mmbench, "90 % of this host's MemAvailable",
     "SMPI build only, set by scripts/simulate.sh --host-memory: the memory all simulated ranks "
     "together may hold in the one simulating process (4G, 512M); a configuration predicted over "
     "it is not applicable"},
    // libmmbench-lb.so
    {"MMBENCH_LB", EnvironmentReader::preload, "MMBENCH_PROFILE's lb, else 32",
     "the lb to serve to PBLAS (a positive integer); wins over MMBENCH_PROFILE"},
    {"MMBENCH_PROFILE", EnvironmentReader::preload, "lb 32 (ScaLAPACK's own)",
     "an mmbench machine profile whose field lb is served to PBLAS"},
    {"MMBENCH_VERBOSE", EnvironmentReader::preload, "silent", "1: rank 0 prints the lb served and where it came from"},
    // libmmbench-dispatch.so (also MMBENCH_LB, MMBENCH_PROFILE, MMBENCH_VERBOSE above)
    {"MMBENCH_DISPATCH", EnvironmentReader::preload, "on",
     "off: every PDGEMM goes to ScaLAPACK, the library stays loaded (and still serves lb)"},
    {"MMBENCH_DISPATCH_STRASSEN", EnvironmentReader::preload, "off",
     "1: the Strassen members too (local Strassen-Winograd levels, parallel Strassen); their error "
     "bound is larger"},
    {"MMBENCH_DISPATCH_HYBRID", EnvironmentReader::preload, "off",
     "1: the model also prices each member as a ranks x threads hybrid (every t-th process computes "
     "with t times the BLAS threads on its idle neighbours' cores), up to the threads the profile measured"},
    {"MMBENCH_DISPATCH_MIN_DIM", EnvironmentReader::preload, "256",
     "calls with min(M, N, K) below it go straight to ScaLAPACK"},
    {"MMBENCH_DISPATCH_MAX_MB", EnvironmentReader::preload, "4096",
     "MiB per rank a member and its conversion buffers may hold; above it, ScaLAPACK"},
    {"MMBENCH_DISPATCH_GEMM", EnvironmentReader::preload, "auto (the profile's faster GEMM)",
     "the GEMM in each rank of mmbench's members: auto, blas or packed"},
    {"MMBENCH_DISPATCH_FORCE", EnvironmentReader::preload, "the model decides",
     "scalapack or a dispatch member (name, name:L for L local levels, name/t or name:L/t for a ranks x "
     "threads hybrid of t) for every call that may be dispatched"},
    {"MMBENCH_DISPATCH_LOG", EnvironmentReader::preload, "no census",
     "a file: rank 0 writes one CSV row per PDGEMM call and prints a summary at MPI_Finalize"},
    {"OMPI_COMM_WORLD_RANK", EnvironmentReader::preload, "PMIX_RANK, PMI_RANK, then MPI",
     "the process's rank, so that only rank 0 prints (set by Open MPI's mpirun)"},
    {"PMIX_RANK", EnvironmentReader::preload, "PMI_RANK, then MPI",
     "the process's rank under a PMIx launcher (srun, prterun)"},
    {"PMI_RANK", EnvironmentReader::preload, "ask MPI and BLACS once MPI is up, else rank 0",
     "the process's rank under a PMI launcher (MPICH's, Slurm's)"},
    {"GLIBC_TUNABLES", EnvironmentReader::mmbench, "mmbench keeps freed heap memory",
     "glibc's tunables; where set (or any MALLOC_* below), the mmbench executable leaves glibc's "
     "malloc settings to the user instead of keeping freed heap memory (core/machine/heap_policy.hpp)"},
    // scripts
    {"MMBENCH_SIM_NICE", EnvironmentReader::scripts, "19",
     "scripts/simulate.sh: the nice level of the simulation (0: normal priority)"},
    {"MMBENCH_PLOT_REEXEC", EnvironmentReader::scripts, "unset",
     "internal to plots/mmbench_plot.py: set when it re-ran itself with /usr/bin/python3"},
    // OpenBLAS
    {"OMP_NUM_THREADS", EnvironmentReader::openblas, "all cores",
     "OpenBLAS's thread pool at load time, when OPENBLAS_NUM_THREADS and GOTO_NUM_THREADS are "
     "unset; mmbench sets its thread count itself"},
    {"GOTO_NUM_THREADS", EnvironmentReader::openblas, "OMP_NUM_THREADS",
     "OpenBLAS's thread pool at load time, when OPENBLAS_NUM_THREADS is unset"},
    {"OPENBLAS_VERBOSE", EnvironmentReader::openblas, "0", "2: OpenBLAS prints the core it chose at load time"},
    // glibc (read by mmbench too: core/machine/heap_policy.hpp)
    {"MALLOC_MMAP_THRESHOLD_", EnvironmentReader::glibc, "mmbench: 32 MiB",
     "the size from which malloc maps a block of its own; set: mmbench leaves glibc's settings alone"},
    {"MALLOC_TRIM_THRESHOLD_", EnvironmentReader::glibc, "mmbench: never trim",
     "free heap memory at the top beyond which free() gives it back; set: mmbench leaves glibc's settings alone"},
    {"MALLOC_TOP_PAD_", EnvironmentReader::glibc, "glibc's 128 KiB",
     "extra memory asked for at each heap growth; set: mmbench leaves glibc's settings alone"},
    {"MALLOC_MMAP_MAX_", EnvironmentReader::glibc, "glibc's 65536",
     "most blocks mapped at once (0: none); set: mmbench leaves glibc's settings alone"},
    // Open MPI
    {"OMPI_ALLOW_RUN_AS_ROOT", EnvironmentReader::open_mpi, "mpirun refuses root",
     "1 (with OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1): let mpirun run as root, e.g. in a container"},
    {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", EnvironmentReader::open_mpi, "mpirun refuses root",
     "1: the confirmation OMPI_ALLOW_RUN_AS_ROOT needs"},
    {"OMPI_MCA_rmaps_base_oversubscribe", EnvironmentReader::open_mpi, "no more ranks than slots",
     "1: allow more ranks than cores (tests only: oversubscribed timings mean nothing)"},
    {"OMPI_MCA_btl_vader_single_copy_mechanism", EnvironmentReader::open_mpi, "cma where allowed",
     "none: shared-memory transfers without cross-memory attach (set by ctest: containers often "
     "forbid it)"},
};

// The entry for name, or nullptr.
constexpr const EnvironmentVariable* find_environment_variable(std::string_view name) {
  for (const EnvironmentVariable& v : kEnvironmentVariables)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace mmbench
