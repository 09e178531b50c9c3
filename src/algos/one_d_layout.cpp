#include "algos/one_d_layout.hpp"

namespace mmbench::algos {

OneDLayouts one_d_layouts(const Problem& pb, int ranks) {
  return {row_blocks(pb.m, pb.k, ranks), col_blocks(pb.k, pb.n, ranks), row_blocks(pb.m, pb.n, ranks)};
}

Applicability one_d_message_limit(const Problem& pb, int ranks) {
  if (double(pb.k) * double(block_size(pb.n, ranks, 0)) > 2147483647.0)
    return {"a B block of k x ceil(n/p) doubles exceeds one MPI message (2^31 elements); use more ranks"};
  return {};
}

double one_d_buffer_doubles(const Problem& pb, int ranks) {
  return ranks > 1 ? 2.0 * double(pb.k) * double(block_size(pb.n, ranks, 0)) : 0.0;
}

}  // namespace mmbench::algos
