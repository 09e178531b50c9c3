// The packed GEMM's kernels, one per instruction set (packed_gemm.cpp
// dispatches to them). Each lives in a translation unit compiled with its
// own flags; one built without its instruction set (another architecture,
// an old compiler) returns nullptr and is never called.
#pragma once

#include <cstddef>
#include <cstdint>

#include "local/packed_gemm.hpp"

namespace mmbench::local::packed_kernels {

// A kernel's register tile and default block sizes, known whether or not
// the build has the kernel (blockings are validated against them anywhere).
// Each kernel's translation unit checks its template against its entry.
struct Shape {
  int mr, nr;
  PackedBlocking defaults;
};
inline constexpr Shape kAvx512Shape{16, 12, {96, 768, 1024}};
inline constexpr Shape kAvx2Shape{8, 6, {48, 768, 1024}};
inline constexpr Shape kPortableShape{8, 4, {128, 256, 2048}};

struct Kernel {
  // Its packing buffers for a resolved (valid, no zeros) blocking.
  std::size_t (*workspace_doubles)(const PackedBlocking& blocking);
  void (*gemm)(std::int64_t m, std::int64_t n, std::int64_t k, const PackedTerm* a, int na, const PackedTerm* b,
               int nb, const PackedDestination* c, int nc, double* workspace, const PackedBlocking& blocking);
};

// Whether the build has it, not whether the CPU can run it.
const Kernel* avx512();
const Kernel* avx2();
const Kernel* portable();

}  // namespace mmbench::local::packed_kernels
