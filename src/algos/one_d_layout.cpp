#include "algos/one_d_layout.hpp"

#include "local/local_multiply.hpp"

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

double one_d_local_workspace_doubles(const Problem& pb, const Options& opt, int ranks) {
  return double(local::LocalMultiply::workspace_doubles_needed(block_size(pb.m, ranks, 0), block_size(pb.n, ranks, 0),
                                                               pb.k, opt.local, opt.threads));
}

}  // namespace mmbench::algos
