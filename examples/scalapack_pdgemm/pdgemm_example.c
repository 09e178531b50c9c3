/* pdgemm_example: a plain ScaLAPACK program -- copy it, it knows nothing
 * about mmbench -- that multiplies (or factors) distributed matrices, to
 * run with and without mmbench's preload libraries:
 *
 *   mpirun -n 2 ./pdgemm_example --n 4096                      # ScaLAPACK alone
 *   mpirun -n 2 -x LD_PRELOAD=libmmbench-lb.so -x MMBENCH_PROFILE=configs/vm.json ./pdgemm_example --n 4096
 *   mpirun -n 2 -x LD_PRELOAD=libmmbench-dispatch.so -x MMBENCH_PROFILE=configs/vm.json ./pdgemm_example --n 4096
 *
 * Modes:
 *   (default)  C = A B, n x n, R timed PDGEMM calls; a sample of C's entries
 *              is checked against sums formed here from the same generator,
 *              each within the classical componentwise bound (or --tol
 *              times it, for Strassen members).
 *   --shrink S call r (0, 1, ...) multiplies the leading n - S r square
 *              submatrices instead (a new shape on every call, as a
 *              factorization's trailing updates are); the last call's C is
 *              checked, and gflops counts every call's 2 (n - S r)^3 over
 *              their total time.
 *   --lu       PDGETRF of an n x n diagonally dominant matrix, R times
 *              (a fresh copy each time), then PDGETRS of A x = A 1: x must
 *              be 1 (ScaLAPACK's LU calls PDGEMM for its trailing updates).
 *
 *   mpirun -n P pdgemm_example [--n N] [--nb NB] [--reps R] [--shrink S] [--lu] [--tol T]
 *
 * Block-cyclic nb x nb on the most square BLACS grid. Rank 0 prints one
 * line of key=value pairs: t_median_s and t_min_s are the times of the
 * calls (maximum over ranks), gflops counts 2n^3 (PDGEMM) or 2n^3/3 (LU).
 * The line ends with what a preloaded mmbench library did, looked up with
 * dlsym so that the program runs the same without one: override=yes|no
 * (it served PBLAS's pilaenv_ on every rank), calls (its pilaenv_ calls,
 * minimum over ranks), served (the lb of its last pilaenv_ call), lb (the
 * lb it serves before a per-call cap; "default" without a library) and,
 * with libmmbench-dispatch.so, dispatched=D/C (of C PDGEMM calls, D ran an
 * mmbench member). times_s lists every timed call's time in order.
 * Exit status: 0 = the check passed, 1 = it failed, 2 = bad arguments. */
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* BLACS / ScaLAPACK (Debian ships no C header for them). */
void Cblacs_get(int ictxt, int what, int* val);
void Cblacs_gridinit(int* ictxt, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int ictxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ictxt);
void Cblacs_exit(int cont);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc,
               const int* icsrc, const int* ictxt, const int* lld, int* info);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
             const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
             double* c, const int* ic, const int* jc, const int* descc);
void pdgetrf_(const int* m, const int* n, double* a, const int* ia, const int* ja, const int* desca, int* ipiv,
              int* info);
void pdgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* ia, const int* ja,
              const int* desca, const int* ipiv, double* b, const int* ib, const int* jb, const int* descb,
              int* info);

static int g_rank = 0;

static void mpi_ok(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  fprintf(stderr, "pdgemm_example: rank %d: %s failed: %.*s\n", g_rank, what, len, text);
  MPI_Abort(MPI_COMM_WORLD, 3);
}
#define MPI_OK(call) mpi_ok((call), #call)

/* A reproducible entry in [-0.5, 0.5) of matrix `which` at (i, j), the same on every rank. */
static double entry(long i, long j, unsigned which) {
  uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull + (uint64_t)j * 0xC2B2AE3D27D4EB4Full + which * 0x165667B19E3779F9ull;
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return (double)(x >> 11) / 9007199254740992.0 - 0.5;
}

/* The LU test matrix: random, with n on the diagonal (no pivoting trouble). */
static double lu_entry(long i, long j, long n) { return entry(i, j, 3) + (i == j ? (double)n : 0.0); }

/* Global index of local index l on process coordinate p of np (first block on 0). */
static long global_index(long l, int nb, int p, int np) { return ((l / nb) * np + p) * nb + l % nb; }

static int parse_long(const char* s, long max, long* out) {
  char* end = NULL;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1 || v > max) return 0;
  *out = v;
  return 1;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* A function of a preloaded library, or NULL without it (object to function
 * pointer, as POSIX allows). */
static void* library_function(const char* name) { return dlsym(RTLD_DEFAULT, name); }

static void* alloc(size_t count) {
  void* p = calloc(count ? count : 1, sizeof(double));
  if (!p) {
    fprintf(stderr, "pdgemm_example: rank %d: out of memory\n", g_rank);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return p;
}

int main(int argc, char** argv) {
  MPI_OK(MPI_Init(&argc, &argv));
  int p = 1;
  MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
  MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &p));

  long n = 1024, reps = 3, nb = 64, shrink = 0;
  int lu = 0;
  double tol = 1.0;
  for (int a = 1; a < argc; ++a) {
    if (strcmp(argv[a], "--lu") == 0) {
      lu = 1;
      continue;
    }
    if (strcmp(argv[a], "--tol") == 0 && a + 1 < argc) {
      char* end = NULL;
      tol = strtod(argv[++a], &end);
      if (*end == '\0' && tol >= 1.0 && tol <= 1e6) continue;
    } else {
      long* target = strcmp(argv[a], "--n") == 0      ? &n
                     : strcmp(argv[a], "--reps") == 0 ? &reps
                     : strcmp(argv[a], "--nb") == 0   ? &nb
                     : strcmp(argv[a], "--shrink") == 0 ? &shrink
                                                      : NULL;
      if (target != NULL && a + 1 < argc && parse_long(argv[a + 1], 1L << 20, target)) {
        ++a;
        continue;
      }
    }
    if (g_rank == 0)
      fprintf(stderr,
              "pdgemm_example: bad argument '%s' (usage: pdgemm_example [--n N] [--nb NB] [--reps R] [--shrink S] "
              "[--lu] [--tol T >= 1])\n",
              argv[a]);
    MPI_OK(MPI_Finalize());
    return 2;
  }
  if (n - shrink * (reps - 1) < 1 || (shrink > 0 && lu)) {
    if (g_rank == 0)
      fprintf(stderr, "pdgemm_example: --shrink %ld with --n %ld --reps %ld: the last call's n must be >= 1, and "
              "--shrink does not go with --lu\n", shrink, n, reps);
    MPI_OK(MPI_Finalize());
    return 2;
  }
  const long n_last = n - shrink * (reps - 1);

  int pr = 1; /* the most square grid pr x pc, pr <= pc */
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0) pr = d;
  const int pc = p / pr;
  int ctxt = 0, rows = 0, cols = 0, myrow = -1, mycol = -1;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "R", pr, pc);
  Cblacs_gridinfo(ctxt, &rows, &cols, &myrow, &mycol);

  const int ni = (int)n, nbi = (int)nb, zero = 0, ione = 1;
  const int mloc = numroc_(&ni, &nbi, &myrow, &zero, &pr);
  const int nloc = numroc_(&ni, &nbi, &mycol, &zero, &pc);
  const int lld = mloc > 1 ? mloc : 1;
  int desc[9], info = 0;
  descinit_(desc, &ni, &ni, &nbi, &nbi, &zero, &zero, &ctxt, &lld, &info);
  const size_t local = (size_t)mloc * (size_t)nloc;
  double* times = alloc((size_t)reps);
  long checked = 0, wrong = 0;
  double max_err = 0.0;

  if (!lu) {
    double* A = alloc(local);
    double* B = alloc(local);
    double* C = alloc(local);
    for (long j = 0; j < nloc; ++j)
      for (long i = 0; i < mloc; ++i) {
        const long gi = global_index(i, nbi, myrow, pr), gj = global_index(j, nbi, mycol, pc);
        A[i + j * lld] = entry(gi, gj, 1);
        B[i + j * lld] = entry(gi, gj, 2);
      }
    const double one = 1.0, beta = 0.0;
    for (long r = 0; r < reps; ++r) {
      const int nr = (int)(n - shrink * r);
      MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
      const double t0 = MPI_Wtime();
      pdgemm_("N", "N", &nr, &nr, &nr, &one, A, &ione, &ione, desc, B, &ione, &ione, desc, &beta, C, &ione, &ione,
              desc);
      const double mine = MPI_Wtime() - t0;
      MPI_OK(MPI_Allreduce(&mine, &times[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    }
    /* About 2000 entries per rank of the last call's C, each against its
     * sum over k with the componentwise bound 2 n eps sum |a||b| (Higham,
     * Thm. 3.5), times tol. */
    long stride = (long)local / 2000 + 1;
    for (long at = 0; at < (long)local; at += stride) {
      const long i = at % mloc, j = at / mloc;
      const long gi = global_index(i, nbi, myrow, pr), gj = global_index(j, nbi, mycol, pc);
      if (gi >= n_last || gj >= n_last) continue;
      double ref = 0.0, size = 0.0;
      for (long k = 0; k < n_last; ++k) {
        const double t = entry(gi, k, 1) * entry(k, gj, 2);
        ref += t;
        size += fabs(t);
      }
      const double err = fabs(C[i + j * lld] - ref) / (2.0 * (double)n_last * DBL_EPSILON * size + DBL_MIN);
      if (err > max_err) max_err = err;
      ++checked;
      if (!(err <= tol)) ++wrong;
    }
    free(A);
    free(B);
    free(C);
  } else {
    double* A0 = alloc(local);
    double* A = alloc(local);
    int* ipiv = calloc((size_t)mloc + (size_t)nbi, sizeof *ipiv);
    if (!ipiv) MPI_Abort(MPI_COMM_WORLD, 3);
    for (long j = 0; j < nloc; ++j)
      for (long i = 0; i < mloc; ++i)
        A0[i + j * lld] = lu_entry(global_index(i, nbi, myrow, pr), global_index(j, nbi, mycol, pc), n);
    for (long r = 0; r < reps; ++r) {
      memcpy(A, A0, local * sizeof *A);
      MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
      const double t0 = MPI_Wtime();
      pdgetrf_(&ni, &ni, A, &ione, &ione, desc, ipiv, &info);
      const double mine = MPI_Wtime() - t0;
      MPI_OK(MPI_Allreduce(&mine, &times[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
      if (info != 0) {
        if (g_rank == 0) fprintf(stderr, "pdgemm_example: PDGETRF info = %d\n", info);
        ++wrong;
      }
    }
    /* b = A 1 (row sums), one column on the grid's first process column. */
    int bdesc[9];
    const int bloc = mloc > 1 ? mloc : 1;
    descinit_(bdesc, &ni, &ione, &nbi, &nbi, &zero, &zero, &ctxt, &bloc, &info);
    double* b = alloc((size_t)bloc);
    if (mycol == 0)
      for (long i = 0; i < mloc; ++i) {
        const long gi = global_index(i, nbi, myrow, pr);
        double s = 0.0;
        for (long j = 0; j < n; ++j) s += lu_entry(gi, j, n);
        b[i] = s;
      }
    pdgetrs_("N", &ni, &ione, A, &ione, &ione, desc, ipiv, b, &ione, &ione, bdesc, &info);
    if (mycol == 0)
      for (long i = 0; i < mloc; ++i) {
        const double err = fabs(b[i] - 1.0);
        if (err > max_err) max_err = err;
        ++checked;
        if (!(err <= 1e-8 * tol)) ++wrong;
      }
    free(A0);
    free(A);
    free(ipiv);
    free(b);
  }

  long counts[2] = {checked, wrong}, totals[2] = {0, 0};
  MPI_OK(MPI_Allreduce(counts, totals, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  double worst = 0.0;
  MPI_OK(MPI_Allreduce(&max_err, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));

  /* What a preloaded mmbench library did (nothing without one). */
  long (*lb_calls)(void) = NULL, (*d_calls)(void) = NULL, (*d_dispatched)(void) = NULL;
  int (*lb_value)(void) = NULL, (*lb_last)(void) = NULL;
  void* f = library_function("mmbench_lb_calls");
  memcpy(&lb_calls, &f, sizeof f);
  f = library_function("mmbench_lb_value");
  memcpy(&lb_value, &f, sizeof f);
  f = library_function("mmbench_lb_last");
  memcpy(&lb_last, &f, sizeof f);
  f = library_function("mmbench_dispatch_calls");
  memcpy(&d_calls, &f, sizeof f);
  f = library_function("mmbench_dispatch_dispatched");
  memcpy(&d_dispatched, &f, sizeof f);
  long calls = lb_calls ? lb_calls() : 0, min_calls = 0;
  MPI_OK(MPI_Allreduce(&calls, &min_calls, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD));
  if (g_rank == 0) {
    /* Every call's time in call order (the first pays what a library prepares). */
    char* in_order = alloc((size_t)reps * 3); /* 24 bytes a call */
    for (long r = 0, at = 0; r < reps; ++r)
      at += snprintf(in_order + at, 16, "%s%.6g", r ? "," : "", times[r]);
    double total_time = 0.0, total_flops = 0.0;
    for (long r = 0; r < reps; ++r) {
      const double nr = (double)(n - shrink * r);
      total_time += times[r];
      total_flops += 2.0 * nr * nr * nr;
    }
    qsort(times, (size_t)reps, sizeof *times, compare_doubles);
    const double median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
    const double gflops = lu ? 2.0 / 3.0 * (double)n * (double)n * (double)n / median / 1e9
                         : shrink > 0 ? total_flops / total_time / 1e9
                                      : 2.0 * (double)n * (double)n * (double)n / median / 1e9;
    char lb[32] = "default", served[32] = "default", dispatched[64] = "";
    if (lb_value) snprintf(lb, sizeof lb, "%d", lb_value());
    if (lb_last) snprintf(served, sizeof served, "%d", lb_last());
    if (d_calls && d_dispatched) snprintf(dispatched, sizeof dispatched, " dispatched=%ld/%ld", d_dispatched(), d_calls());
    printf("pdgemm_example mode=%s n=%ld p=%d grid=%dx%d nb=%ld reps=%ld shrink=%ld t_min_s=%.6g t_median_s=%.6g "
           "gflops=%.3f times_s=%s checked=%ld wrong=%ld max_err=%.3g override=%s calls=%ld served=%s%s lb=%s\n",
           lu ? "lu" : "pdgemm", n, p, pr, pc, nb, reps, shrink, times[0], median, gflops, in_order,
           totals[0], totals[1], worst, lb_calls && min_calls > 0 ? "yes" : "no", min_calls, served, dispatched, lb);
    free(in_order);
    if (totals[1] > 0) fprintf(stderr, "pdgemm_example: WRONG: %ld of %ld checks failed\n", totals[1], totals[0]);
    fflush(stdout);
  }
  free(times);
  Cblacs_gridexit(ctxt);
  Cblacs_exit(1); /* 1: MPI stays up for MPI_Finalize below */
  MPI_OK(MPI_Finalize());
  return totals[1] > 0 ? 1 : 0;
}
