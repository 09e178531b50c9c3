// libmmbench-lb.so's pdgemm_: ScaLAPACK's, with its k, grid and block along
// k noted for pilaenv_ (lb_service.hpp), so that a profile's lb is capped
// per PDGEMM (core/lb_in_force.hpp). Everything else of the library is
// lb_service.cpp.
#include "preload/lb_service.hpp"

MMBENCH_PRELOAD_EXPORT void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                                    const double* alpha, const double* a, const int* ia, const int* ja,
                                    const int* desca, const double* b, const int* ib, const int* jb,
                                    const int* descb, const double* beta, double* c, const int* ic, const int* jc,
                                    const int* descc) {
  static const mmbench::preload::PdgemmFn next = mmbench::preload::scalapack_pdgemm();
  const mmbench::preload::PdgemmInProgress noted(transa, m, n, k, desca);
  next(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
}
