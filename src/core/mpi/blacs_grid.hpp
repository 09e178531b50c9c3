// A BLACS process grid over an MPI communicator (RAII: the context is
// released in the destructor, and by the constructor itself if it throws).
//
// Ranks are placed row-major ("R"): rank = prow * pc + pcol, the same rule
// layout.cpp's block_cyclic() uses, so a Layout and a ScaLAPACK descriptor
// built from the same grid describe the same distribution.
#pragma once

#include <array>

#include "core/mpi/blacs_context.hpp"
#include "core/mpi/comm.hpp"

namespace mmbench {

class BlacsGrid {
 public:
  // Collective over comm; comm.size() must equal pr * pc
  // (std::invalid_argument otherwise, before BLACS is asked).
  BlacsGrid(const Comm& comm, int pr, int pc);

  int context() const { return grid_.context(); }
  int rows() const { return grid_.rows(); }
  int cols() const { return grid_.cols(); }
  int my_row() const { return grid_.my_row(); }
  int my_col() const { return grid_.my_col(); }

  // ScaLAPACK descriptor of an m×n matrix in mb×nb blocks on this grid,
  // with the local leading dimension this rank needs.
  std::array<int, 9> descriptor(long long m, long long n, int mb, int nb) const;

 private:
  BlacsContext grid_;
};

}  // namespace mmbench
