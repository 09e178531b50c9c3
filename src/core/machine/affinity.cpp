#include "core/machine/affinity.hpp"

#include <sched.h>
#include <unistd.h>

#include <vector>

#include "core/mpi/mpi_check.hpp"

namespace mmbench {

namespace {
cpu_set_t g_node_union;
bool g_recorded = false;
}  // namespace

void record_node_cpus(const Comm& world) {
#ifdef MMBENCH_SMPI
  // Simulated ranks share one process: never touch its affinity.
  (void)world;
  return;
#else
  Comm node = world.split_node();
  cpu_set_t mine;
  CPU_ZERO(&mine);
  // A rank that cannot read its mask still joins the collective (with an
  // empty set), or the other ranks of its node would wait forever; it just
  // leaves its own affinity as it is.
  const bool known = sched_getaffinity(0, sizeof mine, &mine) == 0;
  if (!known) CPU_ZERO(&mine);
  std::vector<cpu_set_t> all(static_cast<std::size_t>(node.size()));
  MMBENCH_MPI(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, node.get()));
  CPU_ZERO(&g_node_union);
  for (cpu_set_t& s : all) CPU_OR(&g_node_union, &g_node_union, &s);
  g_recorded = known;
#endif
}

int cpus_available_to_me() {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return 1;
  return CPU_COUNT(&mine);
}

bool widen_affinity_for(int threads) {
  if (!g_recorded || threads <= cpus_available_to_me()) return false;
  cpu_set_t target = g_node_union;
  // A job of fewer ranks than threads (mpirun -n 1 --threads 2) was bound
  // to fewer cores than it asks to use: take the machine's online CPUs (the
  // kernel keeps only those the container's cpuset allows).
  if (CPU_COUNT(&target) < threads) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    for (long c = 0; c < online && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &target);
  }
  return sched_setaffinity(0, sizeof target, &target) == 0;
}

ScopedWideAffinity::ScopedWideAffinity(int threads) {
  CPU_ZERO(&saved_);
  saved_ok_ = sched_getaffinity(0, sizeof saved_, &saved_) == 0;
  widened_ = saved_ok_ && widen_affinity_for(threads);
}

ScopedWideAffinity::~ScopedWideAffinity() {
  // A mask this thread had a moment ago can only be refused if the cpuset
  // shrank meanwhile; then the kernel's choice stands (a destructor cannot
  // report it, and the rank still runs).
  if (widened_) (void)sched_setaffinity(0, sizeof saved_, &saved_);
}

}  // namespace mmbench
