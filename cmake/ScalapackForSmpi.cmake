# ScaLAPACK for the SMPI build, from a source tarball the user gives
# (-DMMBENCH_SMPI_SCALAPACK_SOURCE=/path/scalapack-2.2.1.tar.gz: netlib's
# release, or Debian's scalapack_*.orig.tar.gz). Debian's library is
# compiled against Open MPI and cannot run under SMPI; the parts PDGEMM
# needs (BLACS, PBLAS, TOOLS, REDIST: pdgemm_, descinit_, numroc_,
# Cpdgemr2d) are compiled here with SimGrid's wrappers into one static,
# position-independent archive. Nothing is downloaded: without the option
# the SMPI build lists pdgemm but cannot run it (scalapack_availability.hpp).
#
# Sets the target mmbench_scalapack_smpi (an imported archive, built first).
include(ExternalProject)
find_program(MMBENCH_SMPIFF smpiff)
find_program(MMBENCH_GFORTRAN gfortran)
if(NOT MMBENCH_SMPIFF OR NOT MMBENCH_GFORTRAN)
  message(FATAL_ERROR "MMBENCH_SMPI_SCALAPACK_SOURCE needs smpiff (libsimgrid-dev) and gfortran")
endif()
if(NOT EXISTS "${MMBENCH_SMPI_SCALAPACK_SOURCE}")
  message(FATAL_ERROR "MMBENCH_SMPI_SCALAPACK_SOURCE: ${MMBENCH_SMPI_SCALAPACK_SOURCE} does not exist "
                      "(a ScaLAPACK source tarball, e.g. scalapack-2.2.1.tar.gz)")
endif()
set(slmake ${CMAKE_BINARY_DIR}/scalapack-smpi-SLmake.inc)
# smpiff, not smpif90: smpif90 does not compile fixed-form *.f files.
# smpiff adds -ff2c; -fno-f2c after it restores gfortran's own calling
# convention, the one OpenBLAS's Fortran interface uses. -fPIC: smpirun
# loads the executable as a shared object. smpi_type_match_size.h: a call
# SimGrid 3.32 lacks.
file(WRITE ${slmake} "CDEFS = -DAdd_
FC = ${MMBENCH_SMPIFF}
CC = ${MMBENCH_SMPICC}
NOOPT = -O0 -fPIC -fno-f2c
FCFLAGS = -O2 -fPIC -fno-f2c -fallow-argument-mismatch
CCFLAGS = -O2 -fPIC -include ${CMAKE_CURRENT_LIST_DIR}/smpi_type_match_size.h
FCLOADER = $(FC)
CCLOADER = $(CC)
FCLOADFLAGS = $(FCFLAGS)
CCLOADFLAGS = $(CCFLAGS)
ARCH = ar
ARCHFLAGS = cr
RANLIB = ranlib
SCALAPACKLIB = libscalapack-smpi.a
BLASLIB = -lopenblas
LAPACKLIB =
LIBS = $(LAPACKLIB) $(BLASLIB)
")
set(src ${CMAKE_BINARY_DIR}/scalapack-smpi)
# -j1: ScaLAPACK's sub-makes all add to one archive, and in parallel they
# race for it. A changed SLmake.inc configures and builds again, from clean.
ExternalProject_Add(scalapack_smpi_build
  URL ${MMBENCH_SMPI_SCALAPACK_SOURCE}
  DOWNLOAD_EXTRACT_TIMESTAMP ON
  SOURCE_DIR ${src}
  BUILD_IN_SOURCE 1
  CONFIGURE_COMMAND ${CMAKE_COMMAND} -E copy ${slmake} ${src}/SLmake.inc
  BUILD_COMMAND make -j1 cleanlib COMMAND make -j1 blacslib toolslib pblaslib redistlib PRECISIONS=double
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${src}/libscalapack-smpi.a
  LOG_BUILD ON)
ExternalProject_Add_StepDependencies(scalapack_smpi_build configure ${slmake} ${CMAKE_CURRENT_LIST_DIR}/smpi_type_match_size.h)
add_library(mmbench_scalapack_smpi STATIC IMPORTED GLOBAL)
set_target_properties(mmbench_scalapack_smpi PROPERTIES IMPORTED_LOCATION ${src}/libscalapack-smpi.a
                                                        INTERFACE_LINK_LIBRARIES gfortran)
add_dependencies(mmbench_scalapack_smpi scalapack_smpi_build)
get_filename_component(MMBENCH_SMPI_SCALAPACK_NAME ${MMBENCH_SMPI_SCALAPACK_SOURCE} NAME)
