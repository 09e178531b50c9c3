// The machine's double-precision peak, measured: the register-only loops of
// local/peak_loop.hpp, for every vector width the CPU offers (cpuid), on
// one core and on all cores at once (one thread pinned to each CPU; clocks
// drop under all-core load, so the all-core rate per core is the fair
// denominator for a job that uses several cores).
//
// Each measurement runs the loop for `seconds` (its iteration count
// calibrated first) `repeats` times and keeps the fastest: anything else
// that runs only ever slows a repeat down. A few tenths of a second per ISA.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "core/cpu_features.hpp"

namespace mmbench::tuner {

struct IsaPeak {
  VectorIsa isa = VectorIsa::sse2;
  double one_core_gflops = 0;            // one thread on one core, the other cores idle
  double all_cores_gflops_per_core = 0;  // one thread per CPU at once: the total / the threads
};

struct PeakMeasurement {
  std::vector<IsaPeak> isas;  // widest first; empty: no ISA measured (not x86-64)
  int threads = 0;            // threads of the all-core measurement (CPUs it ran on)
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

// Measures in this process (no MPI): one core on the calling thread, all
// cores on one std::thread pinned to each CPU of `cpus` (empty: the CPUs
// the process may run on). Throws std::invalid_argument for seconds <= 0 or
// repeats < 1.
PeakMeasurement measure_peak(const PeakOptions& options, const std::vector<int>& cpus = {});

// Collective: rank 0 measures on the CPUs of its node's ranks (its
// affinity widened for the measurement, core/affinity.hpp) while every
// other rank sleeps in an idle barrier, so that rank 0 has the node to
// itself. The result is rank 0's, on every rank.
PeakMeasurement measure_peak_on_rank0(const PeakOptions& options, MPI_Comm comm);

// "avx512 55.1 GFLOP/s one core, 52.3 per core on 2 cores": one ISA, or
// the best with describe_peak(m) (several ISAs: "; "-separated).
std::string describe_isa_peak(const IsaPeak& p, int threads);
std::string describe_peak(const PeakMeasurement& m);

}  // namespace mmbench::tuner
