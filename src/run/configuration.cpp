#include "run/configuration.hpp"

namespace mmbench::run {

int Config::cores(int ranks) const {
  // dgemm: one rank, threads x ranks BLAS threads (algos/dgemm.cpp).
  return opt.threads * ranks;
}

bool Config::is_peer() const {
  return algo->name() == "dgemm" && opt.local.levels == 0 && opt.local.gemm == local::LeafGemm::blas && refuse.empty();
}

}  // namespace mmbench::run
