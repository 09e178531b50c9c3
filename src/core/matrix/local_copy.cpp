#include "core/matrix/local_copy.hpp"

#include <algorithm>
#include <cstring>

#include "core/simulation.hpp"

namespace mmbench {

void copy_block(const double* src, Index src_ld, double* dst, Index dst_ld, Index rows, Index cols) {
  if (rows <= 0 || cols <= 0) return;
  if (sim::charged()) {  // simulated: costs time, moves nothing
    const Index bytes = 16 * rows * cols;
    const bool contiguous = cols == 1 || (rows == src_ld && rows == dst_ld);
    if (contiguous)
      sim::charge_copy(bytes);
    else
      sim::charge_pack(bytes);
    return;
  }
  if (rows == src_ld && rows == dst_ld) {
    std::memcpy(dst, src, static_cast<std::size_t>(rows * cols) * sizeof(double));
    return;
  }
  for (Index j = 0; j < cols; ++j)
    std::memcpy(dst + j * dst_ld, src + j * src_ld, static_cast<std::size_t>(rows) * sizeof(double));
}

void fill_zero(double* p, Index count) {
  if (count <= 0) return;
  if (sim::charged()) return sim::charge_copy(8 * count);
  std::fill(p, p + count, 0.0);
}

}  // namespace mmbench
