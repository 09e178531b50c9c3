// How ring cuts one step's local multiply into column chunks (it tests the
// shift's progress between chunks, so the next block arrives while this one
// is multiplied). Shared by the plan (ring.cpp) and its refined model, so
// the model prices the multiplies the code really does.
#pragma once

#include <algorithm>
#include <cstdint>

namespace mmbench::space {

// Up to 4 chunks of >= 128 columns of a w-column block; with local Strassen
// levels never narrower than the kernel's cut-off (min_dim), or no level
// would be done on any chunk. A simulated run found this (docs/results.md,
// "Simulated clusters"): ring L=1 at p = 16, n = 4096 cut its 256-wide
// blocks into 128-wide chunks, so only the last step did a Strassen level.
// The last step (nothing left to shift) is one chunk. most > 0 caps the
// count (--ring-chunks): 1 multiplies each step in one piece, with no MPI
// call while it does (where chunks hide nothing of the shift, they only
// cost: docs/results.md, "Ring against tpmm at p = 2").
//   w = 2048, L = 0 -> 4 (512 wide);  w = 256, L = 0 -> 2 (128 wide);
//   w = 256, L = 1, min_dim 256 -> 1;  w = 2048, L = 2, min_dim 256 -> 4;
//   w = 2048, L = 0, most 1 -> 1.
inline constexpr int kRingMaxChunks = 4;
inline std::int64_t ring_chunks(std::int64_t w, bool last_step, int local_levels, std::int64_t min_dim, int most = 0) {
  if (last_step) return 1;
  const std::int64_t narrowest = local_levels > 0 ? std::max<std::int64_t>(128, min_dim) : 128;
  const std::int64_t cap = most > 0 ? std::min(most, kRingMaxChunks) : kRingMaxChunks;
  return std::min<std::int64_t>(cap, std::max<std::int64_t>(1, w / narrowest));
}

}  // namespace mmbench::space
