// The profile's record of tune's packed GEMM step (profile key
// "packed_gemm"; docs/machine-profile.md): the block sizes tried on this
// CPU's kernel, the fastest, and whether the packed GEMM or the BLAS's DGEMM
// is the faster leaf for the local levels. Optional: profiles written before
// it, or with tune --no-packed-tune, have none.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "local/fast_gemm.hpp"
#include "local/packed_gemm.hpp"

namespace mmbench::profile {

// The best blocking's speed over DGEMM's (paired_speedup); all 0 where not
// recorded (profiles written before it).
struct PackedSpeedup {
  double median = 0, lo = 0, hi = 0;
  double coverage = 0;  // of [lo, hi]; 0 with one round
  bool measured() const { return median > 0; }
};

// One Strassen–Winograd level timed on each leaf after the ladder (the
// step's second part, tuner/packed_ladder.hpp): C = A·B, n × n × n, one
// thread, one level fused into the packed GEMM (best blocking), the same
// level on DGEMM leaves (the kernel's default schedule), and plain DGEMM,
// interleaved. Its quadrants (n/2) are what the deepest of L levels
// multiplies at n·2^(L-1), and that level is what the packed leaf is for:
// fused, it makes no memory pass, so a packed GEMM a little slower than
// DGEMM alone can still make the faster level. Not measured (n = 0) in
// profiles written before it, or where n is below the kernel's default
// cut-off (a level would not apply there by default).
struct PackedLevel {
  std::int64_t n = 0;
  int rounds = 0;
  PackedSpeedup over_blas_level;  // t(level on DGEMM leaves) / t(fused level), round by round
  double packed_vs_dgemm = 0;     // t(DGEMM) / t(fused level), median of the per-round ratios
  double blas_vs_dgemm = 0;       // t(DGEMM) / t(level on DGEMM leaves), likewise
  bool measured() const { return n > 0; }
};

// One blocking the step timed: C = A·B, n × n × n, one thread.
struct PackedCandidate {
  local::PackedBlocking blocking;  // resolved (no zeros)
  double mflops_median = 0;        // 2 n³ / (median time) / 1e6
};

struct PackedTuneRecord {
  bool measured = false;                              // false: no step (the key is left out)
  local::PackedIsa isa = local::PackedIsa::portable;  // the kernel the blockings are for
  std::int64_t n = 0;
  int rounds = 0;
  std::vector<PackedCandidate> candidates;       // in the ladder's order
  local::PackedBlocking best;                    // the fastest candidate's
  double packed_mflops = 0;                      // its median
  double blas_mflops = 0;                        // DGEMM of the same n in the same rounds
  PackedSpeedup speedup;                         // the best blocking over DGEMM, round by round
  PackedLevel level;                             // one level on each leaf (above)
  local::LeafGemm leaf = local::LeafGemm::blas;  // packed_leaf_choice(deciding_speedup(*this))
};

// The best blocking's speed over DGEMM's from their times in the same
// rounds (t_blas[r] / t_packed[r]): the median of the per-round ratios and
// its interval (core/stats/paired_stats.hpp; [min, max] below 6 rounds).
// Throws std::invalid_argument for no rounds or lists of unequal length.
// Example: packed 0.100, 0.110, 0.090 s; DGEMM 0.105, 0.108, 0.099 s ->
// 1.050 [0.982, 1.100], coverage 0.75.
PackedSpeedup paired_speedup(const std::vector<double>& t_packed, const std::vector<double>& t_blas);

// The leaf that pays: packed only where its interval lies above 1 -- with 3
// to 5 rounds, where it beat DGEMM in every round -- else blas, which every
// other path uses. A comparison of two medians picked the packed leaf on
// one slow DGEMM reading, and the leaf runs in every local level after.
// Example: 1.050 [0.982, 1.100] -> blas; 1.020 [1.004, 1.031] -> packed.
local::LeafGemm packed_leaf_choice(const PackedSpeedup& speedup);

// The speedup the leaf is chosen on: the fused level's over the level on
// DGEMM leaves where the record has the level, else (older profiles) the
// plain product's over DGEMM's, which leaves out the passes the fused level
// saves and so errs toward the BLAS.
const PackedSpeedup& deciding_speedup(const PackedTuneRecord& record);

// The blocking a run with kernel `isa` takes from the record: the measured
// best where the record was measured on that kernel, else zeros (the
// kernel's defaults: a blocking tuned for another kernel says nothing
// about this one).
local::PackedBlocking recorded_blocking(const PackedTuneRecord& record, local::PackedIsa isa);

nlohmann::ordered_json packed_tune_to_json(const PackedTuneRecord& record);
// Throws ProfileError(origin, "field 'packed_gemm.…' …") on a malformed
// record: a missing or wrongly typed field, an unknown isa or leaf, a rate
// that is not positive and finite, a blocking that the isa's kernel cannot
// take, no candidates, a speedup whose bounds do not hold its median. A
// record without "speedup" or "level" (older profiles) reads with none.
PackedTuneRecord packed_tune_from_json(const nlohmann::ordered_json& j, const std::string& origin);

}  // namespace mmbench::profile
