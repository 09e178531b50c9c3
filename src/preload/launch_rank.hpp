// This process's rank in MPI_COMM_WORLD, found without linking MPI and
// without ever starting it: libmmbench-lb.so is preloaded into programs (and
// into mpirun itself) whose MPI it must leave alone.
#pragma once

namespace mmbench::preload {

// The launcher's environment (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK);
// else, if the program has MPI initialized, BLACS' process number (= the
// MPI_COMM_WORLD rank), both looked up in the running program; else 0, a
// program started without a launcher.
int launch_rank() noexcept;

}  // namespace mmbench::preload
