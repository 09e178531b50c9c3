// libmmbench-dispatch.so: pdgemm_ for LD_PRELOAD, each call served by the
// dispatcher (src/dispatch/dispatcher.hpp) -- ScaLAPACK's PDGEMM with the
// tuned lb, or one of mmbench's algorithms where the model says it is
// faster, conversion included. mmbench_dispatch.h says what it does for the
// user. This file holds what touches BLACS, MPI's finalization and the
// dynamic linker; the library also serves pilaenv_ as libmmbench-lb.so does
// (lb_service.cpp).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "algos/pilaenv_override.hpp"
#include "core/mpi_check.hpp"
#include "dispatch/dispatcher.hpp"
#include "dispatch/machine_facts.hpp"
#include "preload/launch_rank.hpp"
#include "preload/lb_service.hpp"
#include "preload/mmbench_dispatch.h"
#include "preload/mmbench_lb.h"

extern "C" {
void Cblacs_gridinfo(int ictxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_get(int ictxt, int what, int* val);
MPI_Comm Cblacs2sys_handle(int sysctxt);
void Cigsum2d(int ictxt, const char* scope, const char* top, int m, int n, int* a, int lda, int rdest, int cdest);
}

namespace {

using mmbench::Comm;
using mmbench::dispatch::Dispatcher;

// The grid of a BLACS context, and the MPI communicator of its processes.
class BlacsGrid final : public mmbench::dispatch::CallerGrid {
 public:
  BlacsGrid(int ctxt, int pr, int pc, int myrow, int mycol)
      : ctxt_(ctxt), pr_(pr), pc_(pc), myrow_(myrow), mycol_(mycol) {}
  int pr() const override { return pr_; }
  int pc() const override { return pc_; }

  // The rank of every grid process in the communicator the grid was made
  // from (the BLACS system context's), in row-major grid order: each puts
  // its own (plus one) in its place, the grid sums. BLACS's own process
  // numbers are not used: their meaning differs between BLACS builds.
  std::vector<long> identity() override {
    int sys = 0;
    Cblacs_get(ctxt_, 10, &sys);
    base_ = Cblacs2sys_handle(sys);
    int me = 0;
    MMBENCH_MPI(MPI_Comm_rank(base_, &me));
    std::vector<int> ranks(static_cast<std::size_t>(pr_ * pc_), 0);
    ranks[static_cast<std::size_t>(myrow_ * pc_ + mycol_)] = me + 1;
    Cigsum2d(ctxt_, "All", " ", pr_ * pc_, 1, ranks.data(), pr_ * pc_, -1, -1);
    ranks_.clear();
    for (int r : ranks) ranks_.push_back(r - 1);
    std::vector<long> id{static_cast<long>(MPI_Comm_c2f(base_))};
    id.insert(id.end(), ranks_.begin(), ranks_.end());
    return id;
  }

  // Only the grid's processes take part (MPI_Comm_create_group), so a grid
  // smaller than the job works.
  Comm communicator() override {
    MPI_Group all = MPI_GROUP_NULL, mine = MPI_GROUP_NULL;
    MMBENCH_MPI(MPI_Comm_group(base_, &all));
    MMBENCH_MPI(MPI_Group_incl(all, static_cast<int>(ranks_.size()), ranks_.data(), &mine));
    MPI_Comm c = MPI_COMM_NULL;
    MMBENCH_MPI(MPI_Comm_create_group(base_, mine, 0x6d6d, &c));
    MMBENCH_MPI(MPI_Group_free(&mine));
    MMBENCH_MPI(MPI_Group_free(&all));
    return Comm::adopt(c);
  }

 private:
  int ctxt_, pr_, pc_, myrow_, mycol_;
  MPI_Comm base_ = MPI_COMM_NULL;
  std::vector<int> ranks_;
};

// One line on stderr, then the job ends: the dispatcher's state is unknown.
[[noreturn]] void fatal(const std::string& what) {
  std::fputs(("mmbench-dispatch: " + what + "; aborting (MMBENCH_DISPATCH=off runs ScaLAPACK alone)\n").c_str(),
             stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();
}

std::mutex g_mutex;           // PDGEMM from several threads at once: one at a time here
Dispatcher* g_dispatcher = nullptr;  // made at the first call, ended at MPI_Finalize
bool g_finished = false;
thread_local bool t_inside = false;  // mmbench's own PDGEMMs (inside a member) go straight on

// MPI deletes MPI_COMM_SELF's attributes first thing in MPI_Finalize, while
// everything still works: the summary and the frees happen there.
int at_finalize(MPI_Comm, int, void*, void*) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_dispatcher != nullptr) {
    try {
      g_dispatcher->finish();
    } catch (const std::exception& e) {
      std::fputs((std::string("mmbench-dispatch: at MPI_Finalize: ") + e.what() + "\n").c_str(), stderr);
    }
    g_finished = true;
  }
  return MPI_SUCCESS;
}

Dispatcher& dispatcher() {
  if (g_dispatcher == nullptr) {
    auto settings = mmbench::dispatch::read_dispatch_settings([](const char* n) { return std::getenv(n); });
    const mmbench::preload::LbChoice& lb = mmbench::preload::lb_choice();
    std::string problem;
    auto machine = mmbench::dispatch::machine_facts(settings.profile_path, lb.lb, lb.capped, &problem);
    if (!problem.empty()) settings.problems.push_back(problem);
    g_dispatcher = new Dispatcher(std::move(settings), std::move(machine), mmbench::preload::launch_rank() == 0);
    int key = MPI_KEYVAL_INVALID;
    MMBENCH_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &key, nullptr));
    MMBENCH_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr));
  }
  return *g_dispatcher;
}

}  // namespace

MMBENCH_PRELOAD_EXPORT void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                                    const double* alpha, const double* a, const int* ia, const int* ja,
                                    const int* desca, const double* b, const int* ib, const int* jb,
                                    const int* descb, const double* beta, double* c, const int* ic, const int* jc,
                                    const int* descc) {
  static const mmbench::preload::PdgemmFn next = mmbench::preload::scalapack_pdgemm();
  const auto scalapack = [&] {
    const mmbench::preload::PdgemmInProgress noted(transa, k, desca);
    next(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
  };
  int pr = -1, pc = -1, myrow = -1, mycol = -1;
  if (descc != nullptr) Cblacs_gridinfo(descc[1], &pr, &pc, &myrow, &mycol);
  // Inside a member, after MPI_Finalize, or not in the grid (ScaLAPACK
  // returns at once): straight on.
  if (t_inside || g_finished || myrow < 0 || mycol < 0 || pr < 1 || pc < 1) {
    scalapack();
    return;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  t_inside = true;
  try {
    Dispatcher& d = dispatcher();
    mmbench::dispatch::PdgemmCall call;
    std::string why;
    if (!mmbench::dispatch::read_call(*transa, *transb, *m, *n, *k, *alpha, a, *ia, *ja, desca, b, *ib, *jb, descb,
                                      *beta, c, *ic, *jc, descc, &call, &why)) {
      d.passed(*transa, *transb, *m, *n, *k, why, scalapack);
    } else {
      BlacsGrid grid(descc[1], pr, pc, myrow, mycol);
      d.pdgemm(call, grid, scalapack);
    }
  } catch (const std::exception& e) {
    fatal(e.what());
  }
  t_inside = false;
}

MMBENCH_PRELOAD_EXPORT int mmbench_dispatch_force(const char* member) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_dispatcher == nullptr) {
    int up = 0;
    MPI_Initialized(&up);
    if (!up) return -1;
    (void)dispatcher();
  }
  return g_dispatcher->force(member == nullptr ? std::string() : std::string(member)) ? 0 : -1;
}

MMBENCH_PRELOAD_EXPORT long mmbench_dispatch_calls(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_dispatcher == nullptr ? 0 : g_dispatcher->calls();
}

MMBENCH_PRELOAD_EXPORT long mmbench_dispatch_dispatched(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_dispatcher == nullptr ? 0 : g_dispatcher->dispatched();
}

MMBENCH_PRELOAD_EXPORT const char* mmbench_dispatch_last_choice(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_dispatcher == nullptr ? "" : g_dispatcher->last_choice().c_str();
}

// mmbench's PDGEMM plan sets the lb it wants through these (the mmbench
// executable defines them in algos/pilaenv_override.cpp); here the lb
// service serves it. The dispatcher runs no PDGEMM plan of mmbench's.
namespace mmbench::algos {
void set_logical_block_size(int lb) { preload::set_lb_override(lb); }
int logical_block_size() {
  return preload::lb_override() > 0 ? preload::lb_override() : preload::lb_choice().lb;
}
long pilaenv_calls() { return mmbench_lb_calls(); }
void count_pilaenv_call() {}
}  // namespace mmbench::algos
