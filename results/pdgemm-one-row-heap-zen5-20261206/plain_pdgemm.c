// A plain ScaLAPACK program, apart from mmbench: PDGEMM m x n x k on a pr x pc grid,
// nb 64, panel width LB from its own pilaenv_; prints the time per call (2 untimed
// calls first) and, with libdgemm_timer.so preloaded, the time PDGEMM spent in dgemm_.
//   plain_pdgemm M N K LB REPS [PR PC]
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int LB = 32;
int pilaenv_(int* ictxt, char* prec) { (void)ictxt; (void)prec; return LB; }
extern void Cblacs_get(int, int, int*); extern void Cblacs_gridinit(int*, const char*, int, int);
extern void Cblacs_gridinfo(int, int*, int*, int*, int*); extern int numroc_(int*, int*, int*, int*, int*);
extern void descinit_(int*, int*, int*, int*, int*, int*, int*, int*, int*, int*);
extern void pdgemm_(char*, char*, int*, int*, int*, double*, double*, int*, int*, int*, double*, int*, int*, int*,
                    double*, double*, int*, int*, int*);
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int m = atoi(argv[1]), n = atoi(argv[2]), kk = atoi(argv[3]); LB = atoi(argv[4]); int reps = atoi(argv[5]);
  int PR = argc > 6 ? atoi(argv[6]) : 1, PC = argc > 7 ? atoi(argv[7]) : 2;
  int nb = 64, ctx, nr, nc, r, c, zero = 0, info;
  Cblacs_get(0, 0, &ctx); Cblacs_gridinit(&ctx, "R", PR, PC); Cblacs_gridinfo(ctx, &nr, &nc, &r, &c);
  int dA[9], dB[9], dC[9];
  double *A, *B, *C;
#define MAT(D, P, R_, C_, v) { int lr = numroc_(&R_, &nb, &r, &zero, &nr), lc = numroc_(&C_, &nb, &c, &zero, &nc); \
    int lld = lr > 1 ? lr : 1; descinit_(D, &R_, &C_, &nb, &nb, &zero, &zero, &ctx, &lld, &info); \
    P = malloc(8.0 * lld * (lc > 0 ? lc : 1)); for (long i = 0; i < (long)lr * lc; ++i) P[i] = (i % 7) * v; }
  MAT(dA, A, m, kk, 0.1) MAT(dB, B, kk, n, 0.2) MAT(dC, C, m, n, 0.0)
  void (*reset)(void) = dlsym(RTLD_DEFAULT, "dgemm_timer_reset");
  void (*report)(const char*) = dlsym(RTLD_DEFAULT, "dgemm_timer_report");
  double one = 1, zer = 0; int i1 = 1; char N = 'N';
  for (int w = 0; w < 2; ++w) pdgemm_(&N, &N, &m, &n, &kk, &one, A, &i1, &i1, dA, B, &i1, &i1, dB, &zer, C, &i1, &i1, dC);
  if (reset) reset();
  double best = 1e9, sum = 0;
  for (int k = 0; k < reps; ++k) {
    MPI_Barrier(MPI_COMM_WORLD); double t0 = MPI_Wtime();
    pdgemm_(&N, &N, &m, &n, &kk, &one, A, &i1, &i1, dA, B, &i1, &i1, dB, &zer, C, &i1, &i1, dC);
    double t = MPI_Wtime() - t0, tm; MPI_Allreduce(&t, &tm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    sum += tm; if (tm < best) best = tm;
  }
  char tag[200]; snprintf(tag, sizeof tag, "m=%d n=%d k=%d grid %dx%d lb=%d per-call mean %.4f min %.4f", m, n, kk, PR, PC, LB, sum / reps, best);
  if (report) { /* per call */ report(tag); }
  MPI_Finalize();
}
