#include "core/mpi/mpi_env.hpp"

#include "core/mpi/mpi_check.hpp"

namespace mmbench {

MpiEnvironment::MpiEnvironment(int* argc, char*** argv) {
  // FUNNELED: only the main thread calls MPI; BLAS and the local Strassen
  // kernel may run threads of their own.
  int provided = 0;
  MMBENCH_MPI(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided));
  MMBENCH_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
}

MpiEnvironment::~MpiEnvironment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

}  // namespace mmbench
