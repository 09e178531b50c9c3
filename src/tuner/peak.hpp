// The machine's double-precision peak, measured: the register-only loops of
// local/peak_loop.hpp, for every vector width the CPU offers (cpuid), on
// one core and on several physical cores at once (one thread pinned to one
// CPU of each core, core/machine/cpu_topology.hpp). Clocks drop as more cores are
// busy, so the rate is recorded per busy-core count -- 1, 2, 4, ... and all
// cores -- and a row is divided by the rate at the cores it used. On an SMT
// host the thread view (one thread per logical CPU) is recorded beside it:
// two threads share a core's FMA units, so that rate per thread is about
// half a core's and is never the denominator of a row.
//
// Each measurement runs the loop for `seconds` (its iteration count
// calibrated first) `repeats` times and keeps the fastest: anything else
// that runs only ever slows a repeat down. A few tenths of a second per ISA.
// Beside the register-only loop, each ISA's GEMM-mix loop on one core (the
// FMA rate under a micro-kernel's loads, local/peak_loop.hpp): the ceiling a
// GEMM can reach here, so that a DGEMM well below the FMA peak can be told
// from a slow BLAS.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "core/machine/cpu_features.hpp"

namespace mmbench::tuner {

// The rate per core with `cores` physical cores busy at once.
struct BusyCoresRate {
  int cores = 0;
  double gflops_per_core = 0;
};

struct IsaPeak {
  VectorIsa isa = VectorIsa::sse2;
  double one_core_gflops = 0;            // one thread on one core, the other cores idle
  double all_cores_gflops_per_core = 0;  // one thread per physical core at once: the total / the cores
  // 2, 4, 8, ... busy cores and all of them (the last entry: all cores);
  // empty where only one core was measured.
  std::vector<BusyCoresRate> by_busy_cores;
  // One thread per logical CPU at once, per thread (SMT hosts; 0: no SMT
  // siblings among the CPUs, or not measured).
  double all_threads_gflops_per_thread = 0;
  // The GEMM-mix loop (local/peak_loop.hpp) on one core: slivers in L1, and
  // A streamed from a kMixL2PanelBytes panel in L2 (0: not built).
  double gemm_mix_l1_gflops = 0;
  double gemm_mix_l2_gflops = 0;
};

// The GEMM-mix loop's buffers: k steps per sliver in L1 and in L2, and the
// size of the L2 case's A panel (fits the 256 KiB L2 of the smallest x86
// core mmbench has met, twice over the largest L1).
inline constexpr std::int64_t kMixL1Kc = 64;
inline constexpr std::int64_t kMixL2Kc = 256;
inline constexpr std::int64_t kMixL2PanelBytes = 192 * 1024;

struct PeakMeasurement {
  std::vector<IsaPeak> isas;  // widest first; empty: no ISA measured (not x86-64)
  int threads = 0;            // physical cores of the all-core measurement (one thread each)
  int logical_cpus = 0;       // logical CPUs those cores offered (> threads: SMT)
  bool pinned = true;         // every all-core thread was pinned to its CPU
  // The fastest ISA's rates (0 without any).
  double one_core_gflops() const;
  double all_cores_gflops_per_core() const;
};

struct PeakOptions {
  double seconds = 0.1;  // per repeat
  int repeats = 3;
  bool all_cores = true;
};

// The busy-core counts measured besides one core: 2, 4, 8, ... below
// `cores`, then `cores` itself. Example: 16 -> {2, 4, 8, 16}; 6 -> {2, 4, 6};
// 2 -> {2}; 1 -> {}.
std::vector<int> busy_core_ladder(int cores);

// Measures in this process (no MPI): one core on the calling thread, then
// the busy-core ladder on std::threads pinned to one CPU of each physical
// core among `cpus` (empty: the CPUs the process may run on), and, where
// `cpus` holds SMT siblings, one thread per CPU. Throws
// std::invalid_argument for seconds <= 0 or repeats < 1.
PeakMeasurement measure_peak(const PeakOptions& options, const std::vector<int>& cpus = {});

// Collective: rank 0 measures on the CPUs of its node's ranks (its
// affinity widened for the measurement, core/machine/affinity.hpp) while every
// other rank sleeps in an idle barrier, so that rank 0 has the node to
// itself. The result is rank 0's, on every rank.
PeakMeasurement measure_peak_on_rank0(const PeakOptions& options, MPI_Comm comm);

// "avx512 55.1 GFLOP/s one core, 52.3 per core on 2 cores": one ISA, or
// the best with describe_peak(m) (several ISAs: "; "-separated).
std::string describe_isa_peak(const IsaPeak& p, int threads);
std::string describe_peak(const PeakMeasurement& m);

}  // namespace mmbench::tuner
