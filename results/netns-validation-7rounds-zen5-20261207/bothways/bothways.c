/* Both directions at once between ranks 0 and 1, in one job: MPI_Alltoall
 * (tune's all-to-all) and MPI_Sendrecv (a ring shift) of S bytes each way,
 * alternating, each call alone between barriers; prints each call's rate. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  long S = argc > 1 ? atol(argv[1]) : 4L << 20;
  int rounds = argc > 2 ? atoi(argv[2]) : 10;
  char* s = malloc(2 * S); char* r = malloc(2 * S);
  memset(s, 1, 2 * S); memset(r, 0, 2 * S);
  int peer = 1 - rank;
  /* tune's order: a ping-pong sweep (one direction at a time) first */
  int pp = argc > 3 ? atoi(argv[3]) : 0;
  for (long b = 8; pp && b <= S; b *= 2)
    for (int i = 0; i < pp; ++i) {
      if (rank == 0) { MPI_Send(s, (int)b, MPI_BYTE, 1, 1, MPI_COMM_WORLD); MPI_Recv(r, (int)b, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
      else { MPI_Recv(r, (int)b, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(s, (int)b, MPI_BYTE, 0, 1, MPI_COMM_WORLD); }
    }
  double ta[1000], ts[1000];
  for (int i = -1; i < rounds; ++i) {
    for (int k = 0; k < 2; ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      if (k == 0) MPI_Alltoall(s, (int)S, MPI_BYTE, r, (int)S, MPI_BYTE, MPI_COMM_WORLD);
      else MPI_Sendrecv(s, (int)S, MPI_BYTE, peer, 0, r, (int)S, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      double t = MPI_Wtime() - t0, tm;
      MPI_Allreduce(&t, &tm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (i >= 0) (k == 0 ? ta : ts)[i] = tm;
    }
  }
  if (rank == 0) {
    printf("S=%ld MB/s alltoall:", S);
    for (int i = 0; i < rounds; ++i) printf(" %.1f", S / ta[i] / 1e6);
    printf("\nS=%ld MB/s sendrecv:", S);
    for (int i = 0; i < rounds; ++i) printf(" %.1f", S / ts[i] / 1e6);
    printf("\n");
  }
  free(s); free(r);
  MPI_Finalize();
  return 0;
}
