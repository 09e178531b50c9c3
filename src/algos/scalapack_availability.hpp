// Whether this build can run ScaLAPACK. The SimGrid SMPI build
// (-DMMBENCH_SMPI=ON) cannot: Debian's ScaLAPACK is bound to Open MPI's ABI.
// Its PDGEMM algorithms stay listed, with their cost models, but are
// not applicable: pdgemm.cpp and strassen_pdgemr2d_transport.cpp compile
// without their ScaLAPACK calls there, and check() returns this reason.
#pragma once

#include <string_view>

namespace mmbench::algos {

// Empty when ScaLAPACK runs in this build, else the reason it does not.
constexpr std::string_view scalapack_unavailable() {
#ifdef MMBENCH_SMPI
  return "ScaLAPACK cannot run under SMPI";
#else
  return {};
#endif
}

}  // namespace mmbench::algos
