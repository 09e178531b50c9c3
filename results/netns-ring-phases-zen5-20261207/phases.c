/* Where a ring multiply's time goes on two ranks, written apart from
 * mmbench: ring's pattern at size N on 2 ranks without overlap -- step 0
 * multiplies the own B block (C(R_i, C_i) = A(R_i, :) B_i: N/2 x N/2 x N),
 * then the two ranks swap their B blocks (8 N^2 / 2 bytes each way,
 * MPI_Sendrecv), step 1 multiplies the received one. Each part is timed on
 * every rank between barriers (the slowest rank's time), ROUNDS rounds after
 * one warm-up; prints the medians, the DGEMM rate and the swap's rate each way.
 * SPIN = 1 replaces each DGEMM after the warm-up by a busy wait of the
 * warm-up DGEMM's time (no memory touched): does the swap's rate depend on
 * what ran before it?
 *   mpicc -O2 phases.c -o phases -lopenblas && mpirun -n 2 ./phases [N [ROUNDS [SPIN]]] */
#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}
static double median(double* v, int n) {
  qsort(v, n, sizeof(double), cmp);
  return v[n / 2];
}
/* Spin for s seconds without an MPI call or a memory access. */
static void spin(double s) {
  const double end = MPI_Wtime() + s;
  while (MPI_Wtime() < end) {
  }
}
static double slowest(double t) {
  double m;
  MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p != 2) {
    if (me == 0) fprintf(stderr, "phases: run on 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const long n = argc > 1 ? atol(argv[1]) : 4096, h = n / 2;
  const int rounds = argc > 2 ? atoi(argv[2]) : 5, other = 1 - me, spin_only = argc > 3 ? atoi(argv[3]) : 0;
  double warm = 0; /* the warm-up's first DGEMM, this rank */
  double* A = malloc(sizeof(double) * h * n);     /* h x n, ld h */
  double* B[2] = {malloc(sizeof(double) * n * h), malloc(sizeof(double) * n * h)}; /* n x h, ld n */
  double* C = malloc(sizeof(double) * h * n);     /* h x n, ld h */
  for (long i = 0; i < h * n; ++i) A[i] = 1.0 / (1 + i % 7), C[i] = 0, B[0][i] = 1.0 / (1 + i % 5), B[1][i] = 0;
  double t_d0[64], t_x[64], t_d1[64], t_all[64];
  for (int r = -1; r < rounds && r < 64; ++r) {
    double t, t0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    t = MPI_Wtime();
    if (spin_only && r >= 0) spin(warm);
    else cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, h, h, n, 1.0, A, h, B[0], n, 0.0, C + h * h * me, h);
    if (r < 0) warm = MPI_Wtime() - t;
    const double d0 = slowest(MPI_Wtime() - t);
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    MPI_Sendrecv(B[0], (int)(n * h), MPI_DOUBLE, other, 1, B[1], (int)(n * h), MPI_DOUBLE, other, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    const double x = slowest(MPI_Wtime() - t);
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    if (spin_only && r >= 0) spin(warm);
    else cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, h, h, n, 1.0, A, h, B[1], n, 0.0, C + h * h * other, h);
    const double d1 = slowest(MPI_Wtime() - t);
    const double all = slowest(MPI_Wtime() - t0);
    if (r >= 0) t_d0[r] = d0, t_x[r] = x, t_d1[r] = d1, t_all[r] = all;
  }
  if (me == 0) {
    const double flops = 2.0 * h * h * n, bytes = 8.0 * n * h;
    const double d0 = median(t_d0, rounds), x = median(t_x, rounds), d1 = median(t_d1, rounds),
                 all = median(t_all, rounds);
    printf("%s", spin_only ? "SPIN (each DGEMM after the warm-up a busy wait of its time) " : "");
    printf("n %ld, %d rounds (medians of the slowest rank): DGEMM %ldx%ldx%ld own block %.4f s (%.1f GFLOP/s), "
           "received block %.4f s (%.1f GFLOP/s); swap of %.1f MB each way %.4f s (%.1f MB/s each way); "
           "all %.4f s\n",
           n, rounds, h, h, n, d0, flops / d0 / 1e9, d1, flops / d1 / 1e9, bytes / 1e6, x, bytes / x / 1e6, all);
  }
  MPI_Finalize();
  return 0;
}
