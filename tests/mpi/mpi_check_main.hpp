// A minimal harness for tests that run under mpirun: CHECK records a
// failure with its location on the rank that saw it; the exit code is the
// number of failures summed over all ranks (0 = pass), printed by rank 0.
#pragma once

#include <fmt/format.h>
#include <mpi.h>

#include <cstdio>
#include <string>

namespace mmbench::testing {

inline int& failures() {
  static int f = 0;
  return f;
}

inline void fail(const std::string& what, const char* file, int line) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fmt::print(stderr, "FAIL rank {} {}:{}: {}\n", rank, file, line, what);
  ++failures();
}

// Sum of failures over ranks; prints a summary on rank 0.
inline int finish(const char* name) {
  int mine = failures(), total = 0, rank = 0, size = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) fmt::print("{} at p={}: {}\n", name, size, total ? fmt::format("{} failures", total) : "passed");
  return total ? 1 : 0;
}

}  // namespace mmbench::testing

#define CHECK(cond, ...)                                                                     \
  do {                                                                                       \
    if (!(cond)) ::mmbench::testing::fail(std::string(#cond) + " " + fmt::format(__VA_ARGS__), \
                                          __FILE__, __LINE__);                               \
  } while (0)
