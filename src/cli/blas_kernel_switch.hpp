// `run --profile P` runs the OpenBLAS core that P's BLAS kernel probe found
// fastest (profile/blas_kernel_record.hpp), when the user pinned none.
//
// OpenBLAS reads OPENBLAS_CORETYPE once, when it is loaded, so the core can
// only change by starting the program again: main() calls
// switch_blas_kernel() before MPI_Init, and it re-executes mmbench with the
// variable set. Every rank reads the same profile and decides the same.
// Nothing happens when OPENBLAS_CORETYPE is already set (a pin is the user's
// or the environment's decision), with --keep-blas-kernel, when the profile
// has no probe or its fastest core is the running one or not worth a switch.
#pragma once

#include <string>

namespace mmbench::cli {

// Returns only where nothing is to be done (or the re-execution failed).
void switch_blas_kernel(int argc, char** argv);

// After a switch: "Cooperlake (was Haswell; profile configs/vm.json)"; "" otherwise.
std::string switched_blas_kernel();

}  // namespace mmbench::cli
