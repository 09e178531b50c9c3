// A message after an idle gap: rank 0 sleeps GAP_US (both ranks, after a
// barrier), sends SIZE bytes to rank 1 and waits for an 8-byte answer; the
// median of 12 per size, as MB/s. On a tbf-limited namespace link the bucket
// refills during the gap and passes its bytes at memory speed; a NIC does not.
// Build: mpicxx -O2 gap.cpp -o /tmp/gap
// Run:   mpirun $(cat /tmp/mmb-cluster/mpirun.args) -n 2 /tmp/gap GAP_US SIZE...
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <unistd.h>
#include <algorithm>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int gap_us = atoi(argv[1]);
  std::vector<char> buf(16 << 20);
  for (int a = 2; a < argc; ++a) {
    long s = atol(argv[a]);
    std::vector<double> t;
    for (int i = 0; i < 12; ++i) {
      MPI_Barrier(MPI_COMM_WORLD);
      usleep(gap_us);
      double t0 = MPI_Wtime();
      if (r == 0) {
        MPI_Send(buf.data(), s, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf.data(), s, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf.data(), 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      }
      t.push_back(MPI_Wtime() - t0);
    }
    std::sort(t.begin(), t.end());
    if (r == 0) printf("gap %d us size %ld: median %.3f ms = %.1f MB/s\n", gap_us, s, t[6] * 1e3, s / t[6] / 1e6);
  }
  MPI_Finalize();
}
