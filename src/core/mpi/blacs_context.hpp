// Owned BLACS resources (RAII): a system handle and a grid context.
//
// BLACS hands out plain integers that must be given back by hand
// (Cfree_blacs_system_handle, Cblacs_gridexit); a constructor that throws
// after creating one would otherwise leak it. Every BLACS handle and context
// mmbench creates lives in one of these, so it is released on every path.
//
// A system handle is only needed to create contexts: a context keeps its own
// communicators, so callers keep the handle just for the constructor that
// builds their grids. (BLACS returns the same handle for the same
// communicator, so two long-lived owners of one communicator's handle would
// free it twice; short-lived ones never overlap.)
#pragma once

#include <mpi.h>

#include <vector>

namespace mmbench {

class BlacsSystemHandle {
 public:
  // Throws std::invalid_argument for MPI_COMM_NULL (BLACS would abort).
  explicit BlacsSystemHandle(MPI_Comm comm);
  ~BlacsSystemHandle();
  BlacsSystemHandle(const BlacsSystemHandle&) = delete;
  BlacsSystemHandle& operator=(const BlacsSystemHandle&) = delete;

  int get() const { return handle_; }
  int rank() const { return rank_; }  // in the communicator
  int size() const { return size_; }

 private:
  int handle_ = -1;
  int rank_ = -1, size_ = 0;
};

// One BLACS process grid context, or none (context() == -1) on a rank that
// is not part of the grid. Move-only; the destructor calls Cblacs_gridexit.
class BlacsContext {
 public:
  BlacsContext() = default;  // not part of any grid
  ~BlacsContext();
  BlacsContext(BlacsContext&& other) noexcept;
  BlacsContext& operator=(BlacsContext&& other) noexcept;
  BlacsContext(const BlacsContext&) = delete;
  BlacsContext& operator=(const BlacsContext&) = delete;

  // Cblacs_gridinit (order "R": rank = row * pc + col) on the first pr * pc
  // ranks of the handle's communicator, the others get none; collective.
  // Throws std::invalid_argument for a shape BLACS would abort on, and
  // std::runtime_error unless every rank got what it asked for (a pr x pc
  // context with its own position, or none) -- after releasing what it got.
  static BlacsContext grid_init(const BlacsSystemHandle& handle, int pr, int pc);

  // Cblacs_gridmap over the handle's ranks; collective over all of them.
  // usermap(i, j) = usermap[i + j * pr] is the handle-rank at position (i, j).
  // Ranks in usermap must get a pr x pc context, the others none; errors as
  // grid_init.
  static BlacsContext grid_map(const BlacsSystemHandle& handle, std::vector<int> usermap, int pr, int pc);

  int context() const { return ctxt_; }
  bool in_grid() const { return ctxt_ >= 0; }
  // The grid's shape (also on ranks outside it); this rank's position (-1 outside).
  int rows() const { return pr_; }
  int cols() const { return pc_; }
  int my_row() const { return myrow_; }
  int my_col() const { return mycol_; }

 private:
  // Takes ownership of what BLACS returned for a pr x pc request, then checks
  // it (see grid_init); a throw leaves the context owned, so it is released.
  void adopt(int ctxt, const char* what, int pr, int pc, bool member);
  void release() noexcept;

  int ctxt_ = -1;
  int pr_ = 0, pc_ = 0, myrow_ = -1, mycol_ = -1;
};

}  // namespace mmbench
