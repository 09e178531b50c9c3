#include "core/machine/affinity.hpp"

#include <sched.h>
#include <unistd.h>

#include <vector>

#include "core/mpi/mpi_check.hpp"

namespace mmbench {

namespace {
std::vector<RankCpus> g_node;
bool g_recorded = false;
}  // namespace

void record_node_cpus(const Comm& world) {
#ifdef MMBENCH_SMPI
  // Simulated ranks share one process: never touch its affinity.
  (void)world;
  return;
#else
  Comm node = world.split_node();
  RankCpus mine;
  mine.world_rank = world.rank();
  CPU_ZERO(&mine.cpus);
  // A rank that cannot read its mask still joins the collective (with an
  // empty set), or the other ranks of its node would wait forever; it just
  // leaves its own affinity as it is.
  const bool known = sched_getaffinity(0, sizeof mine.cpus, &mine.cpus) == 0;
  if (!known) CPU_ZERO(&mine.cpus);
  g_node.assign(static_cast<std::size_t>(node.size()), RankCpus{});
  MMBENCH_MPI(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, g_node.data(), sizeof mine, MPI_BYTE, node.get()));
  g_recorded = known;
#endif
}

int cpus_available_to_me() {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return 1;
  return CPU_COUNT(&mine);
}

cpu_set_t widening_target(const std::vector<RankCpus>& node, RankGroup group, int threads, long online) {
  cpu_set_t in_group, whole;
  CPU_ZERO(&in_group);
  CPU_ZERO(&whole);
  for (const RankCpus& r : node) {
    cpu_set_t cpus = r.cpus;  // CPU_OR's macro takes non-const sets
    CPU_OR(&whole, &whole, &cpus);
    if (group.holds(r.world_rank)) CPU_OR(&in_group, &in_group, &cpus);
  }
  if (CPU_COUNT(&in_group) >= threads) return in_group;
  if (CPU_COUNT(&whole) >= threads) return whole;
  for (long c = 0; c < online && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &whole);
  return whole;
}

bool widen_affinity_for(int threads, RankGroup group) {
  if (!g_recorded || threads <= cpus_available_to_me()) return false;
  const cpu_set_t target = widening_target(g_node, group, threads, sysconf(_SC_NPROCESSORS_ONLN));
  return sched_setaffinity(0, sizeof target, &target) == 0;
}

ScopedWideAffinity::ScopedWideAffinity(int threads, RankGroup group) {
  CPU_ZERO(&saved_);
  saved_ok_ = sched_getaffinity(0, sizeof saved_, &saved_) == 0;
  widened_ = saved_ok_ && widen_affinity_for(threads, group);
}

ScopedWideAffinity::~ScopedWideAffinity() {
  // A mask this thread had a moment ago can only be refused if the cpuset
  // shrank meanwhile; then the kernel's choice stands (a destructor cannot
  // report it, and the rank still runs).
  if (widened_) (void)sched_setaffinity(0, sizeof saved_, &saved_);
}

}  // namespace mmbench
