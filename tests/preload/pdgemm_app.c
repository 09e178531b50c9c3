/* pdgemm_app: a plain ScaLAPACK program that knows nothing about mmbench
 * (linked only against ScaLAPACK and MPI), to test and measure
 * libmmbench-lb.so from the outside, as a user's program would meet it.
 *
 *   mpirun -n P pdgemm_app [--n N] [--reps R] [--nb NB]
 *
 * C = A * B with n x n matrices, block-cyclic nb x nb on the most square
 * BLACS grid; R timed PDGEMM calls (maximum over ranks each). Entries of C
 * are checked against sums computed here from the same generator (all of
 * them for small n, an even sample for large n). Rank 0 prints one line of
 * key=value pairs on stdout, among them whether libmmbench-lb.so served
 * PBLAS's pilaenv_ (looked up with dlsym, so the program also runs without
 * it): override=yes|no, calls (minimum over ranks), served (the lb its
 * last pilaenv_ call returned: a profile's lb after the cap for this
 * PDGEMM) and lb (what it serves before any cap).
 * Exit status: 0 = C is right, 1 = C is wrong, 2 = bad arguments. */
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

/* Generator calls the check of C may make per rank (2n per entry): all
 * entries for small n, an even sample for large n. */
#define CHECK_BUDGET 40000000L

static int g_rank = 0;

/* Every MPI call is checked; a failure stops the job with its name. */
static void mpi_ok(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  fprintf(stderr, "pdgemm_app: rank %d: %s failed: %.*s\n", g_rank, what, len, text);
  MPI_Abort(MPI_COMM_WORLD, 3);
}
#define MPI_OK(call) mpi_ok((call), #call)

/* A reproducible entry in [-0.5, 0.5) of matrix `which` at (i, j) (a
 * splitmix64 step of the position), the same on every rank. */
static double entry(long i, long j, unsigned which) {
  uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull + (uint64_t)j * 0xC2B2AE3D27D4EB4Full + which * 0x165667B19E3779F9ull;
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return (double)(x >> 11) / 9007199254740992.0 - 0.5;
}

/* Global index of local index l on process coordinate p of np (block-cyclic, first block on 0). */
static long global_index(long l, int nb, int p, int np) { return ((l / nb) * np + p) * nb + l % nb; }

static int parse_positive(const char* s, long max, long* out) {
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

int main(int argc, char** argv) {
  MPI_OK(MPI_Init(&argc, &argv));
  int p = 1;
  MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
  MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &p));

  long n = 300, reps = 1, nb = 64;
  for (int a = 1; a < argc; ++a) {
    long* target = strcmp(argv[a], "--n") == 0      ? &n
                   : strcmp(argv[a], "--reps") == 0 ? &reps
                   : strcmp(argv[a], "--nb") == 0   ? &nb
                                                    : NULL;
    if (target == NULL || a + 1 >= argc || !parse_positive(argv[a + 1], 1L << 20, target)) {
      if (g_rank == 0)
        fprintf(stderr, "pdgemm_app: bad argument '%s' (usage: pdgemm_app [--n N] [--reps R] [--nb NB])\n", argv[a]);
      MPI_OK(MPI_Finalize());
      return 2;
    }
    ++a;
  }

  /* The most square grid pr x pc, pr <= pc. */
  int pr = 1;
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0) pr = d;
  const int pc = p / pr;
  int ctxt = 0, rows = 0, cols = 0, myrow = -1, mycol = -1;
  Cblacs_get(-1, 0, &ctxt); /* the system context of MPI_COMM_WORLD */
  Cblacs_gridinit(&ctxt, "R", pr, pc);
  Cblacs_gridinfo(ctxt, &rows, &cols, &myrow, &mycol);
  if (rows != pr || cols != pc || myrow < 0 || mycol < 0) {
    fprintf(stderr, "pdgemm_app: rank %d: no place in the %dx%d BLACS grid\n", g_rank, pr, pc);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }

  const int ni = (int)n, nbi = (int)nb, zero = 0;
  const int mloc = numroc_(&ni, &nbi, &myrow, &zero, &pr);
  const int nloc = numroc_(&ni, &nbi, &mycol, &zero, &pc);
  const int lld = mloc > 1 ? mloc : 1;
  int desc[9], info = 0;
  descinit_(desc, &ni, &ni, &nbi, &nbi, &zero, &zero, &ctxt, &lld, &info);
  if (info != 0) {
    fprintf(stderr, "pdgemm_app: rank %d: descinit failed, info = %d\n", g_rank, info);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  const size_t local = (size_t)mloc * (size_t)nloc;
  double* A = malloc((local ? local : 1) * sizeof *A);
  double* B = malloc((local ? local : 1) * sizeof *B);
  double* C = calloc(local ? local : 1, sizeof *C);
  double* times = malloc((size_t)reps * sizeof *times);
  if (!A || !B || !C || !times) {
    fprintf(stderr, "pdgemm_app: rank %d: out of memory for n = %ld\n", g_rank, n);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  for (long j = 0; j < nloc; ++j)
    for (long i = 0; i < mloc; ++i) {
      const long gi = global_index(i, nbi, myrow, pr), gj = global_index(j, nbi, mycol, pc);
      A[i + j * lld] = entry(gi, gj, 1);
      B[i + j * lld] = entry(gi, gj, 2);
    }

  const double one = 1.0, beta = 0.0;
  const int ione = 1;
  for (long r = 0; r < reps; ++r) {
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    const double t0 = MPI_Wtime();
    pdgemm_("N", "N", &ni, &ni, &ni, &one, A, &ione, &ione, desc, B, &ione, &ione, desc, &beta, C, &ione, &ione, desc);
    const double mine = MPI_Wtime() - t0;
    MPI_OK(MPI_Allreduce(&mine, &times[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  }

  /* Check C(i, j) against the sum over k, with the componentwise bound of
   * both sums (each within n eps sum |a||b|, Higham Thm. 3.5). */
  long checked = 0, wrong = 0;
  long max_checked = CHECK_BUDGET / (2 * n);
  if (max_checked < 1000) max_checked = 1000;
  long stride = ((long)local + max_checked - 1) / max_checked;
  if (stride < 1) stride = 1;
  for (long at = 0; at < (long)local; at += stride) {
    const long i = at % mloc, j = at / mloc;
    const long gi = global_index(i, nbi, myrow, pr), gj = global_index(j, nbi, mycol, pc);
    double ref = 0.0, size = 0.0;
    for (long k = 0; k < n; ++k) {
      const double t = entry(gi, k, 1) * entry(k, gj, 2);
      ref += t;
      size += fabs(t);
    }
    ++checked;
    if (!(fabs(C[i + j * lld] - ref) <= 2.0 * (double)n * DBL_EPSILON * size + DBL_MIN)) ++wrong;
  }
  long counts[2] = {checked, wrong}, totals[2] = {0, 0};
  MPI_OK(MPI_Allreduce(counts, totals, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));

  /* Did libmmbench-lb.so serve pilaenv_? Only if it is there. */
  long (*calls_fn)(void) = NULL;
  int (*lb_fn)(void) = NULL;
  int (*last_fn)(void) = NULL;
  void* sym = dlsym(RTLD_DEFAULT, "mmbench_lb_calls");
  memcpy(&calls_fn, &sym, sizeof sym); /* object to function pointer, as POSIX allows */
  sym = dlsym(RTLD_DEFAULT, "mmbench_lb_value");
  memcpy(&lb_fn, &sym, sizeof sym);
  sym = dlsym(RTLD_DEFAULT, "mmbench_lb_last");
  memcpy(&last_fn, &sym, sizeof sym);
  long calls = calls_fn ? calls_fn() : 0, min_calls = 0;
  MPI_OK(MPI_Allreduce(&calls, &min_calls, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD));

  if (g_rank == 0) {
    qsort(times, (size_t)reps, sizeof *times, compare_doubles);
    const double median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
    const double gflops = 2.0 * (double)n * (double)n * (double)n / median / 1e9;
    char lb[32] = "default", served[32] = "default";
    if (lb_fn) snprintf(lb, sizeof lb, "%d", lb_fn());
    if (last_fn) snprintf(served, sizeof served, "%d", last_fn());
    printf("pdgemm_app n=%ld p=%d grid=%dx%d nb=%ld reps=%ld t_min_s=%.6g t_median_s=%.6g gflops=%.3f "
           "checked=%ld wrong=%ld override=%s calls=%ld served=%s lb=%s\n",
           n, p, pr, pc, nb, reps, times[0], median, gflops, totals[0], totals[1],
           calls_fn && min_calls > 0 ? "yes" : "no", min_calls, served, lb);
    if (totals[1] > 0)
      fprintf(stderr, "pdgemm_app: WRONG: %ld of %ld checked entries of C differ from the reference\n", totals[1],
              totals[0]);
    fflush(stdout);
  }
  free(A);
  free(B);
  free(C);
  free(times);
  Cblacs_gridexit(ctxt);
  Cblacs_exit(1); /* 1: MPI stays up for MPI_Finalize below */
  MPI_OK(MPI_Finalize());
  return totals[1] > 0 ? 1 : 0;
}
