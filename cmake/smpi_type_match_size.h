/* Included into every C file of the ScaLAPACK compiled for SMPI
 * (cmake/ScalapackForSmpi.cmake). SimGrid 3.32 does not implement
 * MPI_Type_match_size (it aborts: "Not yet implemented"), which BLACS's
 * integer routines (igsum2d_, igamx2d_, ...) call to find the MPI type of
 * their Int. This answers for the classes and sizes BLACS asks about. */
#ifndef MMBENCH_SMPI_TYPE_MATCH_SIZE_H
#define MMBENCH_SMPI_TYPE_MATCH_SIZE_H
#include <mpi.h>
static inline int mmbench_smpi_type_match_size(int typeclass, int size, MPI_Datatype* type) {
  if (typeclass == MPI_TYPECLASS_INTEGER && (size == 1 || size == 2 || size == 4 || size == 8)) {
    *type = size == 8 ? MPI_INT64_T : size == 4 ? MPI_INT32_T : size == 2 ? MPI_INT16_T : MPI_INT8_T;
    return MPI_SUCCESS;
  }
  if (typeclass == MPI_TYPECLASS_REAL && (size == 4 || size == 8)) {
    *type = size == 8 ? MPI_DOUBLE : MPI_FLOAT;
    return MPI_SUCCESS;
  }
  return MPI_ERR_ARG;
}
#define MPI_Type_match_size mmbench_smpi_type_match_size
#endif
