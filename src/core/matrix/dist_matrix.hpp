// A distributed matrix: a Layout plus this rank's local buffer.
#pragma once

#include "core/matrix/large_buffer.hpp"
#include "core/matrix/layout.hpp"

namespace mmbench {

struct DistMatrix {
  Layout layout;
  int rank = 0;               // this rank in the layout's communicator
  LargeVector<double> local;  // layout.local_size(rank) doubles

  DistMatrix() = default;
  DistMatrix(Layout l, int my_rank)
      : layout(std::move(l)), rank(my_rank), local(static_cast<std::size_t>(layout.local_size(my_rank)), 0.0) {}

  Index rows() const { return layout.rows(); }
  Index cols() const { return layout.cols(); }
  double* data() { return local.data(); }
  const double* data() const { return local.data(); }
};

}  // namespace mmbench
