// The MPI environment of one mmbench process (RAII around MPI_Init/Finalize).
#pragma once

#include <mpi.h>

namespace mmbench {

class MpiEnvironment {
 public:
  // Initialises MPI and makes MPI_COMM_WORLD return error codes instead of
  // aborting, so that every failing call becomes an MpiError (mpi_check.hpp).
  MpiEnvironment(int* argc, char*** argv);
  ~MpiEnvironment();
  MpiEnvironment(const MpiEnvironment&) = delete;
  MpiEnvironment& operator=(const MpiEnvironment&) = delete;
};

}  // namespace mmbench
