// Whether this build can run ScaLAPACK (MMBENCH_HAVE_SCALAPACK, set by the
// build). The SimGrid SMPI build (-DMMBENCH_SMPI=ON) cannot use Debian's
// ScaLAPACK, bound to Open MPI's ABI; it runs one only where it compiled
// one from a source given to it (-DMMBENCH_SMPI_SCALAPACK_SOURCE,
// cmake/ScalapackForSmpi.cmake). Without it the PDGEMM algorithms stay
// listed, with their cost models, but are not applicable: pdgemm.cpp and
// strassen_pdgemr2d_transport.cpp compile without their ScaLAPACK calls
// there, and check() returns this reason.
#pragma once

#include <string_view>

namespace mmbench::algos {

// Empty when ScaLAPACK runs in this build, else the reason it does not.
constexpr std::string_view scalapack_unavailable() {
#if !MMBENCH_HAVE_SCALAPACK
  return "ScaLAPACK cannot run under SMPI (none compiled for it: -DMMBENCH_SMPI_SCALAPACK_SOURCE)";
#else
  return {};
#endif
}

}  // namespace mmbench::algos
