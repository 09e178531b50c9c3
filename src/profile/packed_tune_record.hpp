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
  local::LeafGemm leaf = local::LeafGemm::blas;  // the faster of the two (packed_leaf_choice)
};

// The leaf that pays: packed where its best median is above the DGEMM's,
// else blas (ties stay with the BLAS, which every other path uses).
local::LeafGemm packed_leaf_choice(double packed_mflops, double blas_mflops);

// The blocking a run with kernel `isa` takes from the record: the measured
// best where the record was measured on that kernel, else zeros (the
// kernel's defaults: a blocking tuned for another kernel says nothing
// about this one).
local::PackedBlocking recorded_blocking(const PackedTuneRecord& record, local::PackedIsa isa);

nlohmann::ordered_json packed_tune_to_json(const PackedTuneRecord& record);
// Throws ProfileError(origin, "field 'packed_gemm.…' …") on a malformed
// record: a missing or wrongly typed field, an unknown isa or leaf, a rate
// that is not positive and finite, a blocking that the isa's kernel cannot
// take, no candidates.
PackedTuneRecord packed_tune_from_json(const nlohmann::ordered_json& j, const std::string& origin);

}  // namespace mmbench::profile
