/* Large messages between two ranks, as ring and tpmm move them at p = 2:
 * a one-way ping-pong (rank 0 sends, rank 1 answers with 8 bytes) and an
 * exchange (both send and receive at once, MPI_Sendrecv). Sizes from 1 MiB
 * to 64 MiB, ROUNDS interleaved rounds; prints one line per size and kind
 * with the median rate in MB/s (10^6 bytes). IDLE_MS > 0 makes each rank
 * wait that long (busy, as a DGEMM would) before every transfer, as ring and
 * tpmm do between their shifts. Written apart from mmbench.
 *   mpicc -O2 exchange.c -o exchange && mpirun -n 2 ./exchange [ROUNDS [IDLE_MS]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Spin for s seconds without an MPI call: the link sees no traffic. */
static void idle(double s) {
  const double end = MPI_Wtime() + s;
  while (MPI_Wtime() < end) {
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "exchange: needs 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int rounds = argc > 1 ? atoi(argv[1]) : 5;
  const double idle_s = argc > 2 ? atof(argv[2]) / 1000.0 : 0.0;
  const long sizes[] = {1L << 20, 4L << 20, 16L << 20, 64L << 20};
  const int nsizes = 4;
  char* sbuf = malloc(sizes[nsizes - 1]);
  char* rbuf = malloc(sizes[nsizes - 1]);
  memset(sbuf, 1, sizes[nsizes - 1]);
  memset(rbuf, 0, sizes[nsizes - 1]);
  double t[2][4][64];
  const int other = 1 - rank;
  for (int r = 0; r < rounds && r < 64; ++r) {
    for (int s = 0; s < nsizes; ++s) {
      const int bytes = (int)sizes[s];
      char ack[8];
      MPI_Barrier(MPI_COMM_WORLD);
      idle(idle_s);
      double t0 = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(sbuf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(ack, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(rbuf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(ack, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      }
      t[0][s][r] = MPI_Wtime() - t0;
      MPI_Barrier(MPI_COMM_WORLD);
      idle(idle_s);
      t0 = MPI_Wtime();
      MPI_Sendrecv(sbuf, bytes, MPI_BYTE, other, 2, rbuf, bytes, MPI_BYTE, other, 2, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      double dt = MPI_Wtime() - t0, slowest;
      MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      t[1][s][r] = slowest;
    }
  }
  if (rank == 0) {
    const char* kind[2] = {"one-way", "exchange"};
    for (int k = 0; k < 2; ++k)
      for (int s = 0; s < nsizes; ++s) {
        double v[64];
        memcpy(v, t[k][s], sizeof(double) * rounds);
        qsort(v, rounds, sizeof(double), cmp);
        printf("%-8s %6ld KiB  median %.4f s  min %.4f s  max %.4f s  %.1f MB/s (median)\n", kind[k], sizes[s] >> 10,
               v[rounds / 2], v[0], v[rounds - 1], sizes[s] / v[rounds / 2] / 1e6);
      }
  }
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
