// Multi-thread DGEMM: how well OpenBLAS scales with threads on this node, so
// that the refined model does not have to assume ideal scaling (the `dgemm`
// algorithm runs rank 0 with p x threads BLAS threads; --threads t gives
// every rank t threads).
//
// Two measurements of C = A B, n x n x n (n = the tuning size clamped to
// [1024, 2048]: big enough for threads to pay, small enough to take about a
// second), interleaved in `rounds` rounds in the order round_order(2, seed,
// round):
//  - single: every rank runs the DGEMM on one BLAS thread at the same time
//    (the conditions of the DGEMM profile, whose per-rank rates the models
//    scale); the time is the maximum over ranks;
//  - threaded: rank 0 runs it with `threads` BLAS threads (the cores of its
//    node) while every other rank waits in Comm::idle_barrier(true), which
//    sleeps instead of spinning, so that rank 0's threads get the cores.
//    mpirun may have bound rank 0 to one core: for this call its affinity is
//    widened to the cores of its node's ranks (core/machine/affinity.hpp), then
//    restored.
// Rates are 2 n^3 / (median time) / 1e6. The efficiency the model uses is
// threaded / (threads x single). After a threaded call every rank pauses
// 0.2 s: OpenBLAS' worker threads spin for a while after a call (its
// THREAD_TIMEOUT, ~0.1 s) and would slow the next single-thread call.
// The caller's BLAS thread count is restored.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "profile/core_layout.hpp"

namespace mmbench::tuner {

struct ThreadedDgemm {
  std::int64_t n = 0;
  int threads = 0;
  int rounds = 0;
  double threaded_mflops = 0;  // rank 0 with `threads` threads
  double single_mflops = 0;    // one thread per rank, all ranks at once
  double efficiency() const { return threads > 0 && single_mflops > 0 ? threaded_mflops / (threads * single_mflops) : 0; }
};

// The square size measured for a tuning size n: n clamped to [1024, 2048].
std::int64_t threaded_dgemm_size(std::int64_t n);

// Collective over comm; see above. threads = rank 0's value counts (the
// others are ignored). Throws std::invalid_argument for n < 1, threads < 1,
// rounds < 1 or warmup < 0; MpiError on an MPI failure.
ThreadedDgemm measure_threaded_dgemm(std::int64_t n, int threads, int rounds, int warmup, MPI_Comm comm);

// The profile's record of a threaded DGEMM measured over `ranks` ranks (the
// better layout: the higher rate per core; ties go to one rank per core, the
// layout of the DGEMM profile and every multi-rank algorithm). Not measured
// where threads < 2, ranks < 1 or a rate is not positive.
profile::CoreLayoutRecord core_layout_of(const ThreadedDgemm& measured, int ranks);

}  // namespace mmbench::tuner
