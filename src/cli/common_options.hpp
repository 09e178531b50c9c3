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
#include "ranking/option_table.hpp"
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

// --local-gemm where one value is taken (model rankings share one GEMM): it,
// or a UsageError "--local-gemm: 'blas,packed' gives 2 values; <takes_one>".
std::string parse_one_local_gemm(const std::string& text, const std::string& takes_one);

// The option table's context (ranking/option_table.hpp) for a machine
// (null: none) loaded from profile_path ("" = none): its tuned lb, local
// crossover and packed GEMM step; ranks 1, the --local-gemm default blas.
ranking::OptionContext option_context(const Machine* machine, const std::string& profile_path);

// --algo: a registered algorithm by name, or a UsageError that names the
// closest one.
const algos::Algorithm& algorithm_named(const std::string& name);

}  // namespace mmbench::cli
