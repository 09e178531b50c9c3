/* What a simulated network charges the message patterns of mmbench's
   algorithms (tests/smpi/network_levels.sh): rank 0 -> 1 alone, rank R-1
   -> R alone, and steps where every rank sends at once: the ring shift
   (i -> i+1), pairwise swaps at distance d (i <-> i xor d). One line per
   pattern and size: "<pattern> <bytes> <seconds>", the seconds of the
   slowest rank from a common start (a barrier). Every MPI return code is
   checked: a failing call prints its name and exits 1.

   network_probe R BYTES...   (R: ranks per node of the placement) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                          \
  do {                                                       \
    if ((call) != MPI_SUCCESS) {                             \
      fprintf(stderr, "network_probe: %s failed\n", #call); \
      exit(1);                                               \
    }                                                        \
  } while (0)

static double slowest(double t) {
  double mx = 0;
  CHECK(MPI_Allreduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  return mx;
}

/* src sends `bytes` to dst, nobody else sends. */
static double alone(int src, int dst, int bytes, char* buf) {
  int me;
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  const double t0 = MPI_Wtime();
  double t = 0;
  if (me == src) CHECK(MPI_Send(buf, bytes, MPI_BYTE, dst, 1, MPI_COMM_WORLD));
  if (me == dst) {
    CHECK(MPI_Recv(buf, bytes, MPI_BYTE, src, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    t = MPI_Wtime() - t0;
  }
  return slowest(t);
}

/* Every rank sends to `to` and receives from `from` at once. */
static double step(int to, int from, int bytes, char* send, char* recv) {
  MPI_Request r[2];
  CHECK(MPI_Barrier(MPI_COMM_WORLD));
  const double t0 = MPI_Wtime();
  CHECK(MPI_Irecv(recv, bytes, MPI_BYTE, from, 2, MPI_COMM_WORLD, &r[0]));
  CHECK(MPI_Isend(send, bytes, MPI_BYTE, to, 2, MPI_COMM_WORLD, &r[1]));
  CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
  return slowest(MPI_Wtime() - t0);
}

int main(int argc, char** argv) {
  CHECK(MPI_Init(&argc, &argv));
  int me, p;
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, &p));
  if (argc < 3 || p < 4) {
    if (me == 0) fprintf(stderr, "usage: network_probe R BYTES... (at least 4 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  const int r = atoi(argv[1]);
  for (int a = 2; a < argc; ++a) {
    const int bytes = atoi(argv[a]);
    char* send = calloc((size_t)bytes, 1);
    char* recv = calloc((size_t)bytes, 1);
    if (!send || !recv) return 1;
    const double intra = alone(0, 1, bytes, recv);
    const double inter = alone(r - 1, r, bytes, recv);
    const double ring = step((me + 1) % p, (me - 1 + p) % p, bytes, send, recv);
    if (me == 0) {
      printf("alone-intra %d %.9g\n", bytes, intra);
      printf("alone-inter %d %.9g\n", bytes, inter);
      printf("ring %d %.9g\n", bytes, ring);
    }
    for (int d = 1; d < p; d *= 2) {
      const double t = step(me ^ d, me ^ d, bytes, send, recv);
      if (me == 0) printf("swap%d %d %.9g\n", d, bytes, t);
    }
    free(send);
    free(recv);
  }
  CHECK(MPI_Finalize());
  return 0;
}
