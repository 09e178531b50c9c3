// What a rank's local multiplication is, as one value: the
// Strassen-Winograd levels on top and what multiplies at the bottom. The
// algorithms hand it whole to LocalMultiply (local_multiply.hpp), and the
// cost model prices the same value (model::local_of), so a new setting of
// the local kernel is one field here.
#pragma once

#include <cstdint>
#include <string>

#include "local/fast_gemm.hpp"
#include "local/packed_gemm.hpp"

namespace mmbench::local {

struct LocalKernelSpec {
  // Every field is typed: a kernel name is parsed once, where the user's
  // word comes in (ranking/option_table.cpp, dispatch/dispatch_settings.cpp),
  // and turned back into text only for labels and the CSV (local::to_string).
  // Local Strassen-Winograd levels in each rank, at most (a level is done
  // only while local_level_applies, fast_gemm.hpp).
  int levels = 0;
  FastVariant variant = FastVariant::winograd;  // --local-variant
  // A level is done only while min(m, n, k) of the block is at least this;
  // 0 = the kernel's default (256). `--local-strassen auto` sets it to the
  // machine profile's measured crossover.
  std::int64_t min_dim = 0;
  // What multiplies at the bottom (fast_gemm.hpp LeafGemm): blas
  // (OpenBLAS DGEMM) or packed (mmbench's packed GEMM, the deepest level
  // fused into it). With 0 levels packed is still the local kernel -- the
  // packed GEMM alone -- not plain DGEMM.
  LeafGemm gemm = LeafGemm::blas;
  // The packed GEMM's block sizes where gemm is "packed"; zeros: its
  // kernel's defaults (a machine profile's tuned ones come from `run
  // --profile`, cli/sweep_expansion.cpp).
  PackedBlocking packed_blocking{};
  // Which Winograd levels fuse their operand sums (fast_gemm.hpp,
  // FastGemmConfig::fusion; --local-fusion): all (the default), deepest,
  // none.
  FastGemmConfig::Fusion fusion = FastGemmConfig::Fusion::all;
  // How the levels' operand passes write (FastGemmConfig::streaming_stores;
  // --local-stores): cached (ordinary stores, the default) or streaming.
  bool streaming_stores = false;
};

}  // namespace mmbench::local
