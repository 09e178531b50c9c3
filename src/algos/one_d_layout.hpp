// The 1D layout ring and tpmm share (docs/method.md §2.3, 2.4): A and C in row
// blocks, B in column blocks, remainders to the first ranks; and what it
// implies for messages (one B block per message) and memory (two B-block
// buffers for the shifts).
#pragma once

#include "algos/algorithm.hpp"

namespace mmbench::algos {

struct OneDLayouts {
  Layout a, b, c;
};
OneDLayouts one_d_layouts(const Problem& pb, int ranks);

// Not applicable when one B block (k x ceil(n/p) doubles) exceeds one MPI
// message (2^31 elements).
Applicability one_d_message_limit(const Problem& pb, int ranks);

// Doubles of the two B-block buffers a rank keeps for the exchanges.
double one_d_buffer_doubles(const Problem& pb, int ranks);

// Doubles of the local kernel's workspace (local Strassen levels, the
// packed GEMM's buffers) for the largest local multiply: rank 0's rows times
// the widest B block. 0 for plain DGEMM (no levels, local_gemm blas). The
// sweep keeps several prepared configurations, so the estimate must count
// what the plan allocates.
double one_d_local_workspace_doubles(const Problem& pb, const Options& opt, int ranks);

}  // namespace mmbench::algos
