// What a dispatched hybrid's idle processes cost when its multiply ends:
// they wait in Comm::idle_barrier (src/core/mpi/comm.cpp), sleeping between
// polls with pauses growing from 50 us to 10 ms, so they notice the end up
// to one pause late. The model (dispatch/decision.hpp kHybridWakeSeconds)
// charged 10 ms when this was written. Here rank 0 "computes" (sleeps) W ms, then enters the
// barrier; every other rank waits in idle_barrier(true) and records when it
// left. The wake delay of a round: the latest idle rank's exit minus rank
// 0's entry (one clock: every rank on this host, CLOCK_MONOTONIC). Rank 0
// waits in idle_barrier(false), as the computing process does.
//
// Build (repository root, after `make build`), one line:
//   mpicxx -std=c++20 -O2 -DOMPI_SKIP_MPICXX -Isrc results/hybrid-wake-20261129/wake.cpp -o /tmp/wake
//   build/libmmbench_core.a -lfmt
// Run: mpirun -n 2 /tmp/wake ROUNDS W_MS [W_MS ...]
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/mpi/comm.hpp"

namespace {
double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const mmbench::Comm world = mmbench::Comm::world();
    const int me = world.rank();
    if (argc < 3) {
      if (me == 0) std::fprintf(stderr, "usage: %s ROUNDS W_MS [W_MS ...]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
    const int rounds = std::atoi(argv[1]);
    if (me == 0) std::printf("wait_ms,rounds,delay_median_ms,delay_min_ms,delay_max_ms\n");
    std::vector<double> all;
    for (int a = 2; a < argc; ++a) {
      const double wait_ms = std::atof(argv[a]);
      std::vector<double> delay;
      for (int r = 0; r < rounds; ++r) {
        world.barrier();
        double entered = 0, left = 0;
        if (me == 0) {
          std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(wait_ms));
          entered = now_s();
          world.idle_barrier(false);
        } else {
          world.idle_barrier(true);
          left = now_s();
        }
        double latest = 0;
        MPI_Reduce(&left, &latest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (me == 0) delay.push_back(1e3 * (latest - entered));
      }
      if (me == 0) {
        all.insert(all.end(), delay.begin(), delay.end());
        std::sort(delay.begin(), delay.end());
        std::printf("%g,%d,%.3f,%.3f,%.3f\n", wait_ms, rounds, delay[delay.size() / 2], delay.front(), delay.back());
      }
    }
    if (me == 0 && !all.empty()) {
      std::sort(all.begin(), all.end());
      double mean = 0;
      for (double d : all) mean += d / static_cast<double>(all.size());
      std::printf("# all %zu rounds: delay median %.3f ms, mean %.3f, min %.3f, max %.3f\n", all.size(),
                  all[all.size() / 2], mean, all.front(), all.back());
    }
  }
  MPI_Finalize();
  return 0;
}
