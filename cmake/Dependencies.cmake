# All external libraries behind one interface target, mmbench_deps.
#
# ScaLAPACK: Debian's CMake config for scalapack-openmpi points at a wrong
# path, so it is found through pkg-config.
# The SMPI build (MMBENCH_SMPI) takes MPI from smpicxx itself and has
# neither Debian's ScaLAPACK (bound to Open MPI's ABI) nor PAPI; it compiles
# ScaLAPACK itself where given its source (MMBENCH_SMPI_SCALAPACK_SOURCE).
find_package(PkgConfig REQUIRED)
if(NOT MMBENCH_SMPI)
  find_package(MPI REQUIRED COMPONENTS C CXX)  # C: the plain ScaLAPACK test program
  pkg_check_modules(SCALAPACK REQUIRED IMPORTED_TARGET scalapack-openmpi)
  pkg_check_modules(PAPI REQUIRED IMPORTED_TARGET papi)
endif()
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(fmt REQUIRED)

add_library(mmbench_deps INTERFACE)
if(MMBENCH_SMPI AND MMBENCH_SMPI_SCALAPACK_SOURCE)
  # ScaLAPACK compiled for SMPI from the given source (ScalapackForSmpi.cmake);
  # the archive before OpenBLAS, which it calls.
  include(${CMAKE_CURRENT_LIST_DIR}/ScalapackForSmpi.cmake)
  target_link_libraries(mmbench_deps INTERFACE
    mmbench_scalapack_smpi PkgConfig::OPENBLAS CLI11::CLI11 nlohmann_json::nlohmann_json fmt::fmt)
  set(SCALAPACK_VERSION "${MMBENCH_SMPI_SCALAPACK_NAME} compiled for SMPI")
elseif(MMBENCH_SMPI)
  target_link_libraries(mmbench_deps INTERFACE
    PkgConfig::OPENBLAS CLI11::CLI11 nlohmann_json::nlohmann_json fmt::fmt)
  set(SCALAPACK_VERSION "none (SMPI build)")
else()
  # OpenBLAS first: ScaLAPACK's pkg-config names the generic -lblas/-llapack,
  # which Debian's alternatives also resolve to OpenBLAS.
  target_link_libraries(mmbench_deps INTERFACE
    PkgConfig::OPENBLAS PkgConfig::SCALAPACK MPI::MPI_CXX PkgConfig::PAPI
    CLI11::CLI11 nlohmann_json::nlohmann_json fmt::fmt)
endif()
