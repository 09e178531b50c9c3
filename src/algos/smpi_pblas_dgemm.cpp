// The DGEMM that PBLAS calls, in an SMPI build with ScaLAPACK compiled for
// it (cmake/ScalapackForSmpi.cmake). PBLAS multiplies its panels through
// the Fortran dgemm_; this definition, linked into the executable, comes
// before OpenBLAS's, so that a simulated PDGEMM's local work is priced like
// every other algorithm's:
//  - charged simulation: the call is charged (sim::charge_dgemm: the
//    profile's DGEMM price for m x n x k, or the platform's host speed) and
//    not computed, as mmbench's own local multiplies are;
//  - real computation: OpenBLAS computes it (cblas_dgemm, which does not
//    come back here) and SMPI times the host.
// PBLAS's other local work (packing panels, copies) is not charged: the
// simulation of PDGEMM leaves it out.
#include <cblas.h>

#include "core/simulation.hpp"

namespace {
CBLAS_TRANSPOSE trans(const char* t) {
  return (*t == 'N' || *t == 'n') ? CblasNoTrans : (*t == 'C' || *t == 'c') ? CblasConjTrans : CblasTrans;
}
}  // namespace

// gfortran's hidden string lengths follow the 13 arguments; they are not read.
extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                       const double* beta, double* c, const int* ldc) {
  if (mmbench::sim::charged()) {
    if (*alpha != 0.0) mmbench::sim::charge_dgemm(*m, *n, *k);
    return;
  }
  cblas_dgemm(CblasColMajor, trans(transa), trans(transb), *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}
