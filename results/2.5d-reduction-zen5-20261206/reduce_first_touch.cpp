// MPI_Reduce (MPI_SUM, root 0 in place) of one block over 2 ranks against
// a send, a receive into a buffer allocated once and an addition: the sum
// 2.5D forms over its layers. Prints the median of 5 calls after 1 warm-up
// per size. Build: mpicxx -O2 reduce_first_touch.cpp -o reduce_first_touch
// Run: mpirun -n 2 ./reduce_first_touch   (and with -x MALLOC_MMAP_MAX_=0:
// glibc then never maps a fresh block for a large malloc)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <vector>

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::printf("MiB  reduce[s]  GB/s   p2p+add[s]  GB/s\n");
  for (int mib : {4, 8, 16, 24, 31, 32, 48, 64}) {
    const size_t count = size_t(mib) << 17;  // doubles
    std::vector<double> c(count, 1.0), received(count, 0.0);
    std::vector<double> t_reduce, t_p2p;
    for (int rep = 0; rep < 6; ++rep) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      if (rank == 0)
        MPI_Reduce(MPI_IN_PLACE, c.data(), int(count), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      else
        MPI_Reduce(c.data(), nullptr, int(count), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      double t1 = MPI_Wtime();
      MPI_Barrier(MPI_COMM_WORLD);
      double t2 = MPI_Wtime();
      if (rank == 1) MPI_Send(c.data(), int(count), MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
      if (rank == 0) {
        MPI_Recv(received.data(), int(count), MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (size_t e = 0; e < count; ++e) c[e] += received[e];
      }
      double t3 = MPI_Wtime();
      if (rep > 0) t_reduce.push_back(t1 - t0), t_p2p.push_back(t3 - t2);
    }
    if (rank == 0) {
      const double gb = double(count) * 8 / 1e9, r = median(t_reduce), q = median(t_p2p);
      std::printf("%3d  %9.5f  %5.2f  %10.5f  %5.2f\n", mib, r, gb / r, q, gb / q);
    }
  }
  MPI_Finalize();
}
