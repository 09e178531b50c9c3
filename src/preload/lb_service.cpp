#include "preload/lb_service.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/lb_in_force.hpp"
#include "preload/launch_rank.hpp"
#include "preload/mmbench_lb.h"

namespace mmbench::preload {

namespace {

std::atomic<long> g_calls{0};
std::atomic<int> g_last{0};  // the lb the last pilaenv_ call returned
std::atomic<int> g_override{0};

// The PDGEMM in progress on this thread, as pilaenv_ needs it for the cap
// (lb_for_call): PILAENV gets only the BLACS context, not the problem.
struct Call {
  std::int64_t k = 0;  // 0: no PDGEMM in progress
  int pr = 1, pc = 1, nb = 1;
  std::int64_t length = mmbench::kPanelLengthUnknown;  // panel_length of the PDGEMM
};
thread_local Call t_call;

using GridinfoFn = void (*)(int, int*, int*, int*, int*);

}  // namespace

bool verbose() {
  const char* v = std::getenv("MMBENCH_VERBOSE");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

PdgemmFn scalapack_pdgemm() {
  static const PdgemmFn next = symbol<PdgemmFn>(RTLD_NEXT, "pdgemm_");
  if (next == nullptr) {
    std::fputs("mmbench preload: no ScaLAPACK pdgemm_ after this library; cannot go on\n", stderr);
    std::abort();
  }
  return next;
}

// Chosen on the first call, not at load time: by then the program has
// started MPI (so rank 0 is known), and mpirun, which the preload reaches
// too, never calls it and stays silent. A function-local static is
// initialised exactly once, also with several threads calling.
const LbChoice& lb_choice() noexcept {
  static const LbChoice c = [] {
    LbChoice c = choose_lb(std::getenv("MMBENCH_LB"), std::getenv("MMBENCH_PROFILE"));
    if ((!c.problem.empty() || verbose()) && launch_rank() == 0) {
      try {
        const std::string line = describe(c) + "\n";
        std::fputs(line.c_str(), stderr);  // one call: the line is not torn by other output
      } catch (...) {  // out of memory for the message: serve lb without it
      }
    }
    return c;
  }();
  return c;
}

// Descriptor fields (ScaLAPACK's DESC_): [1] BLACS context, [4] MB, [5] NB;
// A is m x k (its columns carry k, blocked by NB) unless transposed (then
// its rows, MB).
PdgemmInProgress::PdgemmInProgress(const char* transa, const int* m, const int* n, const int* k,
                                   const int* desca) noexcept
    : k_(t_call.k), pr_(t_call.pr), pc_(t_call.pc), nb_(t_call.nb), length_(t_call.length) {
  static const GridinfoFn gridinfo = symbol<GridinfoFn>(RTLD_DEFAULT, "Cblacs_gridinfo");
  Call call;
  int pr = -1, pc = -1, row = -1, col = -1;
  if (gridinfo != nullptr && k != nullptr && desca != nullptr && transa != nullptr) {
    gridinfo(desca[1], &pr, &pc, &row, &col);
    const bool a_transposed = *transa != 'N' && *transa != 'n';
    if (pr >= 1 && pc >= 1 && *k >= 1) {
      const std::int64_t length =
          m != nullptr && n != nullptr ? mmbench::panel_length(*m, *n, pr, pc) : mmbench::kPanelLengthUnknown;
      call = Call{*k, pr, pc, a_transposed ? desca[4] : desca[5], length};
    }
  }
  t_call = call;  // k = 0 where the grid is unknown: the lb uncapped
}

PdgemmInProgress::~PdgemmInProgress() { t_call = Call{k_, pr_, pc_, nb_, length_}; }

void set_lb_override(int lb) noexcept { g_override.store(lb > 0 ? lb : 0); }
int lb_override() noexcept { return g_override.load(); }

}  // namespace mmbench::preload

using mmbench::preload::lb_choice;

// INTEGER FUNCTION PILAENV(ICTXT, PREC): the same value on every rank (all
// ranks run the same PDGEMM) and for every precision; PBLAS calls it from C
// without the hidden length of PREC, and a Fortran caller's extra argument
// is harmless to ignore.
MMBENCH_PRELOAD_EXPORT int pilaenv_(int* /*ictxt*/, char* /*prec*/) {
  mmbench::preload::g_calls.fetch_add(1, std::memory_order_relaxed);
  const mmbench::preload::LbChoice& choice = lb_choice();  // reads the configuration (and says so) once
  const int forced = mmbench::preload::lb_override();
  const auto& c = mmbench::preload::t_call;
  const int lb = forced > 0 ? forced : mmbench::preload::lb_for_call(choice, c.k, c.pr, c.pc, c.nb, c.length);
  mmbench::preload::g_last.store(lb, std::memory_order_relaxed);
  return lb;
}

MMBENCH_PRELOAD_EXPORT int mmbench_lb_last(void) { return mmbench::preload::g_last.load(std::memory_order_relaxed); }

MMBENCH_PRELOAD_EXPORT long mmbench_lb_calls(void) {
  return mmbench::preload::g_calls.load(std::memory_order_relaxed);
}

MMBENCH_PRELOAD_EXPORT int mmbench_lb_value(void) { return lb_choice().lb; }
