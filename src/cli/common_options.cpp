#include "cli/common_options.hpp"

#include <stdexcept>

#include "algos/registry.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_lists.hpp"
#include "local/fast_gemm.hpp"
#include "local/packed_gemm.hpp"
#include "tuner/packed_tune_record.hpp"

namespace mmbench::cli {

std::vector<algos::Problem> parse_problems(const std::string& n, const std::string& m, const std::string& k) {
  const auto ns = parse_int_list("--n", n, 1, kMaxDim);
  const auto ms = m.empty() ? std::vector<std::int64_t>{} : parse_int_list("--m", m, 1, kMaxDim);
  const auto ks = k.empty() ? std::vector<std::int64_t>{} : parse_int_list("--k", k, 1, kMaxDim);
  std::vector<algos::Problem> out;
  for (std::int64_t nv : ns)
    for (std::int64_t mv : ms.empty() ? std::vector<std::int64_t>{nv} : ms)
      for (std::int64_t kv : ks.empty() ? std::vector<std::int64_t>{nv} : ks) out.push_back(algos::Problem{mv, nv, kv});
  return out;
}

model::ModelKind parse_model_option(const std::string& text) {
  try {
    return model::parse_model_kind(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--model: ") + e.what());
  }
}

void check_threads(int threads) {
  if (threads < 1 || threads > 1024)
    throw UsageError("--threads: " + std::to_string(threads) + " is out of range; allowed 1 to 1024");
}

std::vector<LbValue> parse_lb_option(const std::string& text, const Machine* machine, const std::string& profile_path) {
  std::vector<LbValue> lbs;
  for (const std::string& w : parse_word_list("--lb", text)) {
    if (w == "default") {
      lbs.push_back({0, false});
    } else if (w == "auto") {
      if (profile_path.empty()) throw UsageError("--lb auto needs --profile FILE (a machine profile from `mmbench tune`)");
      if (!machine || machine->lb <= 0) throw UsageError("--lb auto: the profile has no tuned lb");
      lbs.push_back({machine->lb, true});
    } else {
      lbs.push_back({static_cast<int>(parse_int_list("--lb", w, 1, 1 << 20).at(0)), false});
    }
  }
  return lbs;
}

std::vector<std::string> parse_local_gemm_option(const std::string& text) {
  std::vector<std::string> out;
  for (const std::string& w : parse_word_list("--local-gemm", text)) {
    if (w == "auto") {
      out.push_back(w);
      continue;
    }
    try {
      out.emplace_back(local::to_string(local::parse_leaf_gemm(w)));
    } catch (const std::invalid_argument&) {
      throw UsageError("--local-gemm: unknown local gemm '" + w + "' (allowed: blas, packed, auto)");
    }
  }
  return out;
}

LocalGemmChoice resolve_local_gemm(const std::string& word, const Machine* machine, const std::string& profile_path) {
  const bool profiled = machine && !profile_path.empty() && machine->packed.measured;
  std::string gemm = word;
  if (word == "auto") {
    if (profile_path.empty() || !machine)
      throw UsageError("--local-gemm auto needs --profile FILE (a machine profile from `mmbench tune`)");
    if (!profiled)
      throw UsageError("--local-gemm auto: the profile " + profile_path +
                       " has no packed GEMM step (tuned with --no-packed-tune, or before it existed); run `mmbench "
                       "tune` or give blas or packed");
    gemm = std::string(local::to_string(machine->packed.leaf));
  }
  if (gemm != "packed") return {gemm, {}};
  try {
    return {gemm, profiled ? tuner::recorded_blocking(machine->packed, local::packed_isa()) : local::PackedBlocking{}};
  } catch (const std::runtime_error& e) {  // MMBENCH_PACKED_ISA names no kernel this CPU runs
    throw UsageError(std::string("--local-gemm packed: ") + e.what());
  }
}

std::string parse_one_local_gemm(const std::string& text, const std::string& takes_one) {
  const std::vector<std::string> gemms = parse_local_gemm_option(text);
  if (gemms.size() != 1)
    throw UsageError("--local-gemm: '" + text + "' gives " + std::to_string(gemms.size()) + " values; " + takes_one);
  return gemms.front();
}

const algos::Algorithm& algorithm_named(const std::string& name) {
  const algos::Algorithm* a = algos::find_algorithm(name);
  if (!a)
    throw UsageError("--algo: unknown algorithm '" + name + "'; did you mean '" + algos::closest_algorithm(name) +
                     "'? (`mmbench list` shows all)");
  return *a;
}

}  // namespace mmbench::cli
