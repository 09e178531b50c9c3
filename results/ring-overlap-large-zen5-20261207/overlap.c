/* How much of an exchange moves while two ranks compute, by message size,
 * as ring does it: each rank posts MPI_Irecv/MPI_Isend of S bytes to the
 * other, multiplies in CHUNKS DGEMM chunks with MPI_Testall between them,
 * then waits. Per size, ROUNDS rounds of: the exchange alone (x), the chunks
 * alone (c, sized to take about x), both (b); prints the medians, the hidden
 * time x + c - b and the fraction (x + c - b) / min(x, c), and the bytes that
 * moved during the compute, (x + c - b) / x * S. Written apart from mmbench.
 *   mpicc -O2 overlap.c -o overlap -lopenblas && mpirun -n 2 ./overlap [ROUNDS [CHUNKS]] */
#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}
static double median(double* v, int n) {
  qsort(v, n, sizeof(double), cmp);
  return v[n / 2];
}

enum { kDim = 256 }; /* one DGEMM of 256^3: about 0.7 ms at 50 GFLOP/s */
static double *A, *B, *C;

static void dgemms(int count) {
  for (int i = 0; i < count; ++i)
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, kDim, kDim, kDim, 1.0, A, kDim, B, kDim, 1.0, C, kDim);
}

/* slowest rank's time of one pattern: exchange (do_x), chunks (dgemm_per_chunk > 0) or both */
static double pattern(int do_x, int chunks, int per_chunk, char* sbuf, char* rbuf, int bytes, int other) {
  MPI_Request req[2];
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (do_x) {
    MPI_Irecv(rbuf, bytes, MPI_BYTE, other, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(sbuf, bytes, MPI_BYTE, other, 7, MPI_COMM_WORLD, &req[1]);
  }
  for (int c = 0; c < chunks; ++c) {
    dgemms(per_chunk);
    if (do_x) {
      int flag;
      MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE);
    }
  }
  if (do_x) MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  double dt = MPI_Wtime() - t0, slowest;
  MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "overlap: needs 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int rounds = argc > 1 ? atoi(argv[1]) : 5;
  const int chunks = argc > 2 ? atoi(argv[2]) : 4;
  const long sizes[] = {4L << 20, 16L << 20, 64L << 20};
  const int nsizes = 3;
  char* sbuf = malloc(sizes[nsizes - 1]);
  char* rbuf = malloc(sizes[nsizes - 1]);
  memset(sbuf, 1, sizes[nsizes - 1]);
  memset(rbuf, 0, sizes[nsizes - 1]);
  A = malloc(sizeof(double) * kDim * kDim);
  B = malloc(sizeof(double) * kDim * kDim);
  C = calloc(kDim * kDim, sizeof(double));
  for (int i = 0; i < kDim * kDim; ++i) A[i] = B[i] = 1.0 / (1 + i % 7);
  /* the time of one DGEMM, to size the chunks */
  dgemms(20);
  double t0 = MPI_Wtime();
  dgemms(50);
  double one = (MPI_Wtime() - t0) / 50, one_max;
  MPI_Allreduce(&one, &one_max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const int other = 1 - rank;
  if (rank == 0) printf("chunks %d, DGEMM %d^3 %.3f ms\n", chunks, kDim, one_max * 1e3);
  for (int s = 0; s < nsizes; ++s) {
    const int bytes = (int)sizes[s];
    double x[64], c[64], b[64];
    pattern(1, 0, 0, sbuf, rbuf, bytes, other); /* warm the connection */
    const double x0 = pattern(1, 0, 0, sbuf, rbuf, bytes, other);
    const int per_chunk = (int)(x0 / one_max / chunks + 0.5) > 0 ? (int)(x0 / one_max / chunks + 0.5) : 1;
    for (int r = 0; r < rounds && r < 64; ++r) {
      x[r] = pattern(1, 0, 0, sbuf, rbuf, bytes, other);
      c[r] = pattern(0, chunks, per_chunk, sbuf, rbuf, bytes, other);
      b[r] = pattern(1, chunks, per_chunk, sbuf, rbuf, bytes, other);
    }
    const double xm = median(x, rounds), cm = median(c, rounds), bm = median(b, rounds);
    const double hidden = xm + cm - bm, shorter = xm < cm ? xm : cm;
    if (rank == 0)
      printf("%6ld KiB each way: exchange %.4f s, chunks %.4f s, both %.4f s; hidden %.4f s = %.2f of the shorter, "
             "%.2f MiB moved during the compute\n",
             sizes[s] >> 10, xm, cm, bm, hidden, hidden / shorter, hidden / xm * bytes / 1048576.0);
  }
  free(sbuf);
  free(rbuf);
  free(A);
  free(B);
  free(C);
  MPI_Finalize();
  return 0;
}
