/* After each PDGEMM call, every rank times a one-thread 512^3 DGEMM of its own (as a program's
 * next local step would). Variant E ("ended") calls OpenBLAS's blas_thread_shutdown_ right after
 * PDGEMM, variant S ("spinning") does not; they alternate call by call.
 *   mpirun -n 2 [-x LD_PRELOAD=libmmbench-dispatch.so -x MMBENCH_DISPATCH_FORCE=ring/2] ./neighbour N REPS */
#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
void Cblacs_get(int, int, int*); void Cblacs_gridinit(int*, const char*, int, int);
void Cblacs_gridinfo(int, int*, int*, int*, int*); void Cblacs_gridexit(int);
int numroc_(const int*, const int*, const int*, const int*, const int*);
void descinit_(int*, const int*, const int*, const int*, const int*, const int*, const int*, const int*, const int*, int*);
void pdgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*, const int*,
             const int*, const int*, const double*, const int*, const int*, const int*, const double*, double*,
             const int*, const int*, const int*);
void blas_thread_shutdown_(void);
static int cmp(const void* a, const void* b) { double x = *(double*)a, y = *(double*)b; return (x > y) - (x < y); }
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int n = atoi(argv[1]), reps = atoi(argv[2]), rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ctx, nprow = 1, npcol = size, myr, myc, zero = 0, one = 1, nb = 64, info;
  Cblacs_get(-1, 0, &ctx); Cblacs_gridinit(&ctx, "R", nprow, npcol); Cblacs_gridinfo(ctx, &nprow, &npcol, &myr, &myc);
  int lr = numroc_(&n, &nb, &myr, &zero, &nprow), lc = numroc_(&n, &nb, &myc, &zero, &npcol), ld = lr > 1 ? lr : 1;
  int desc[9]; descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctx, &ld, &info);
  double *A = malloc(8.0 * lr * lc), *B = malloc(8.0 * lr * lc), *C = malloc(8.0 * lr * lc);
  for (long i = 0; i < (long)lr * lc; i++) { A[i] = (i % 13) * 0.1; B[i] = (i % 7) * 0.2; C[i] = 0; }
  const int m = 512; double *a = malloc(8.0 * m * m), *b = malloc(8.0 * m * m), *c = malloc(8.0 * m * m);
  for (int i = 0; i < m * m; i++) { a[i] = 1; b[i] = 1; }
  double alpha = 1, beta = 0, *t[2]; t[0] = malloc(8.0 * reps); t[1] = malloc(8.0 * reps); int cnt[2] = {0, 0}; double spin[2] = {0, 0};
  for (int r = 0; r < 2 * reps + 2; r++) {
    int v = r % 2;  /* 0 = spinning, 1 = ended */
    MPI_Barrier(MPI_COMM_WORLD);
    pdgemm_("N", "N", &n, &n, &n, &alpha, A, &one, &one, desc, B, &one, &one, desc, &beta, C, &one, &one, desc);
    if (v == 1) blas_thread_shutdown_();
    double t0 = MPI_Wtime();
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1, a, m, b, m, 0, c, m);
    double dt = MPI_Wtime() - t0;
    if (r >= 2) t[v][cnt[v]++] = dt;
    /* let the workers time out before the next call, so every call starts alike */
    MPI_Barrier(MPI_COMM_WORLD);
    struct timespec c0, c1; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    struct timespec ts = {0, 300000000}; nanosleep(&ts, 0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    if (r >= 2) spin[v] += (c1.tv_sec - c0.tv_sec) + 1e-9 * (c1.tv_nsec - c0.tv_nsec);
  }
  for (int v = 0; v < 2; v++) qsort(t[v], cnt[v], 8, cmp);
  for (int q = 0; q < size; q++) {
    if (q == rank)
      printf("rank %d: 512^3 DGEMM right after PDGEMM: spinning median %.2f ms [%.2f, %.2f], ended median %.2f ms [%.2f, %.2f] (%d calls each); CPU in the 0.3 s after: %.1f / %.1f ms per call\n",
             rank, 1e3 * t[0][cnt[0] / 2], 1e3 * t[0][0], 1e3 * t[0][cnt[0] - 1], 1e3 * t[1][cnt[1] / 2], 1e3 * t[1][0],
             1e3 * t[1][cnt[1] - 1], cnt[0], 1e3 * spin[0] / cnt[0], 1e3 * spin[1] / cnt[1]);
    fflush(stdout); MPI_Barrier(MPI_COMM_WORLD);
  }
  Cblacs_gridexit(ctx); MPI_Finalize();
}
