// What the dispatcher's test programs share: plain BLACS/ScaLAPACK
// declarations, block-cyclic operands with random contents, ScaLAPACK's own
// PDGEMM as the reference, and the check of one call. Nothing of mmbench is
// included: these programs see libmmbench-dispatch.so only as a user's
// program does, through the dynamic linker.
//
// The check of one call (check_call), on every process of MPI_COMM_WORLD
// (those outside the call's grid take part in the reductions only):
//   - inside sub(C): |C - C_ref| <= 2 growth (k + 2) u scale, where scale is
//     the classical componentwise one, |alpha| |op(A)| |op(B)| + |beta| |C|
//     (computed with ScaLAPACK on |A|, |B|), or for a Strassen member
//     (growth > 1) its maximum over sub(C) (a normwise bound);
//   - alpha = 0 or K = 0 (A and B are not to be read; they may hold NaN):
//     sub(C) bit for bit as ScaLAPACK leaves it;
//   - every element of C outside sub(C) (the LLD padding too), and A and B,
//     bit for bit as before;
//   - a second call with the same arguments on another copy of C gives the
//     same bits (the cached decision, plan and exchange schedules);
//   - (result) the dispatcher's C, for a caller that compares it with a
//     later call's.
#pragma once

#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

extern "C" {
void Cblacs_get(int ictxt, int what, int* val);
void Cblacs_gridinit(int* ictxt, const char* order, int nprow, int npcol);
void Cblacs_gridmap(int* ictxt, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int ictxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ictxt);
void Cblacs_exit(int cont);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
}

namespace pdgemm_check {

using PdgemmFn = decltype(&pdgemm_);

template <class Fn>
Fn lookup(void* handle, const char* name) {
  void* s = dlsym(handle, name);
  Fn f = nullptr;
  std::memcpy(&f, &s, sizeof s);
  return f;
}

// ScaLAPACK's own pdgemm_: the definition inside the library that defines
// numroc_, not the first one in the process (the preloaded dispatcher).
inline PdgemmFn scalapack_pdgemm() {
  Dl_info info{};
  void* numroc = nullptr;
  auto fn = &numroc_;
  std::memcpy(&numroc, &fn, sizeof numroc);
  if (dladdr(numroc, &info) == 0 || info.dli_fname == nullptr) return nullptr;
  void* lib = dlopen(info.dli_fname, RTLD_NOLOAD | RTLD_LAZY);
  return lib == nullptr ? nullptr : lookup<PdgemmFn>(lib, "pdgemm_");
}

// A BLACS grid as this process sees it; in() is false outside it.
struct Grid {
  int ctxt = -1, pr = 0, pc = 0, myrow = -1, mycol = -1;
  bool in() const { return ctxt >= 0 && myrow >= 0 && mycol >= 0; }
};

inline Grid grid_info(int ctxt) {
  Grid g;
  g.ctxt = ctxt;
  if (ctxt >= 0) Cblacs_gridinfo(ctxt, &g.pr, &g.pc, &g.myrow, &g.mycol);
  return g;
}

// One operand's global matrix and this process's local array.
struct Matrix {
  int desc[9];
  int lld = 1, loc_rows = 0, loc_cols = 0;
  std::vector<double> data;  // lld x loc_cols
};

inline int numroc(int n, int nb, int p, int src, int np) { return numroc_(&n, &nb, &p, &src, &np); }

// Global index of local index l: block-cyclic with a source process.
inline long global_of(long l, int nb, int p, int src, int np) {
  const int dist = (p - src + np) % np;
  return ((l / nb) * np + dist) * nb + l % nb;
}

// shape: M, N, MB, NB, RSRC, CSRC of the global matrix; pad: LLD - LOCr.
inline Matrix make_matrix(const Grid& g, const std::array<int, 6>& shape, int pad, std::mt19937_64& fill) {
  Matrix x;
  x.loc_rows = numroc(shape[0], shape[2], g.myrow, shape[4], g.pr);
  x.loc_cols = numroc(shape[1], shape[3], g.mycol, shape[5], g.pc);
  x.lld = std::max(1, x.loc_rows) + pad;
  int d[9] = {1, g.ctxt, shape[0], shape[1], shape[2], shape[3], shape[4], shape[5], x.lld};
  std::memcpy(x.desc, d, sizeof d);
  x.data.resize(static_cast<std::size_t>(x.lld) * static_cast<std::size_t>(std::max(1, x.loc_cols)));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& v : x.data) v = u(fill);
  return x;
}

// Every third element NaN or Inf: for operands the call must not read.
inline void poison(Matrix& x) {
  for (std::size_t i = 0; i < x.data.size(); ++i)
    if (i % 3 == 0) x.data[i] = i % 2 ? std::numeric_limits<double>::infinity() : std::nan("");
}

// Is local (i, j) of x inside the submatrix (i0, j0) + rows x cols (0-based)?
inline bool in_sub(const Matrix& x, const Grid& g, long i, long j, long i0, long j0, long rows, long cols) {
  if (i >= x.loc_rows || j >= x.loc_cols) return false;  // LLD padding
  const long gi = global_of(i, x.desc[4], g.myrow, x.desc[6], g.pr);
  const long gj = global_of(j, x.desc[5], g.mycol, x.desc[7], g.pc);
  return gi >= i0 && gi < i0 + rows && gj >= j0 && gj < j0 + cols;
}

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// One PDGEMM's arguments (offsets 0-based).
struct Call {
  char ta = 'N', tb = 'N';
  int m = 0, n = 0, k = 0;
  double alpha = 1, beta = 0;
  int ia = 0, ja = 0, ib = 0, jb = 0, ic = 0, jc = 0;
  std::string text(const Matrix& A, const Matrix& B, const Matrix& C) const {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "%c%c m=%d n=%d k=%d alpha=%g beta=%g A %dx%d mb=%d nb=%d src=%d,%d at %d,%d; "
                  "B %dx%d mb=%d nb=%d src=%d,%d at %d,%d; C %dx%d mb=%d nb=%d src=%d,%d at %d,%d",
                  ta, tb, m, n, k, alpha, beta, A.desc[2], A.desc[3], A.desc[4], A.desc[5], A.desc[6], A.desc[7],
                  ia, ja, B.desc[2], B.desc[3], B.desc[4], B.desc[5], B.desc[6], B.desc[7], ib, jb, C.desc[2],
                  C.desc[3], C.desc[4], C.desc[5], C.desc[6], C.desc[7], ic, jc);
    return buf;
  }
};

inline void call_pdgemm(PdgemmFn f, const Call& c, const Matrix& A, const Matrix& B, Matrix& C, double alpha) {
  const int ia = c.ia + 1, ja = c.ja + 1, ib = c.ib + 1, jb = c.jb + 1, ic = c.ic + 1, jc = c.jc + 1;
  f(&c.ta, &c.tb, &c.m, &c.n, &c.k, &alpha, A.data.data(), &ia, &ja, A.desc, B.data.data(), &ib, &jb, B.desc,
    &c.beta, C.data.data(), &ic, &jc, C.desc);
}

// What one checked call did on this process.
struct Outcome {
  long wrong = 0;       // wrong elements on this process
  long first = -1;      // the first wrong local index
  long checked = 0;     // elements of sub(C) compared
  bool routed[2] = {false, false};  // which of the two calls an mmbench member took, as the library says
  double growth = 1;    // the error growth the library reported for the first call
};

// The library's report of its last call (dlsym: absent without it).
struct Library {
  const char* (*last_choice)() = nullptr;
  double (*last_growth)() = nullptr;
  static Library find() {
    Library l;
    l.last_choice = lookup<const char* (*)()>(RTLD_DEFAULT, "mmbench_dispatch_last_choice");
    l.last_growth = lookup<double (*)()>(RTLD_DEFAULT, "mmbench_dispatch_last_error_growth");
    return l;
  }
  bool dispatched() const { return last_choice != nullptr && std::strncmp(last_choice(), "scalapack", 9) != 0; }
};

// The call twice through pdgemm_ (the dispatcher), against ScaLAPACK's own;
// collective over MPI_COMM_WORLD, whoever is in the grid. max_growth: the
// largest error growth the forced member may claim (a call it reports with
// more fails).
inline Outcome check_call(const Grid& g, const Call& c, const Matrix& A, const Matrix& B, const Matrix& C,
                          double max_growth, PdgemmFn reference, const Library& lib,
                          std::vector<double>* result = nullptr) {
  Outcome out;
  const std::vector<double> a0 = A.data, b0 = B.data;
  Matrix R = C, C1 = C, C2 = C, G = C;
  const bool no_product = c.alpha == 0.0 || c.k == 0;
  if (g.in()) {
    call_pdgemm(reference, c, A, B, R, c.alpha);
    if (!no_product) {
      // |alpha| |op(A)| |op(B)|: the bound's scale, by ScaLAPACK.
      Matrix absA = A, absB = B;
      for (double& v : absA.data) v = std::fabs(v);
      for (double& v : absB.data) v = std::fabs(v);
      Call z = c;
      z.beta = 0.0;
      call_pdgemm(reference, z, absA, absB, G, std::fabs(c.alpha));
    }
    call_pdgemm(&pdgemm_, c, A, B, C1, c.alpha);
    out.routed[0] = lib.dispatched();
    if (lib.last_growth != nullptr && out.routed[0]) out.growth = lib.last_growth();
    call_pdgemm(&pdgemm_, c, A, B, C2, c.alpha);
    out.routed[1] = lib.dispatched();
  }
  double growth = out.growth;
  MPI_Allreduce(MPI_IN_PLACE, &growth, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double scale_max = 0.0;
  const auto scale_at = [&](std::size_t at) { return G.data[at] + (c.beta == 0.0 ? 0.0 : std::fabs(c.beta * C.data[at])); };
  if (g.in() && !no_product)
    for (long j = 0; j < C.loc_cols; ++j)
      for (long i = 0; i < C.loc_rows; ++i)
        if (in_sub(C, g, i, j, c.ic, c.jc, c.m, c.n)) scale_max = std::max(scale_max, scale_at(static_cast<std::size_t>(i + j * C.lld)));
  MPI_Allreduce(MPI_IN_PLACE, &scale_max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (!g.in()) return out;
  const auto bad = [&out](long at) {
    ++out.wrong;
    if (out.first < 0) out.first = at;
  };
  if (growth > max_growth) bad(-2);  // the library claims more error than the member may have
  const double u = DBL_EPSILON / 2, gamma = (c.k + 2) * u;
  for (long j = 0; j < std::max(1, C.loc_cols); ++j)
    for (long i = 0; i < C.lld; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + j * C.lld);
      if (at >= C.data.size()) continue;
      if (!in_sub(C, g, i, j, c.ic, c.jc, c.m, c.n)) {
        if (!same_bits(C1.data[at], C.data[at])) bad(long(at));
        continue;
      }
      ++out.checked;
      if (no_product) {
        if (!same_bits(C1.data[at], R.data[at])) bad(long(at));
        continue;
      }
      const double scale = growth > 1.0 ? scale_max : scale_at(at);
      const double limit = 2.0 * growth * gamma * scale + 1e-300;
      if (!(std::fabs(C1.data[at] - R.data[at]) <= limit)) bad(long(at));
    }
  for (std::size_t i = 0; i < C1.data.size(); ++i)
    if (!same_bits(C1.data[i], C2.data[i])) bad(long(i));
  if (result != nullptr) *result = C1.data;
  for (std::size_t i = 0; i < A.data.size(); ++i)
    if (!same_bits(A.data[i], a0[i])) bad(-3);
  for (std::size_t i = 0; i < B.data.size(); ++i)
    if (!same_bits(B.data[i], b0[i])) bad(-4);
  return out;
}

}  // namespace pdgemm_check
