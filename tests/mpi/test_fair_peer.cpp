// Ranks that take no part in a measurement do not burn their core: while
// rank 0 computes (the dgemm peer), rank 1 waits in Comm::idle_barrier and
// uses a small fraction of the wall time as CPU time. Before the fix it
// polled (~12 % of a core at 200 us sleeps; 100 % with a plain MPI wait),
// which slowed a 2-thread DGEMM on rank 0 by ~25 %.
#include <time.h>

#include <cstdio>

#include "algos/registry.hpp"
#include "core/matrix/generate.hpp"
#include "core/mpi/mpi_env.hpp"
#include "core/mpi/comm.hpp"
#include "core/stats/timing.hpp"
#include "mpi_check_main.hpp"

using namespace mmbench::testing;

using namespace mmbench;

namespace {
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// Rank 0 busy for `seconds` of wall time.
void spin(double seconds) {
  const double t0 = MPI_Wtime();
  volatile double x = 0;
  while (MPI_Wtime() - t0 < seconds) x = x + 1;
}
}  // namespace

int main(int argc, char** argv) {
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  // 1. The timing helper: rank 0 works 0.6 s, the others sit out.
  {
    const double c0 = cpu_seconds(), w0 = MPI_Wtime();
    const double t = time_max_over_ranks(world, [] { spin(0.6); }, world.rank() == 0);
    const double cpu = cpu_seconds() - c0, wall = MPI_Wtime() - w0;
    CHECK(t >= 0.59, "measured {:.3f} s, expected the worker's 0.6 s", t);
    CHECK(world.rank() == 0 || cpu <= 0.05 * wall, "waited {:.3f} s but used {:.3f} s of CPU", wall, cpu);
  }
  // 2. The real peer: the dgemm plan takes part on rank 0 only, and rank 1's
  //    CPU time while it runs stays small.
  {
    const algos::Algorithm* dg = algos::find_algorithm("dgemm");
    // n = 1280: ~0.1 s a run, long against the ~1-3 ms of CPU a waiting rank
    // spends entering and leaving the collectives around each run.
    algos::Problem pb{1280, 1280, 1280};
    auto plan = dg->plan(pb, algos::Options{}, world);
    CHECK(plan->takes_part() == (world.rank() == 0), "dgemm takes_part() = {}", plan->takes_part());
    DistMatrix A(plan->layout_a(), world.rank()), B(plan->layout_b(), world.rank()), C(plan->layout_c(), world.rank());
    generate(A, 1);
    generate(B, 2);
    const double c0 = cpu_seconds(), w0 = MPI_Wtime();
    for (int r = 0; r < 6; ++r)
      time_max_over_ranks(world, [&] { plan->multiply(A, B, C); }, plan->takes_part());
    const double cpu = cpu_seconds() - c0, wall = MPI_Wtime() - w0;
    CHECK(world.rank() == 0 || cpu <= 0.10 * wall, "dgemm peer ran {:.3f} s, this rank used {:.3f} s of CPU", wall, cpu);
    if (world.rank() == 1) std::printf("rank 1 CPU during the peer: %.1f %% of %.2f s\n", 100 * cpu / wall, wall);
  }
  return testing::finish("fair_peer");
}
