// Does a transfer move while the ranks compute? (docs/method.md §8.2)
//
// ring (algos/ring.cpp) posts each step's shift, multiplies the block it
// holds in column chunks with MPI_Testall between them, then waits; its
// refined model prices a step as max(shift, DGEMM), i.e. the transfer fully
// hidden. Whether it is depends on the transport, not on the algorithm:
// Open MPI moves a large message only inside MPI calls, and a TCP stack
// that runs on the rank's own core (a virtual NIC, no offload) takes that
// core from the DGEMM. So tune measures the pattern itself between two
// ranks: each sends kOverlapBytes to the other while multiplying in four
// chunks with MPI_Testall between them, the DGEMMs sized to take about as
// long as the exchange alone. With
//   x = the exchange alone, c = the chunks alone, b = both together,
//   fraction = (x + c - b) / min(x, c), clamped to [0, 1]:
// 1 = hidden (b = max(x, c)), 0 = serial (b = x + c).
// Example: x = 0.180 s, c = 0.120 s, b = 0.290 s -> (0.300 - 0.290) / 0.120
// = 0.08. Each round times the three back to back; the fraction is the
// median of the rounds' fractions, the times the medians of their own.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "profile/shift_overlap_record.hpp"

namespace mmbench::tuner {

inline constexpr std::int64_t kOverlapBytes = 4 << 20;  // each way: a ring shift of 512 k-rows x 1024 columns

struct ShiftOverlap {
  profile::ShiftOverlapRecord record;  // what the profile keeps (measured = false with one rank)
  int chunk_dgemms = 0;                // DGEMMs of 128 x 128 x 128 per chunk, four chunks
};

// Collective over comm; every rank returns rank 0's result. One rank: not
// measured. partner (rank 0's partner; the inter-node pair where the job
// spans nodes) must be a rank other than 0.
ShiftOverlap measure_shift_overlap(MPI_Comm comm, int partner, bool across_nodes, int reps);

}  // namespace mmbench::tuner
