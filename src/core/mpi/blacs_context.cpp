#include "core/mpi/blacs_context.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/mpi/mpi_check.hpp"
#include "core/mpi/scalapack_api.hpp"

namespace mmbench {

namespace {

std::string shape(int pr, int pc) { return std::to_string(pr) + "x" + std::to_string(pc); }

// BLACS aborts the whole job on a shape it cannot build ("Illegal grid"):
// refuse it here with an exception instead.
void check_shape(const char* what, int pr, int pc, int ranks) {
  if (pr < 1 || pc < 1 || static_cast<long long>(pr) * pc > ranks)
    throw std::invalid_argument(std::string(what) + ": a " + shape(pr, pc) + " grid does not fit " +
                                std::to_string(ranks) + " ranks");
}

}  // namespace

BlacsSystemHandle::BlacsSystemHandle(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw std::invalid_argument("BLACS system handle of MPI_COMM_NULL");
  MMBENCH_MPI(MPI_Comm_rank(comm, &rank_));
  MMBENCH_MPI(MPI_Comm_size(comm, &size_));
  handle_ = Csys2blacs_handle(comm);
  if (handle_ < 0) throw std::runtime_error("Csys2blacs_handle failed (" + std::to_string(handle_) + ")");
}

BlacsSystemHandle::~BlacsSystemHandle() {
  if (handle_ >= 0) Cfree_blacs_system_handle(handle_);
}

BlacsContext::~BlacsContext() { release(); }

BlacsContext::BlacsContext(BlacsContext&& o) noexcept
    : ctxt_(std::exchange(o.ctxt_, -1)), pr_(o.pr_), pc_(o.pc_), myrow_(o.myrow_), mycol_(o.mycol_) {}

BlacsContext& BlacsContext::operator=(BlacsContext&& o) noexcept {
  if (this != &o) {
    release();
    ctxt_ = std::exchange(o.ctxt_, -1);
    pr_ = o.pr_;
    pc_ = o.pc_;
    myrow_ = o.myrow_;
    mycol_ = o.mycol_;
  }
  return *this;
}

void BlacsContext::release() noexcept {
  if (ctxt_ >= 0) Cblacs_gridexit(ctxt_);
  ctxt_ = -1;
}

void BlacsContext::adopt(int ctxt, const char* what, int pr, int pc, bool member) {
  ctxt_ = ctxt;
  pr_ = pr;
  pc_ = pc;
  if (!member) {
    if (ctxt_ >= 0)
      throw std::runtime_error(std::string(what) + " gave a rank outside the " + shape(pr, pc) + " grid context " +
                               std::to_string(ctxt_));
    return;
  }
  if (ctxt_ < 0)
    throw std::runtime_error(std::string(what) + " gave this rank no context in the " + shape(pr, pc) + " grid");
  int r = -1, c = -1;
  Cblacs_gridinfo(ctxt_, &r, &c, &myrow_, &mycol_);
  if (r != pr || c != pc || myrow_ < 0 || myrow_ >= pr || mycol_ < 0 || mycol_ >= pc)
    throw std::runtime_error(std::string(what) + " made a " + shape(r, c) + " grid with this rank at (" +
                             std::to_string(myrow_) + ", " + std::to_string(mycol_) + "), not the requested " +
                             shape(pr, pc));
}

BlacsContext BlacsContext::grid_init(const BlacsSystemHandle& handle, int pr, int pc) {
  check_shape("Cblacs_gridinit", pr, pc, handle.size());
  int ctxt = handle.get();
  Cblacs_gridinit(&ctxt, "R", pr, pc);
  BlacsContext grid;  // owns the context from here on, also if adopt() throws
  grid.adopt(ctxt, "Cblacs_gridinit", pr, pc, handle.rank() < pr * pc);
  return grid;
}

BlacsContext BlacsContext::grid_map(const BlacsSystemHandle& handle, std::vector<int> usermap, int pr, int pc) {
  check_shape("Cblacs_gridmap", pr, pc, handle.size());
  if (usermap.size() != static_cast<std::size_t>(pr) * static_cast<std::size_t>(pc))
    throw std::invalid_argument("Cblacs_gridmap: " + std::to_string(usermap.size()) + " ranks for a " + shape(pr, pc) +
                                " grid");
  for (int r : usermap)
    if (r < 0 || r >= handle.size())
      throw std::invalid_argument("Cblacs_gridmap: rank " + std::to_string(r) + " is not in a communicator of " +
                                  std::to_string(handle.size()));
  const bool member = std::find(usermap.begin(), usermap.end(), handle.rank()) != usermap.end();
  int ctxt = handle.get();
  Cblacs_gridmap(&ctxt, usermap.data(), pr, pr, pc);
  BlacsContext grid;
  grid.adopt(ctxt, "Cblacs_gridmap", pr, pc, member);
  return grid;
}

}  // namespace mmbench
