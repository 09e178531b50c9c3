// A BLACS process grid over an MPI communicator (RAII: the context is
// released in the destructor).
//
// Ranks are placed row-major ("R"): rank = prow * pc + pcol, the same rule
// layout.cpp's block_cyclic() uses, so a Layout and a ScaLAPACK descriptor
// built from the same grid describe the same distribution.
#pragma once

#include <array>

#include "core/comm.hpp"

namespace mmbench {

class BlacsGrid {
 public:
  // Collective over comm; comm.size() must equal pr * pc.
  BlacsGrid(const Comm& comm, int pr, int pc);
  ~BlacsGrid();
  BlacsGrid(const BlacsGrid&) = delete;
  BlacsGrid& operator=(const BlacsGrid&) = delete;

  int context() const { return ctxt_; }
  int rows() const { return pr_; }
  int cols() const { return pc_; }
  int my_row() const { return myrow_; }
  int my_col() const { return mycol_; }

  // ScaLAPACK descriptor of an m×n matrix in mb×nb blocks on this grid,
  // with the local leading dimension this rank needs.
  std::array<int, 9> descriptor(long long m, long long n, int mb, int nb) const;

 private:
  int handle_ = -1;
  int ctxt_ = -1;
  int pr_ = 0, pc_ = 0, myrow_ = -1, mycol_ = -1;
};

}  // namespace mmbench
