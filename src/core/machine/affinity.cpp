#include "core/machine/affinity.hpp"

#include <sched.h>
#include <unistd.h>

#include <vector>

#include "core/mpi/mpi_check.hpp"

namespace mmbench {

namespace {
NodeCpus g_node;
}  // namespace

NodeCpus node_cpus(const Comm& comm) {
#ifdef MMBENCH_SMPI
  // Simulated ranks share one process: never touch its affinity.
  (void)comm;
  return {};
#else
  Comm node = comm.split_node();
  RankCpus mine;
  mine.rank = comm.rank();
  CPU_ZERO(&mine.cpus);
  // A rank that cannot read its mask still joins the collective (with an
  // empty set), or the other ranks of its node would wait forever; it just
  // leaves its own affinity as it is.
  const bool known = sched_getaffinity(0, sizeof mine.cpus, &mine.cpus) == 0;
  if (!known) CPU_ZERO(&mine.cpus);
  NodeCpus all(static_cast<std::size_t>(node.size()), RankCpus{});
  MMBENCH_MPI(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, node.get()));
  if (!known) all.clear();
  return all;
#endif
}

void record_node_cpus(const Comm& world) { g_node = node_cpus(world); }

int cpus_available_to_me() {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return 1;
  return CPU_COUNT(&mine);
}

cpu_set_t widening_target(const NodeCpus& node, RankGroup group, int threads, long online) {
  cpu_set_t in_group, whole;
  CPU_ZERO(&in_group);
  CPU_ZERO(&whole);
  for (const RankCpus& r : node) {
    cpu_set_t cpus = r.cpus;  // CPU_OR's macro takes non-const sets
    CPU_OR(&whole, &whole, &cpus);
    if (group.holds(r.rank)) CPU_OR(&in_group, &in_group, &cpus);
  }
  if (CPU_COUNT(&in_group) >= threads) return in_group;
  if (CPU_COUNT(&whole) >= threads) return whole;
  for (long c = 0; c < online && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &whole);
  return whole;
}

bool widen_affinity_for(int threads, const NodeCpus* node, RankGroup group) {
  const NodeCpus& masks = node != nullptr ? *node : g_node;
  if (masks.empty() || threads <= cpus_available_to_me()) return false;
  const cpu_set_t target = widening_target(masks, group, threads, sysconf(_SC_NPROCESSORS_ONLN));
  return sched_setaffinity(0, sizeof target, &target) == 0;
}

ScopedWideAffinity::ScopedWideAffinity(int threads, const NodeCpus* node, RankGroup group) {
  CPU_ZERO(&saved_);
  saved_ok_ = sched_getaffinity(0, sizeof saved_, &saved_) == 0;
  widened_ = saved_ok_ && widen_affinity_for(threads, node, group);
}

ScopedWideAffinity::~ScopedWideAffinity() {
  // A mask this thread had a moment ago can only be refused if the cpuset
  // shrank meanwhile; then the kernel's choice stands (a destructor cannot
  // report it, and the rank still runs).
  if (widened_) (void)sched_setaffinity(0, sizeof saved_, &saved_);
}

}  // namespace mmbench
