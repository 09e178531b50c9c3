// Both ways at once between two nodes: ranks 0 and 1 each post a receive
// and a send of SIZE MiB to the other, EXCHANGES times back to back per
// batch (one way: rank 0 sends only), after a barrier; MB/s per direction
// from the slower rank's time, median of 7 batches. tune's backbone probe
// ran 4 exchanges of 4 MiB back to back; an algorithm's step runs one.
// Build: mpicxx -O2 bidir.cpp -o /tmp/bidir
// Run:   mpirun $(cat /tmp/mmb-cluster/mpirun.args) -n 2 /tmp/bidir SIZE_MIB EXCHANGES
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
// mode 0: rank 0 -> 1 only; mode 1: both ways at once. 4 MiB messages, 4 per batch, median of 7 batches.
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const int S = (argc > 1 ? atoi(argv[1]) : 4) << 20;
  const int it = argc > 2 ? atoi(argv[2]) : 4;
  std::vector<char> s(S, 1), q(S);
  for (int mode = 0; mode < 2; ++mode) {
    std::vector<double> t;
    for (int b = 0; b < 8; ++b) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (int i = 0; i < it; ++i) {
        MPI_Request req[2];
        int k = 0;
        if (mode == 1 || r == 1) MPI_Irecv(q.data(), S, MPI_BYTE, 1 - r, 0, MPI_COMM_WORLD, &req[k++]);
        if (mode == 1 || r == 0) MPI_Isend(s.data(), S, MPI_BYTE, 1 - r, 0, MPI_COMM_WORLD, &req[k++]);
        MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
      }
      double dt = MPI_Wtime() - t0, mx;
      MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (b) t.push_back(mx);
    }
    std::sort(t.begin(), t.end());
    if (r == 0)
      printf("%s: %.1f MB/s per direction\n", mode ? "both ways" : "one way", 1.0 * it * S / t[t.size() / 2] / 1e6);
  }
  MPI_Finalize();
}
