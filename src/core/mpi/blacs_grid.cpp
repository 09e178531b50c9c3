#include "core/mpi/blacs_grid.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/mpi/scalapack_api.hpp"

namespace mmbench {

BlacsGrid::BlacsGrid(const Comm& comm, int pr, int pc) {
  if (pr < 1 || pc < 1 || static_cast<long long>(pr) * pc != comm.size())
    throw std::invalid_argument("BLACS grid " + std::to_string(pr) + "x" + std::to_string(pc) + " does not match " +
                                std::to_string(comm.size()) + " ranks");
  // The handle is only needed to create the context (blacs_context.hpp).
  const BlacsSystemHandle handle(comm.get());
  grid_ = BlacsContext::grid_init(handle, pr, pc);
}

std::array<int, 9> BlacsGrid::descriptor(long long m, long long n, int mb, int nb) const {
  if (m > std::numeric_limits<int>::max() || n > std::numeric_limits<int>::max())
    throw std::invalid_argument("matrix too large for a ScaLAPACK descriptor");
  int mi = static_cast<int>(m), ni = static_cast<int>(n), zero = 0, myrow = my_row(), pr = rows(), ctxt = context();
  int locr = numroc_(&mi, &mb, &myrow, &zero, &pr);
  int lld = std::max(1, locr);
  std::array<int, 9> desc{};
  int info = 0;
  descinit_(desc.data(), &mi, &ni, &mb, &nb, &zero, &zero, &ctxt, &lld, &info);
  if (info != 0) throw std::runtime_error("descinit failed, info = " + std::to_string(info));
  return desc;
}

}  // namespace mmbench
