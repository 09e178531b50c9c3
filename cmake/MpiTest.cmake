# mmbench_mpi_test(NAME <name> RANKS <p...> COMMAND <exe> [args...])
#   registers one ctest per rank count, run through mpirun, labelled mpi.
#
# The environment lets Open MPI run as root and oversubscribe (tests use
# more ranks than this machine has cores): test settings, not code settings.
set(MMBENCH_TEST_ENV
    "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OPENBLAS_NUM_THREADS=1;OMPI_MCA_btl_vader_single_copy_mechanism=none")

if(MMBENCH_SANITIZE)
  # Open MPI's own allocations at exit are not ours to fix: no leak report.
  list(APPEND MMBENCH_TEST_ENV "ASAN_OPTIONS=detect_leaks=0")
endif()

function(mmbench_mpi_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "RANKS;COMMAND;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  foreach(p ${T_RANKS})
    add_test(NAME ${T_NAME}.p${p}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${p} ${MPIEXEC_PREFLAGS} ${T_COMMAND})
    set_tests_properties(${T_NAME}.p${p} PROPERTIES LABELS "mpi;${T_LABELS}" TIMEOUT ${T_TIMEOUT}
                         PROCESSORS ${p} ENVIRONMENT "${MMBENCH_TEST_ENV}")
  endforeach()
endfunction()
