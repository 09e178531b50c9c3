// The lb PBLAS gets, served by pilaenv_: what libmmbench-lb.so and
// libmmbench-dispatch.so share (each links this unit once). mmbench_lb.h
// says what it does for the user. The C functions pilaenv_ and
// mmbench_lb_* are defined (and exported) in lb_service.cpp; each library
// defines its own pdgemm_ (lb_preload.cpp, dispatch_preload.cpp), which
// notes the PDGEMM in progress so that pilaenv_ can cap a profile's lb for
// it.
#pragma once

#include <dlfcn.h>

#include <cstring>

#include "preload/lb_choice.hpp"

#define MMBENCH_PRELOAD_EXPORT extern "C" __attribute__((visibility("default")))

namespace mmbench::preload {

using PdgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                          const double*, const int*, const int*, const int*, const double*, const int*,
                          const int*, const int*, const double*, double*, const int*, const int*, const int*);

// dlsym's object pointer as a function pointer (POSIX allows the copy).
template <class Fn>
Fn symbol(void* handle, const char* name) {
  void* sym = dlsym(handle, name);
  Fn fn = nullptr;
  static_assert(sizeof fn == sizeof sym);
  std::memcpy(&fn, &sym, sizeof sym);
  return fn;
}

// ScaLAPACK's pdgemm_ (the next definition after this library); aborts with
// one line when there is none: nothing could compute the product.
PdgemmFn scalapack_pdgemm();

bool verbose();

// The configuration (MMBENCH_LB, MMBENCH_PROFILE), read and reported once
// on the first call (by then MPI is up, so rank 0 is known).
const LbChoice& lb_choice() noexcept;

// While alive, the PDGEMM of these arguments is in progress on this
// thread: pilaenv_ serves it the lb capped at its k, grid and block along
// k (lb_for_call). Nests (an outer PDGEMM is restored).
class PdgemmInProgress {
 public:
  PdgemmInProgress(const char* transa, const int* m, const int* n, const int* k, const int* desca) noexcept;
  ~PdgemmInProgress();
  PdgemmInProgress(const PdgemmInProgress&) = delete;
  PdgemmInProgress& operator=(const PdgemmInProgress&) = delete;

 private:
  std::int64_t k_;
  int pr_, pc_, nb_;
  std::int64_t length_;
};

// An lb that overrides the configuration while > 0 (mmbench's own PDGEMM
// plan asks for one: algos/pilaenv_override.hpp); 0 = none.
void set_lb_override(int lb) noexcept;
int lb_override() noexcept;

}  // namespace mmbench::preload
