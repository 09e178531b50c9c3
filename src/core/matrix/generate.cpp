#include "core/matrix/generate.hpp"

#include "core/stats/splitmix.hpp"

namespace mmbench {

double matrix_entry(Index i, Index j, std::uint64_t seed) {
  // Hash the three inputs in sequence so (i, j) and (j, i) differ.
  std::uint64_t h = splitmix64(
      seed ^ splitmix64(static_cast<std::uint64_t>(i) ^ splitmix64(static_cast<std::uint64_t>(j) + 0x51ed27ULL)));
  // 53 random bits -> [0, 1) -> [-1, 1).
  return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0;
}

void generate(DistMatrix& m, std::uint64_t seed) {
  for (std::size_t idx : m.layout.rects_of(m.rank)) {
    const Rect& r = m.layout.rects()[idx];
    for (Index j = 0; j < r.cols; ++j) {
      double* col = m.local.data() + r.offset + j * r.ld;
      for (Index i = 0; i < r.rows; ++i) col[i] = matrix_entry(r.row + i, r.col + j, seed);
    }
  }
}

}  // namespace mmbench
