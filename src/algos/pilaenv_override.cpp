#include "algos/pilaenv_override.hpp"

#include <atomic>

namespace mmbench::algos {

namespace {
std::atomic<int> g_lb{0};
std::atomic<long> g_calls{0};
constexpr int kLibraryDefault = 32;  // ScaLAPACK 2.x PILAENV
}  // namespace

void set_logical_block_size(int lb) { g_lb = lb; }
int logical_block_size() { return g_lb.load() > 0 ? g_lb.load() : kLibraryDefault; }
long pilaenv_calls() { return g_calls.load(); }
void count_pilaenv_call() { ++g_calls; }

}  // namespace mmbench::algos

// INTEGER FUNCTION PILAENV(ICTXT, PREC): the same value on every rank.
extern "C" int pilaenv_(int* /*ictxt*/, char* /*prec*/) {
  mmbench::algos::count_pilaenv_call();
  return mmbench::algos::logical_block_size();
}
