// The packed GEMM's kernels, one per instruction set (packed_gemm.cpp
// dispatches to them). Each lives in a translation unit compiled with its
// own flags; one built without its instruction set (another architecture,
// an old compiler) returns nullptr and is never called.
#pragma once

#include <cstddef>
#include <cstdint>

#include "local/packed_gemm.hpp"

namespace mmbench::local::packed_kernels {

struct Kernel {
  std::size_t workspace_doubles;  // its packing buffers
  void (*gemm)(std::int64_t m, std::int64_t n, std::int64_t k, const PackedTerm* a, int na, const PackedTerm* b,
               int nb, const PackedDestination* c, int nc, double* workspace);
};

// Whether the build has it, not whether the CPU can run it.
const Kernel* avx512();
const Kernel* avx2();
const Kernel* portable();

}  // namespace mmbench::local::packed_kernels
