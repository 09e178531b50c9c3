// Local data movement that is not arithmetic: copying a column-major block
// between storages (the redistribution's packing and unpacking, 2.5D's
// panels) and zeroing one. Real runs do it; a charged simulation
// (core/simulation.hpp) does not execute it but charges the bytes it moves
// with the kernel model's copy or pack fit (flat prices: free, as before
// the kernel model existed).
#pragma once

#include "core/matrix/layout.hpp"

namespace mmbench {

// dst(0:rows, 0:cols) = src(0:rows, 0:cols), column-major with leading
// dimensions src_ld and dst_ld (>= rows). Charged as a contiguous copy
// where both sides are one contiguous run (rows == both leading
// dimensions, or one column), else as a pack; 16 bytes per element.
void copy_block(const double* src, Index src_ld, double* dst, Index dst_ld, Index rows, Index cols);

// p[0:count] = 0. Charged as a contiguous copy of 8 bytes per element (a
// store-only pass).
void fill_zero(double* p, Index count);

}  // namespace mmbench
