// Does a transfer move while the ranks compute? (docs/method.md §8.2)
//
// ring (algos/ring.cpp) posts each step's shift, multiplies the block it
// holds in column chunks with MPI_Testall between them, then waits; its
// refined model prices a step as max(shift, DGEMM), i.e. the transfer fully
// hidden. Whether it is depends on the transport, not on the algorithm:
// Open MPI moves a large message only inside MPI calls, and a TCP stack
// that runs on the rank's own core (a virtual NIC, no offload) takes that
// core from the DGEMM. So tune measures the pattern itself between two
// ranks: each sends S bytes to the other while multiplying in four chunks
// with MPI_Testall between them, the DGEMMs sized to take about as long as
// the exchange alone. With
//   x = the exchange alone, c = the chunks alone, b = both together,
//   fraction = (x + c - b) / min(x, c), clamped to [0, 1]:
// 1 = hidden (b = max(x, c)), 0 = serial (b = x + c).
// Example: x = 0.180 s, c = 0.120 s, b = 0.290 s -> (0.300 - 0.290) / 0.120
// = 0.08. Each round times the three back to back; the fraction is the
// median of the rounds' fractions, the times the medians of their own.
//
// S runs over kOverlapSizes: what a few MPI calls let through depends on
// the size (socket buffers, the transport's fragments), so one size does
// not price ring's shifts at every n. A ring shift on p ranks is 8 n^2 / p
// bytes: 16.8 MB at n = 2048 and 67 MB at n = 4096 on 2 ranks.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "profile/shift_overlap_record.hpp"

namespace mmbench::tuner {

// Each way, ascending. The first is timed in `reps` rounds, the larger ones
// (longer, so relatively less noisy, and up to seconds each on a slow
// link) in kOverlapLargeRounds.
inline constexpr std::int64_t kOverlapSizes[] = {std::int64_t{4} << 20, std::int64_t{16} << 20, std::int64_t{64} << 20};
inline constexpr int kOverlapLargeRounds = 5;

struct ShiftOverlap {
  profile::ShiftOverlapRecord record;  // what the profile keeps (measured = false with one rank)
  std::vector<int> chunk_dgemms;       // per size: DGEMMs of 128 x 128 x 128 per chunk, four chunks
};

// Collective over comm; every rank returns rank 0's result. One rank: not
// measured. sizes: each way, ascending (kOverlapSizes unless a test asks
// for less). partner (rank 0's partner; the inter-node pair where the job
// spans nodes) must be a rank other than 0.
ShiftOverlap measure_shift_overlap(MPI_Comm comm, int partner, bool across_nodes, int reps,
                                   const std::vector<std::int64_t>& sizes);

}  // namespace mmbench::tuner
