#include "algos/pilaenv_override.hpp"

#include <atomic>

#include "core/lb_in_force.hpp"

namespace mmbench::algos {

namespace {
std::atomic<int> g_lb{0};
std::atomic<long> g_calls{0};
}  // namespace

void set_logical_block_size(int lb) { g_lb = lb; }
int logical_block_size() { return g_lb.load() > 0 ? g_lb.load() : kScalapackDefaultLb; }
long pilaenv_calls() { return g_calls.load(); }
void count_pilaenv_call() { ++g_calls; }

}  // namespace mmbench::algos

// INTEGER FUNCTION PILAENV(ICTXT, PREC): the same value on every rank.
extern "C" int pilaenv_(int* /*ictxt*/, char* /*prec*/) {
  mmbench::algos::count_pilaenv_call();
  return mmbench::algos::logical_block_size();
}
