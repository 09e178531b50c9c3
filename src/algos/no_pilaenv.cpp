// The SMPI build links no ScaLAPACK, so there is no pilaenv_ to override:
// this unit stands in for pilaenv_override.cpp in mmbench_pilaenv. The lb
// is remembered (the tuner's PDGEMM check resets it) but nobody asks for it.
#include "algos/pilaenv_override.hpp"

namespace mmbench::algos {

namespace {
int g_lb = 0;
}

void set_logical_block_size(int lb) { g_lb = lb; }
int logical_block_size() { return g_lb; }
long pilaenv_calls() { return 0; }
void count_pilaenv_call() {}

}  // namespace mmbench::algos
