// libmmbench-lb.so: ScaLAPACK's pilaenv_ for LD_PRELOAD (mmbench_lb.h says
// what it does for the user). Only pilaenv_, pdgemm_ (a pass-through that
// notes the problem for the cap) and the functions of mmbench_lb.h leave
// this library (hidden visibility for the rest, see CMakeLists.txt),
// so its C++ internals never meet the host program's.
#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "preload/launch_rank.hpp"
#include "preload/lb_choice.hpp"
#include "preload/mmbench_lb.h"

#define MMBENCH_LB_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

std::atomic<long> g_calls{0};
std::atomic<int> g_last{0};  // the lb the last pilaenv_ call returned

// The PDGEMM in progress on this thread, as pilaenv_ needs it for the cap
// (lb_for_call): PILAENV gets only the BLACS context, not the problem.
struct Call {
  std::int64_t k = 0;  // 0: no PDGEMM in progress
  int pr = 1, pc = 1, nb = 1;
};
thread_local Call t_call;

using PdgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                          const double*, const int*, const int*, const int*, const double*, const int*,
                          const int*, const int*, const double*, double*, const int*, const int*, const int*);
using GridinfoFn = void (*)(int, int*, int*, int*, int*);

// dlsym's object pointer as a function pointer (POSIX allows the copy).
template <class Fn>
Fn symbol(void* handle, const char* name) {
  void* sym = dlsym(handle, name);
  Fn fn = nullptr;
  static_assert(sizeof fn == sizeof sym);
  std::memcpy(&fn, &sym, sizeof sym);
  return fn;
}

bool verbose() {
  const char* v = std::getenv("MMBENCH_VERBOSE");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

// Chosen on the first call, not at load time: by then the program has
// started MPI (so rank 0 is known), and mpirun, which the preload reaches
// too, never calls it and stays silent. A function-local static is
// initialised exactly once, also with several threads calling.
const mmbench::preload::LbChoice& choice() noexcept {
  static const mmbench::preload::LbChoice c = [] {
    mmbench::preload::LbChoice c =
        mmbench::preload::choose_lb(std::getenv("MMBENCH_LB"), std::getenv("MMBENCH_PROFILE"));
    if ((!c.problem.empty() || verbose()) && mmbench::preload::launch_rank() == 0) {
      try {
        const std::string line = mmbench::preload::describe(c) + "\n";
        std::fputs(line.c_str(), stderr);  // one call: the line is not torn by other output
      } catch (...) {  // out of memory for the message: serve lb without it
      }
    }
    return c;
  }();
  return c;
}

int served_lb() noexcept { return choice().lb; }

}  // namespace

// INTEGER FUNCTION PILAENV(ICTXT, PREC): the same value on every rank (all
// ranks run the same PDGEMM) and for every precision; PBLAS calls it from C without the hidden length of
// PREC, and a Fortran caller's extra argument is harmless to ignore.
MMBENCH_LB_EXPORT int pilaenv_(int* /*ictxt*/, char* /*prec*/) {
  g_calls.fetch_add(1, std::memory_order_relaxed);
  (void)served_lb();  // reads the configuration (and says so) once
  const Call& c = t_call;
  const int lb = mmbench::preload::lb_for_call(choice(), c.k, c.pr, c.pc, c.nb);
  g_last.store(lb, std::memory_order_relaxed);
  return lb;
}

// PDGEMM, passed on to ScaLAPACK's (the next definition after this
// library), with its k, grid and block along k noted for pilaenv_: a
// profile's lb is capped per PDGEMM (core/lb_in_force.hpp). Descriptor
// fields (ScaLAPACK's DESC_): [1] BLACS context, [4] MB, [5] NB; A is m x k
// (its columns carry k, blocked by NB) unless transposed (then its rows, MB).
MMBENCH_LB_EXPORT void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                               const double* alpha, const double* a, const int* ia, const int* ja,
                               const int* desca, const double* b, const int* ib, const int* jb, const int* descb,
                               const double* beta, double* c, const int* ic, const int* jc, const int* descc) {
  static const PdgemmFn next = symbol<PdgemmFn>(RTLD_NEXT, "pdgemm_");
  static const GridinfoFn gridinfo = symbol<GridinfoFn>(RTLD_DEFAULT, "Cblacs_gridinfo");
  if (next == nullptr) {
    std::fputs("mmbench-lb: no ScaLAPACK pdgemm_ after libmmbench-lb.so; cannot go on\n", stderr);
    std::abort();
  }
  const Call outer = t_call;
  Call call;
  int pr = -1, pc = -1, row = -1, col = -1;
  if (gridinfo != nullptr && k != nullptr && desca != nullptr && transa != nullptr) {
    gridinfo(desca[1], &pr, &pc, &row, &col);
    const bool a_transposed = *transa != 'N' && *transa != 'n';
    if (pr >= 1 && pc >= 1 && *k >= 1) call = Call{*k, pr, pc, a_transposed ? desca[4] : desca[5]};
  }
  t_call = call;  // k = 0 where the grid is unknown: the lb uncapped
  next(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
  t_call = outer;
}

MMBENCH_LB_EXPORT int mmbench_lb_last(void) { return g_last.load(std::memory_order_relaxed); }

MMBENCH_LB_EXPORT long mmbench_lb_calls(void) { return g_calls.load(std::memory_order_relaxed); }

MMBENCH_LB_EXPORT int mmbench_lb_value(void) { return served_lb(); }
