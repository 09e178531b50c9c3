// How fast does fresh memory get written the first time, step by step as a
// process takes more of it, with every core's process doing the same at
// once (as the ranks of a job preparing a dispatched member do)?
//
// Why it matters here: libmmbench-dispatch.so prices a member's preparation
// at tune's first-touch rate, measured on 96 MiB per rank, while a member
// at n = 8192 touches about 3 GiB per rank. On a virtual machine whose host
// backs guest memory only when the guest first uses it, memory the guest
// has never used since boot can be several times slower to touch than
// memory it used and freed before; a second run shows the difference.
//
// PROCS processes (fork, default 2) each allocate and write STEP MiB at a
// time, keeping what they took, until each holds TOTAL MiB; per step the
// slowest process's time and its rate in GB/s are printed.
//
//   cmake --build build --target first_touch
//   build/bench/first_touch [TOTAL_MIB [STEP_MIB [PROCS]]]   e.g. build/bench/first_touch 4096 256 2
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// A barrier for PROCS processes: a counter in shared memory, spun on.
struct Shared {
  volatile int arrived[64];
  volatile double seconds[64][256];
};

void barrier(Shared* s, int me, int procs, int round) {
  s->arrived[me] = round;
  for (int p = 0; p < procs; ++p)
    while (s->arrived[p] < round) {
    }
}

}  // namespace

int main(int argc, char** argv) {
  const long total = argc > 1 ? std::atol(argv[1]) : 4096;
  const long step = argc > 2 ? std::atol(argv[2]) : 256;
  const int procs = argc > 3 ? std::atoi(argv[3]) : 2;
  if (total < 1 || step < 1 || total / step > 256 || procs < 1 || procs > 64) {
    std::fprintf(stderr, "first_touch: TOTAL_MIB >= 1, STEP_MIB >= 1, at most 256 steps, 1 <= PROCS <= 64\n");
    return 2;
  }
  auto* s = static_cast<Shared*>(
      mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (s == MAP_FAILED) return 1;
  std::memset(const_cast<int*>(s->arrived), 0, sizeof s->arrived);
  const long steps = total / step;
  int me = 0;
  for (int p = 1; p < procs; ++p)
    if (fork() == 0) {
      me = p;
      break;
    }
  std::vector<void*> kept;
  for (long i = 0; i < steps; ++i) {
    barrier(s, me, procs, static_cast<int>(i) + 1);
    const auto t0 = std::chrono::steady_clock::now();
    void* p = std::malloc(static_cast<std::size_t>(step) << 20);
    if (p == nullptr) return 1;
    std::memset(p, 1, static_cast<std::size_t>(step) << 20);  // not 0: malloc + memset 0 may become calloc
    s->seconds[me][i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    kept.push_back(p);
  }
  barrier(s, me, procs, static_cast<int>(steps) + 1);
  if (me != 0) return 0;
  for (int p = 1; p < procs; ++p) wait(nullptr);
  std::printf("held_mib_per_process,seconds_slowest,gb_per_s_per_process\n");
  for (long i = 0; i < steps; ++i) {
    double worst = 0;
    for (int p = 0; p < procs; ++p) worst = s->seconds[p][i] > worst ? s->seconds[p][i] : worst;
    std::printf("%ld,%.4f,%.3f\n", (i + 1) * step, worst, double(step << 20) / worst / 1e9);
  }
  return 0;
}
