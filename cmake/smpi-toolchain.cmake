# Toolchain for the SimGrid SMPI build (-DMMBENCH_SMPI=ON): the same sources
# compiled with SimGrid's compiler wrappers, so that mmbench runs as
# simulated ranks under smpirun (scripts/simulate.sh). smpicxx builds a
# position-independent shared object that smpirun loads once per rank.
find_program(MMBENCH_SMPICXX smpicxx)
find_program(MMBENCH_SMPICC smpicc)
if(NOT MMBENCH_SMPICXX OR NOT MMBENCH_SMPICC)
  message(FATAL_ERROR "MMBENCH_SMPI=ON needs smpicxx and smpicc (Debian: libsimgrid-dev; scripts/install-deps.sh)")
endif()
set(CMAKE_CXX_COMPILER ${MMBENCH_SMPICXX})
set(CMAKE_C_COMPILER ${MMBENCH_SMPICC})
