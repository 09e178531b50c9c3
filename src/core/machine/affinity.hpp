// CPU affinity of ranks that run several threads.
//
// mpirun binds each rank to one core by default when it starts few ranks
// (Open MPI 4: --bind-to core for np <= 2). A rank that then runs T > 1
// BLAS threads would squeeze them all onto that one core and measure half
// the speed or less. Before a rank raises its thread count, mmbench widens
// its affinity to the cores of the ranks whose cores it may take -- those
// of all ranks on its node, the cores the job was given there, or a
// hybrid's group of them -- so the threads can spread. OpenBLAS and the
// local Strassen kernel create their extra threads lazily, after this, so
// the new threads inherit the wider mask.
#pragma once

#include <sched.h>

#include <vector>

#include "core/mpi/comm.hpp"

namespace mmbench {

// The ranks whose cores a rank may take: [first, first + count), numbered
// in the communicator their masks were gathered over (node_cpus). A ranks x
// threads hybrid's computing rank takes its own and its idle neighbours'
// (algos/hybrid_plan.hpp); the dgemm peer's rank 0 and a multi-threaded
// configuration take the node's.
struct RankGroup {
  int first = 0;
  int count = 0;  // 0: every rank of the node
  static RankGroup whole_node() { return {}; }
  bool holds(int rank) const { return count == 0 || (rank >= first && rank - first < count); }
};

// One rank's mask, with its rank in the communicator gathered over.
struct RankCpus {
  int rank = 0;
  cpu_set_t cpus;
};
// The masks of the ranks of `comm` that share this rank's node; empty
// where they are not to be touched (SMPI's simulated ranks share one
// process) or this rank could not read its own.
using NodeCpus = std::vector<RankCpus>;

// Collective over `comm`.
NodeCpus node_cpus(const Comm& comm);

// Collective over `world`: node_cpus(world), kept for widen_affinity_for.
// Call once before any widening that names no node of its own.
void record_node_cpus(const Comm& world);

// The CPUs a rank that runs `threads` threads widens to (the decision
// alone; no system call): the union of the masks of the node's ranks in
// `group` where it holds at least `threads` CPUs, else the union of the
// whole node's, else the machine's first `online` CPUs (a job of fewer
// ranks than threads, mpirun -n 1 --threads 2, was bound to fewer cores
// than it asks to use; the kernel keeps only those its cpuset allows).
// Example: 16 ranks bound to one core each (rank r on core r) and a hybrid
// with t = 2: computing rank 4's group is ranks 4 and 5, so it widens to
// cores 4 and 5. Widened to all 16 instead, its two threads and the seven
// other computing ranks' fourteen share 16 cores at the scheduler's will,
// and two of them can land on one core.
cpu_set_t widening_target(const NodeCpus& node, RankGroup group, int threads, long online);

// If this rank may run on fewer CPUs than `threads`, widen its affinity to
// widening_target of `node` (nullptr: the one record_node_cpus kept).
// Returns true if it did; never with an empty node. Local (no MPI).
bool widen_affinity_for(int threads, const NodeCpus* node = nullptr, RankGroup group = RankGroup::whole_node());

// CPUs this rank may run on now.
int cpus_available_to_me();

// widen_affinity_for(threads, node, group) for the lifetime of the object;
// the calling thread's previous mask is restored at the end, also when the
// scope is left by an exception (threads created meanwhile keep the wide
// one). Every widening in mmbench goes through it -- the dgemm peer's
// multiply, a multi-threaded configuration of a sweep, a hybrid's
// computing ranks, tune's threaded DGEMM -- so a configuration that
// follows runs on the mask mpirun gave the rank.
class ScopedWideAffinity {
 public:
  explicit ScopedWideAffinity(int threads, const NodeCpus* node = nullptr, RankGroup group = RankGroup::whole_node());
  ~ScopedWideAffinity();
  ScopedWideAffinity(const ScopedWideAffinity&) = delete;
  ScopedWideAffinity& operator=(const ScopedWideAffinity&) = delete;
  bool widened() const { return widened_; }

 private:
  cpu_set_t saved_;
  bool saved_ok_ = false;
  bool widened_ = false;
};

}  // namespace mmbench
