// The CPU mask of rank 0 after a widening scope is the mask before it: the
// dgemm peer (threads x p BLAS threads on rank 0) widens rank 0 for its
// plan and its multiply only, so the one-thread configurations that follow
// it in a sweep run where mpirun placed them. Also: ScopedWideAffinity
// restores the mask when its scope is left by an exception.
//
// Rank 0 first narrows itself to one CPU (as mpirun --bind-to core would),
// so there is something to widen on any machine with 2 or more CPUs.
#include <sched.h>

#include <stdexcept>

#include "algos/registry.hpp"
#include "core/machine/affinity.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/dist_matrix.hpp"
#include "core/matrix/generate.hpp"
#include "core/mpi/mpi_env.hpp"
#include "core/stats/timing.hpp"
#include "mpi_check_main.hpp"

using namespace mmbench;

namespace {
cpu_set_t current_mask() {
  cpu_set_t s;
  CPU_ZERO(&s);
  if (sched_getaffinity(0, sizeof s, &s) != 0) CPU_ZERO(&s);
  return s;
}

bool same(const cpu_set_t& a, const cpu_set_t& b) { return CPU_EQUAL(&a, &b); }

// Narrow this thread to the first CPU of its mask; false if it cannot.
bool narrow_to_one_cpu() {
  cpu_set_t s = current_mask();
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &s)) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(c, &one);
      return sched_setaffinity(0, sizeof one, &one) == 0;
    }
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  const bool root = world.rank() == 0;
  const cpu_set_t original = current_mask();
  const bool can_widen = CPU_COUNT(&original) >= 2 || world.size() >= 2;
  if (root) CHECK(narrow_to_one_cpu(), "cannot narrow rank 0 to one CPU");
  record_node_cpus(world);
  const cpu_set_t before = current_mask();

  // 1. The dgemm peer at p ranks and 2 threads per rank runs 2p BLAS
  //    threads on rank 0 (2 at p = 1, so one rank tests it too).
  {
    const algos::Algorithm* dg = algos::find_algorithm("dgemm");
    algos::Problem pb{128, 128, 128};
    algos::Options opt;
    opt.threads = 2;
    auto plan = dg->plan(pb, opt, world);
    CHECK(same(current_mask(), before), "the dgemm plan left rank {}'s CPU mask changed ({} CPUs, before {})",
          world.rank(), cpus_available_to_me(), CPU_COUNT(&before));
    DistMatrix A(plan->layout_a(), world.rank()), B(plan->layout_b(), world.rank()), C(plan->layout_c(), world.rank());
    generate(A, 1);
    generate(B, 2);
    for (int r = 0; r < 2; ++r) time_max_over_ranks(world, [&] { plan->multiply(A, B, C); }, plan->takes_part());
    CHECK(same(current_mask(), before), "the dgemm peer's multiply left rank {}'s CPU mask at {} CPUs (before {})",
          world.rank(), cpus_available_to_me(), CPU_COUNT(&before));
  }
  // 2. The scope itself: wide inside (where there is room), as before after,
  //    also when left by an exception.
  if (root) {
    {
      const ScopedWideAffinity wide(2);
      CHECK(!can_widen || wide.widened(), "a 2-thread scope did not widen a one-CPU rank");
      CHECK(!wide.widened() || cpus_available_to_me() >= 2, "widened to {} CPUs", cpus_available_to_me());
    }
    CHECK(same(current_mask(), before), "mask not restored after the scope ({} CPUs)", cpus_available_to_me());
    try {
      const ScopedWideAffinity wide(2);
      throw std::runtime_error("leave the scope");
    } catch (const std::runtime_error&) {
    }
    CHECK(same(current_mask(), before), "mask not restored after an exception ({} CPUs)", cpus_available_to_me());
  }
  CHECK(sched_setaffinity(0, sizeof original, &original) == 0, "cannot restore the original mask");
  return testing::finish("affinity_restore");
}
