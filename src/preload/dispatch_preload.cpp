// libmmbench-dispatch.so: pdgemm_ for LD_PRELOAD, each call served by the
// dispatcher (src/dispatch/dispatcher.hpp) -- ScaLAPACK's PDGEMM with the
// tuned lb, or one of mmbench's algorithms where the model says it is
// faster, conversion included. mmbench_dispatch.h says what it does for the
// user. This file holds what touches BLACS, MPI's finalization and the
// dynamic linker; the library also serves pilaenv_ as libmmbench-lb.so does
// (lb_service.cpp).
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "algos/pilaenv_override.hpp"
#include "core/mpi/mpi_check.hpp"
#include "dispatch/dispatcher.hpp"
#include "dispatch/machine_facts.hpp"
#include "preload/lb_service.hpp"
#include "preload/mmbench_dispatch.h"
#include "preload/mmbench_lb.h"

extern "C" {
void Cblacs_gridinfo(int ictxt, int* nprow, int* npcol, int* myrow, int* mycol);
void blacs_get_(const int* ictxt, const int* what, int* val);
}

namespace {

using mmbench::Comm;
using mmbench::dispatch::CallReport;
using mmbench::dispatch::Dispatcher;

// The MPI communicator of a BLACS context's grid: BLACS's "all" scope
// duplicate, whose rank r * pc + c is the process at (r, c)
// (BLACS/SRC/blacs_map_.c). The Fortran blacs_get_ (what = 10) hands it
// out as MPI_Comm_c2f's integer; the C Cblacs_get would register it in
// BLACS's table of system handles, one slot per grid ever made.
MPI_Comm grid_comm(int ctxt) {
  const int what = 10;
  int handle = 0;
  blacs_get_(&ctxt, &what, &handle);
  return MPI_Comm_f2c(handle);
}

// The grid of a BLACS context, and its processes.
class BlacsGrid final : public mmbench::dispatch::CallerGrid {
 public:
  BlacsGrid(int ctxt, int pr, int pc, int myrow, int mycol)
      : ctxt_(ctxt), pr_(pr), pc_(pc), myrow_(myrow), mycol_(mycol) {}
  int context() const override { return ctxt_; }
  int pr() const override { return pr_; }
  int pc() const override { return pc_; }
  int myrow() const override { return myrow_; }
  int mycol() const override { return mycol_; }

  // Each grid rank translated into MPI_COMM_WORLD: local group arithmetic,
  // no message.
  std::vector<int> processes() override {
    MPI_Group grid = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
    MMBENCH_MPI(MPI_Comm_group(grid_comm(ctxt_), &grid));
    MMBENCH_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int size = 0;
    MMBENCH_MPI(MPI_Group_size(grid, &size));
    std::vector<int> mine(static_cast<std::size_t>(size)), theirs(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) mine[static_cast<std::size_t>(i)] = i;
    MMBENCH_MPI(MPI_Group_translate_ranks(grid, size, mine.data(), world, theirs.data()));
    MMBENCH_MPI(MPI_Group_free(&grid));
    MMBENCH_MPI(MPI_Group_free(&world));
    if (size != pr_ * pc_) return {};
    for (int w : theirs)
      if (w == MPI_UNDEFINED) return {};
    return theirs;
  }

  Comm communicator() override {
    MPI_Comm c = MPI_COMM_NULL;
    MMBENCH_MPI(MPI_Comm_dup(grid_comm(ctxt_), &c));
    return Comm::adopt(c);
  }

 private:
  int ctxt_, pr_, pc_, myrow_, mycol_;
};

// One line on stderr, then the job ends: the dispatcher's state is unknown.
[[noreturn]] void fatal(const std::string& what) {
  std::fputs(("mmbench-dispatch: " + what + "; aborting (MMBENCH_DISPATCH=off runs ScaLAPACK alone)\n").c_str(),
             stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();
}

// The dispatcher is made at the first call and ended at MPI_Finalize;
// g_mutex guards only that (the dispatcher locks per grid itself, so a
// call on one grid never waits for a call on another).
std::mutex g_mutex;
Dispatcher* g_dispatcher = nullptr;
std::atomic<bool> g_finished{false};
thread_local bool t_inside = false;   // mmbench's own PDGEMMs (inside a member) go straight on
thread_local CallReport t_last;       // this thread's last call, for mmbench_dispatch_last_*

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
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_dispatcher == nullptr) {
    auto settings = mmbench::dispatch::read_dispatch_settings([](const char* n) { return std::getenv(n); });
    const mmbench::preload::LbChoice& lb = mmbench::preload::lb_choice();
    std::string problem;
    auto machine = mmbench::dispatch::machine_facts(settings.profile_path, lb.lb, lb.cap, &problem);
    if (!problem.empty()) settings.problems.push_back(problem);
    int rank = 0;
    MMBENCH_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    g_dispatcher = new Dispatcher(std::move(settings), std::move(machine), rank);
    int key = MPI_KEYVAL_INVALID;
    MMBENCH_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &key, nullptr));
    MMBENCH_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr));
  }
  return *g_dispatcher;
}

// The dispatcher if it exists and MPI is still up, else nullptr.
Dispatcher* live_dispatcher() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_finished ? nullptr : g_dispatcher;
}

template <class Fn>
Fn next_definition(const char* name) {
  void* s = dlsym(RTLD_NEXT, name);
  if (s == nullptr) fatal(std::string("no ") + name + " after libmmbench-dispatch.so (is ScaLAPACK linked?)");
  Fn f = nullptr;
  std::memcpy(&f, &s, sizeof s);
  return f;
}

// The program frees a grid (collective over its processes, as BLACS's own):
// the dispatcher drops what it held for it, then BLACS frees it.
void grid_freed(int ctxt) {
  if (t_inside) return;
  if (Dispatcher* d = live_dispatcher()) {
    try {
      d->context_freed(ctxt);
    } catch (const std::exception& e) {
      fatal(e.what());
    }
  }
}

void blacs_ended() {
  if (t_inside) return;
  if (Dispatcher* d = live_dispatcher()) {
    try {
      d->all_contexts_freed();
    } catch (const std::exception& e) {
      fatal(e.what());
    }
  }
}

}  // namespace

MMBENCH_PRELOAD_EXPORT void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                                    const double* alpha, const double* a, const int* ia, const int* ja,
                                    const int* desca, const double* b, const int* ib, const int* jb,
                                    const int* descb, const double* beta, double* c, const int* ic, const int* jc,
                                    const int* descc) {
  static const mmbench::preload::PdgemmFn next = mmbench::preload::scalapack_pdgemm();
  const auto scalapack = [&] {
    const mmbench::preload::PdgemmInProgress noted(transa, m, n, k, desca);
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
  t_inside = true;
  try {
    Dispatcher& d = dispatcher();
    mmbench::dispatch::PdgemmCall call;
    std::string why;
    if (!mmbench::dispatch::read_call(*transa, *transb, *m, *n, *k, *alpha, a, *ia, *ja, desca, b, *ib, *jb, descb,
                                      *beta, c, *ic, *jc, descc, &call, &why)) {
      t_last = d.passed(*transa, *transb, *m, *n, *k, why, scalapack);
    } else {
      BlacsGrid grid(descc[1], pr, pc, myrow, mycol);
      t_last = d.pdgemm(call, grid, scalapack);
    }
  } catch (const std::exception& e) {
    fatal(e.what());
  }
  t_inside = false;
}

// BLACS's grid and exit routines, C and Fortran, passed on after the
// dispatcher has let go of what it held for the grids.
MMBENCH_PRELOAD_EXPORT void Cblacs_gridexit(int ctxt) {
  static const auto next = next_definition<void (*)(int)>("Cblacs_gridexit");
  grid_freed(ctxt);
  next(ctxt);
}

MMBENCH_PRELOAD_EXPORT void blacs_gridexit_(const int* ctxt) {
  static const auto next = next_definition<void (*)(const int*)>("blacs_gridexit_");
  grid_freed(*ctxt);
  next(ctxt);
}

MMBENCH_PRELOAD_EXPORT void Cblacs_exit(int cont) {
  static const auto next = next_definition<void (*)(int)>("Cblacs_exit");
  blacs_ended();
  next(cont);
}

MMBENCH_PRELOAD_EXPORT void blacs_exit_(const int* cont) {
  static const auto next = next_definition<void (*)(const int*)>("blacs_exit_");
  blacs_ended();
  next(cont);
}

MMBENCH_PRELOAD_EXPORT int mmbench_dispatch_force(const char* member) {
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (!up || down) return -1;
  try {
    return dispatcher().force(member == nullptr ? std::string() : std::string(member)) ? 0 : -1;
  } catch (const std::exception& e) {
    fatal(e.what());
  }
}

MMBENCH_PRELOAD_EXPORT long mmbench_dispatch_calls(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_dispatcher == nullptr ? 0 : g_dispatcher->calls();
}

MMBENCH_PRELOAD_EXPORT long mmbench_dispatch_dispatched(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_dispatcher == nullptr ? 0 : g_dispatcher->dispatched();
}

MMBENCH_PRELOAD_EXPORT const char* mmbench_dispatch_last_choice(void) { return t_last.choice.c_str(); }

MMBENCH_PRELOAD_EXPORT double mmbench_dispatch_last_error_growth(void) { return t_last.error_growth; }

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
