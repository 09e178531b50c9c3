#include "core/blacs_grid.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/scalapack_api.hpp"

namespace mmbench {

BlacsGrid::BlacsGrid(const Comm& comm, int pr, int pc) : pr_(pr), pc_(pc) {
  if (pr < 1 || pc < 1 || pr * pc != comm.size())
    throw std::invalid_argument("BLACS grid " + std::to_string(pr) + "x" + std::to_string(pc) +
                                " does not match " + std::to_string(comm.size()) + " ranks");
  handle_ = Csys2blacs_handle(comm.get());
  ctxt_ = handle_;
  Cblacs_gridinit(&ctxt_, "R", pr, pc);
  int r = 0, c = 0;
  Cblacs_gridinfo(ctxt_, &r, &c, &myrow_, &mycol_);
  if (r != pr || c != pc || myrow_ < 0)
    throw std::runtime_error("Cblacs_gridinit did not create the requested grid");
}

BlacsGrid::~BlacsGrid() {
  if (ctxt_ >= 0) Cblacs_gridexit(ctxt_);
  if (handle_ >= 0) Cfree_blacs_system_handle(handle_);
}

std::array<int, 9> BlacsGrid::descriptor(long long m, long long n, int mb, int nb) const {
  if (m > std::numeric_limits<int>::max() || n > std::numeric_limits<int>::max())
    throw std::invalid_argument("matrix too large for a ScaLAPACK descriptor");
  int mi = static_cast<int>(m), ni = static_cast<int>(n), zero = 0;
  int locr = numroc_(&mi, &mb, &myrow_, &zero, &pr_);
  int lld = std::max(1, locr);
  std::array<int, 9> desc{};
  int info = 0;
  descinit_(desc.data(), &mi, &ni, &mb, &nb, &zero, &zero, &ctxt_, &lld, &info);
  if (info != 0) throw std::runtime_error("descinit failed, info = " + std::to_string(info));
  return desc;
}

}  // namespace mmbench
