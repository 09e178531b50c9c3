// Is memory that sat untouched for a while slow to touch again on this
// machine, and do transparent huge pages change that?
//
// Why it matters here: the local kernel's top-level temporaries are written
// at the start of a multiply and read again at its end (~45 s later at
// n = 12288), and the paired rounds leave each kernel idle while the others
// run. Its level-1 passes vary between multiplies by up to 8x.
// Huge pages for the kernel's workspace were tried and dropped: in the
// paired kernel bench they made every kernel of the process slower
// (docs/results.md, "Local Strassen–Winograd vs DGEMM", the schedules).
//
// For 4 KiB pages and then for a buffer advised for huge pages: allocate
// GIB GiB, touch it (timed), then for idle times 1, 2, 5, 10, 20, 40 s:
// sleep, time one read pass over the buffer (one load per cache line), and
// time a second pass right after it. On a machine without the effect both
// passes take the same time; where idle memory is reclaimed or demoted below
// the process, the first pass after a long idle time is slower. With
// THREADS > 1 each pass is split into THREADS contiguous parts read at once,
// as the kernel's parallel top level splits its passes by columns: whether
// the penalty of idle memory shrinks with the threads like the pass does.
// On the project's VM it did not: split over 2 threads, a pass over idle
// 4 KiB pages stayed slower than a warm one, and with huge pages it did not
// (a one-off measurement, not among the reference results).
//
//   cmake --build build --target idle_memory
//   build/bench/idle_memory GIB [THREADS]   e.g. build/bench/idle_memory 2 2
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <new>
#include <thread>
#include <vector>

#include <sys/mman.h>

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// One load per 64-byte line of a[begin, end); the sum is stored so the loop
// is not removed.
void read_part(double* a, std::size_t begin, std::size_t end) {
  double s = 0;
  for (std::size_t i = begin; i < end; i += 8) s += a[i];
  a[begin] = s * 0.0 + 1.0;
}
// The whole buffer, split into `threads` parts read at once (part t is
// [n·t/T, n·(t+1)/T) rounded down to whole lines).
double read_pass(double* a, std::size_t n, int threads) {
  const double t0 = now();
  {
    std::vector<std::jthread> helpers;
    auto part = [&](int t) { return n * t / threads / 8 * 8; };
    for (int t = 1; t < threads; ++t) helpers.emplace_back(read_part, a, part(t), part(t + 1));
    read_part(a, 0, part(1));
  }
  return now() - t0;
}
}  // namespace

int main(int argc, char** argv) {
  const long gib = argc == 2 || argc == 3 ? std::atol(argv[1]) : 0;
  const int threads = argc == 3 ? std::atoi(argv[2]) : 1;
  if (gib < 1 || gib > 64 || threads < 1 || threads > 256) {
    std::fprintf(stderr, "usage: %s GIB (1..64) [THREADS (1..256)]\n", argv[0]);
    return 2;
  }
  const std::size_t bytes = static_cast<std::size_t>(gib) << 30, n = bytes / sizeof(double);
  std::printf("# threads per pass: %d\npages,idle_s,first_pass_s,second_pass_s\n", threads);
  for (bool huge : {false, true}) {
    auto* a = static_cast<double*>(::operator new(bytes, std::align_val_t{2u << 20}));
    const bool advised = huge && madvise(a, bytes, MADV_HUGEPAGE) == 0;  // a is 2 MiB aligned
    const char* kind = huge ? (advised ? "huge" : "huge-not-advised") : "4k";
    const double t0 = now();
    for (std::size_t i = 0; i < n; ++i) a[i] = 1.0;
    std::printf("%s,first-touch,%.3f,\n", kind, now() - t0);
    for (int idle : {1, 2, 5, 10, 20, 40}) {
      std::this_thread::sleep_for(std::chrono::seconds(idle));
      const double first = read_pass(a, n, threads), second = read_pass(a, n, threads);
      std::printf("%s,%d,%.3f,%.3f\n", kind, idle, first, second);
      std::fflush(stdout);
    }
    ::operator delete(a, std::align_val_t{2u << 20});
  }
}
