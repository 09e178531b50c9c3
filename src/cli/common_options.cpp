#include "cli/common_options.hpp"

#include <stdexcept>

#include "algos/registry.hpp"
#include "core/usage_error.hpp"
#include "core/value_lists.hpp"
#include "local/fast_gemm.hpp"
#include "local/packed_gemm.hpp"
#include "profile/packed_tune_record.hpp"

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

std::string parse_one_local_gemm(const std::string& text, const std::string& takes_one) {
  const std::vector<std::string> gemms = ranking::parse_local_gemm_words(text);
  if (gemms.size() != 1)
    throw UsageError("--local-gemm: '" + text + "' gives " + std::to_string(gemms.size()) + " values; " + takes_one);
  return gemms.front();
}

ranking::OptionContext option_context(const Machine* m, const std::string& profile_path) {
  ranking::OptionContext ctx;
  ctx.profile = profile_path;
  if (!m) return ctx;
  ctx.params = &m->params;
  ctx.facts = &m->facts;
  return ctx;
}

const algos::Algorithm& algorithm_named(const std::string& name) {
  const algos::Algorithm* a = algos::find_algorithm(name);
  if (!a)
    throw UsageError("--algo: unknown algorithm '" + name + "'; did you mean '" + algos::closest_algorithm(name) +
                     "'? (`mmbench list` shows all)");
  return *a;
}

}  // namespace mmbench::cli
