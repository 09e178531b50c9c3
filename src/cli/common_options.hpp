// Options that `run`, `predict` and `explain` share, parsed and checked in
// one place, so the three commands accept the same values and answer a bad
// one with the same message (every rank throws the same UsageError,
// usage_error.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algos/algorithm.hpp"
#include "cli/machine_source.hpp"
#include "ranking/selection.hpp"

namespace mmbench::cli {

inline constexpr std::int64_t kMaxDim = 10'000'000;

// --n, --m, --k (lists or ranges, 1 to kMaxDim): every (m, n, k), n
// outermost, then m, then k; an empty --m or --k means "= n".
//   --n 64,128 --m 80 -> (80, 64, 64), (80, 128, 128)
std::vector<algos::Problem> parse_problems(const std::string& n, const std::string& m, const std::string& k);

// --model: refined or paper.
model::ModelKind parse_model_option(const std::string& text);

// --threads: 1 to 1024 BLAS threads per rank.
void check_threads(int threads);

// One --lb value: lb 0 = the library's 32; tuned = the profile's lb, which
// every PDGEMM caps to its own problem and grid (core/lb_in_force.hpp).
struct LbValue {
  int lb = 0;
  bool tuned = false;
};
// --lb words: 'default' -> {0}, 'auto' -> {the profile's lb, tuned} (needs
// --profile, profile_path, with an lb), or numbers -> {n} (run as given).
std::vector<LbValue> parse_lb_option(const std::string& text, const Machine* machine, const std::string& profile_path);

// --local-gemm: comma-separated GEMMs under the local levels, each "blas"
// or "packed" (local/fast_gemm.hpp LeafGemm) or "auto" (the profile's leaf,
// resolve_local_gemm), in the order given.
//   "blas,packed" -> blas packed;  "foo" -> UsageError naming 'foo' and the allowed ones
std::vector<std::string> parse_local_gemm_option(const std::string& text);
// --local-gemm where one value is taken (model rankings share one GEMM): it,
// or a UsageError "--local-gemm: 'blas,packed' gives 2 values; <takes_one>".
std::string parse_one_local_gemm(const std::string& text, const std::string& takes_one);

// What one --local-gemm word runs: the GEMM ("blas" or "packed") and, for
// packed, its block sizes (zeros: the kernel's defaults).
//   "blas"   -> blas
//   "packed" -> packed, with the profile's measured blocking where the
//               profile (machine, from profile_path) has one for the kernel
//               this process runs (tuner::recorded_blocking), else defaults
//   "auto"   -> the profile's faster leaf (tune's packed step), as above;
//               UsageError without --profile or where the profile has no
//               packed step (tuned with --no-packed-tune or before it existed)
// A packed word under a bad MMBENCH_PACKED_ISA is a UsageError with its text.
struct LocalGemmChoice {
  std::string gemm;
  local::PackedBlocking blocking;
};
LocalGemmChoice resolve_local_gemm(const std::string& word, const Machine* machine, const std::string& profile_path);

// --algo: a registered algorithm by name, or a UsageError that names the
// closest one.
const algos::Algorithm& algorithm_named(const std::string& name);

}  // namespace mmbench::cli
