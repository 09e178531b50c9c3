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

#include "core/comm.hpp"

namespace mmbench {

// Collective over `world`: records the union of the affinity masks of the
// ranks that share this rank's node. Call once before any widen call.
void record_node_cpus(const Comm& world);

// If this rank may run on fewer CPUs than `threads`, widen its affinity to
// the node's recorded union. Returns true if it did. Local (no MPI).
bool widen_affinity_for(int threads);

// CPUs this rank may run on now.
int cpus_available_to_me();

}  // namespace mmbench
