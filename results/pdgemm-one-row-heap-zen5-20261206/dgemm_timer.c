// LD_PRELOAD interposer: sums the time and flops of every dgemm_ call, so that a
// program can say how much of a PDGEMM was local DGEMM (dgemm_timer_report).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <mpi.h>
typedef void (*dgemm_t)(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                        const int*, const double*, const int*, const double*, double*, const int*);
static double total = 0; static long calls = 0; static double kflops = 0;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const double* al, const double* a,
            const int* lda, const double* b, const int* ldb, const double* be, double* c, const int* ldc) {
  static dgemm_t real = 0;
  if (!real) real = (dgemm_t)dlsym(RTLD_NEXT, "dgemm_");
  double t0 = now();
  real(ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
  total += now() - t0; calls++; kflops += 2.0 * *m * *n * *k;
}
void dgemm_timer_reset(void) { total = 0; calls = 0; kflops = 0; }
void dgemm_timer_report(const char* tag) {
  int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
  fprintf(stderr, "rank %d %s: dgemm %ld calls, %.4f s, %.1f GFLOP/s\n", r, tag, calls, total, kflops / total * 1e-9);
}
