// CPU affinity of ranks that run several threads.
//
// mpirun binds each rank to one core by default when it starts few ranks
// (Open MPI 4: --bind-to core for np <= 2). A rank that then runs T > 1
// BLAS threads would squeeze them all onto that one core and measure half
// the speed or less. Before a rank raises its thread count, mmbench widens
// its affinity to the cores of all ranks on its node -- the cores the job
// was given on that node -- so the threads can spread. OpenBLAS and the
// local Strassen kernel create their extra threads lazily, after this, so
// the new threads inherit the wider mask.
#pragma once

#include <sched.h>

#include "core/mpi/comm.hpp"

namespace mmbench {

// Collective over `world`: records the union of the affinity masks of the
// ranks that share this rank's node. Call once before any widen call.
void record_node_cpus(const Comm& world);

// If this rank may run on fewer CPUs than `threads`, widen its affinity to
// the node's recorded union. Returns true if it did. Local (no MPI).
bool widen_affinity_for(int threads);

// CPUs this rank may run on now.
int cpus_available_to_me();

// widen_affinity_for(threads) for the lifetime of the object; the calling
// thread's previous mask is restored at the end, also when the scope is
// left by an exception (threads created meanwhile keep the wide one). Every
// widening in mmbench goes through it -- the dgemm peer's multiply, a
// multi-threaded configuration of a sweep, tune's threaded DGEMM -- so a
// configuration that follows runs on the mask mpirun gave the rank.
class ScopedWideAffinity {
 public:
  explicit ScopedWideAffinity(int threads);
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
