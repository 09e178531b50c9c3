// One panel update C += A B, C m x n, A m x k, B k x n (column-major, one
// OpenBLAS thread per rank), timed on every rank at once: the local DGEMM
// a PDGEMM of width k = lb makes, on C shares of growing size. Does the rate
// at a narrow k hold once C no longer fits in the caches?
// Build: mpicxx -O2 dgemm_c_traffic.cpp -o dgemm_c_traffic -lopenblas
// Run:   mpirun -n 2 ./dgemm_c_traffic > out.txt   (prints on rank 0: m n k median_s gflops per rank)
#include <mpi.h>
#include <cblas.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::pair<int, int> shapes[] = {{1024, 512}, {2048, 1024}, {4096, 2048}, {8192, 4096}};
  const int ks[] = {32, 64, 128, 256, 512};
  const int kReps = 5;
  if (rank == 0) std::printf("m n k C_MiB median_s gflops_per_rank\n");
  for (auto [m, n] : shapes) {
    for (int k : ks) {
      std::vector<double> a(std::size_t(m) * k), b(std::size_t(k) * n), c(std::size_t(m) * n);
      std::mt19937 gen(rank);
      std::uniform_real_distribution<double> u(-1, 1);
      for (double& x : a) x = u(gen);
      for (double& x : b) x = u(gen);
      for (double& x : c) x = u(gen);
      // As many calls as a PDGEMM over the whole k = n would make (n / k
      // panels), at most 64, so each timing covers a few tenths of a second.
      const int calls = std::min(64, std::max(1, n / k));
      std::vector<double> t;
      for (int r = 0; r < kReps + 1; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (int i = 0; i < calls; ++i)
          cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a.data(), m, b.data(), k, 1.0, c.data(),
                      m);
        const double dt = (MPI_Wtime() - t0) / calls;
        double worst = 0;
        MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (r > 0) t.push_back(worst);  // the first is a warm-up
      }
      std::sort(t.begin(), t.end());
      const double med = t[t.size() / 2];
      if (rank == 0)
        std::printf("%d %d %d %.0f %.6g %.2f\n", m, n, k, 8.0 * m * n / 1048576.0, med, 2.0 * m * n * k / med / 1e9);
    }
  }
  MPI_Finalize();
  return 0;
}
