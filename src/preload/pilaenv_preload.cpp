// libmmbench-lb.so: ScaLAPACK's pilaenv_ for LD_PRELOAD (mmbench_lb.h says
// what it does for the user). Only the three functions of mmbench_lb.h
// leave this library (hidden visibility for the rest, see CMakeLists.txt),
// so its C++ internals never meet the host program's.
#include <atomic>
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

bool verbose() {
  const char* v = std::getenv("MMBENCH_VERBOSE");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

// Chosen on the first call, not at load time: by then the program has
// started MPI (so rank 0 is known), and mpirun, which the preload reaches
// too, never calls it and stays silent. A function-local static is
// initialised exactly once, also with several threads calling.
int served_lb() noexcept {
  static const int lb = [] {
    const mmbench::preload::LbChoice c =
        mmbench::preload::choose_lb(std::getenv("MMBENCH_LB"), std::getenv("MMBENCH_PROFILE"));
    if ((!c.problem.empty() || verbose()) && mmbench::preload::launch_rank() == 0) {
      try {
        const std::string line = mmbench::preload::describe(c) + "\n";
        std::fputs(line.c_str(), stderr);  // one call: the line is not torn by other output
      } catch (...) {  // out of memory for the message: serve lb without it
      }
    }
    return c.lb;
  }();
  return lb;
}

}  // namespace

// INTEGER FUNCTION PILAENV(ICTXT, PREC): the same value on every rank and
// for every precision; PBLAS calls it from C without the hidden length of
// PREC, and a Fortran caller's extra argument is harmless to ignore.
MMBENCH_LB_EXPORT int pilaenv_(int* /*ictxt*/, char* /*prec*/) {
  g_calls.fetch_add(1, std::memory_order_relaxed);
  return served_lb();
}

MMBENCH_LB_EXPORT long mmbench_lb_calls(void) { return g_calls.load(std::memory_order_relaxed); }

MMBENCH_LB_EXPORT int mmbench_lb_value(void) { return served_lb(); }
