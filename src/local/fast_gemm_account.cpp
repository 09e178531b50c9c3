// FastGemmAccount's sums; see fast_gemm_account.hpp for what is booked.
#include "local/fast_gemm.hpp"

namespace mmbench::local {

double FastGemmAccount::total_add_seconds() const {
  double s = 0;
  for (double v : add_seconds) s += v;
  return s;
}

std::int64_t FastGemmAccount::total_passes() const {
  std::int64_t s = 0;
  for (auto v : passes) s += v;
  return s;
}

FastGemmAccount& FastGemmAccount::operator+=(const FastGemmAccount& o) {
  calls += o.calls;
  leaf_seconds += o.leaf_seconds;
  leaf_calls += o.leaf_calls;
  fixup_seconds += o.fixup_seconds;
  for (std::size_t l = 0; l < add_seconds.size(); ++l) {
    add_seconds[l] += o.add_seconds[l];
    passes[l] += o.passes[l];
  }
  return *this;
}

}  // namespace mmbench::local
