// Checked MPI calls: every MPI return code goes through here.
//
// MPI's default error handler aborts the job, which prints a wall of text
// from every rank. mmbench installs MPI_ERRORS_RETURN on MPI_COMM_WORLD (see
// mpi_env.cpp) and turns a failing call into a C++ exception that names the
// call, so the caller can report it once and exit cleanly.
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace mmbench {

class MpiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws MpiError("<what>: <MPI error string>") when rc != MPI_SUCCESS.
inline void mpi_check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw MpiError(std::string(what) + ": " + std::string(text, static_cast<size_t>(len)));
}

}  // namespace mmbench

// MMBENCH_MPI(MPI_Send(...)) — checks the call and names it in the error.
#define MMBENCH_MPI(call) ::mmbench::mpi_check((call), #call)
