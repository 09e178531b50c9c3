// tune's packed GEMM step: a short ladder of block sizes (MC, KC, NC) for
// the packed GEMM's kernel on this CPU, timed against the BLAS's DGEMM in
// the same rounds, so that the profile says which blocking runs fastest
// here and which leaf the local Strassen levels should multiply with.
//
// Rank 0 times C = A·B, n × n × n, on one thread, while the other ranks
// sleep in Comm::idle_barrier (the packed GEMM is single-threaded; the
// local levels run one per thread): every candidate of packed_ladder() and
// one DGEMM, interleaved in `rounds` rounds in the order round_order(), each
// after `warmup` untimed calls. Rates are 2 n³ / (median time) / 1e6.
// Then, where n reaches the kernel's default cut-off, one Strassen–Winograd
// level on each leaf and DGEMM, interleaved the same way
// (profile::PackedLevel): the level fused into the packed GEMM with the best
// blocking, and the level on DGEMM leaves with the kernel's default schedule.
// The leaf is packed_leaf_choice of the fused level's per-round speed over
// the level on DGEMM leaves: packed only where it won in every round (3 to
// 5 rounds; at least 9 rounds for the level, see packed_ladder.cpp). The
// plain product's speed alone leaves out what differs between the levels
// (the fused level's saved passes, its costlier packing and C updates): on
// a 2-core AMD EPYC Zen 4 the plain products once said packed (1.028x over
// DGEMM, every round) where the levels said DGEMM, and the local product
// at n = 8192, L = 3 agreed with the levels (docs/results.md, "The leaf
// chosen on a level").
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "local/packed_gemm.hpp"
#include "profile/packed_tune_record.hpp"

namespace mmbench::tuner {

// The blockings tried for `isa`, defaults first, then one step each way
// along each block size (MC doubled and halved in whole MR panels, KC
// halved, NC doubled and halved), the ones the kernel cannot take and
// repeats left out. Avx512 (defaults 96, 768, 1024; MR = 16, NR = 12):
// 96x768x1024, 192x768x1024, 48x768x1024, 96x384x1024, 96x768x2048,
// 96x768x512.
std::vector<local::PackedBlocking> packed_ladder(local::PackedIsa isa);

// The square size measured for a tuning size n: n clamped to [64, 2048].
std::int64_t packed_ladder_size(std::int64_t n);

// Collective over comm; see above. Measures packed_isa()'s kernel. Every
// rank returns the same record. Throws std::invalid_argument for n < 1,
// rounds < 1 or warmup < 0; MpiError on an MPI failure.
profile::PackedTuneRecord measure_packed_ladder(std::int64_t n, int rounds, int warmup, MPI_Comm comm,
                                                const std::function<void(const std::string&)>& say);

}  // namespace mmbench::tuner
