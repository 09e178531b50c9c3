// launch_rank (src/preload): the rank from the launcher's variables, in
// their order, bad values skipped, and 0 without any -- all without starting
// MPI; once the program has started MPI, BLACS' process number (0 here, a
// singleton).
#include "preload/launch_rank.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>

namespace mmbench::preload {
namespace {

void clear() {
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) unsetenv(v);
}

TEST(LaunchRank, FromTheEnvironmentWithoutStartingMpi) {
  clear();
  EXPECT_EQ(launch_rank(), 0);
  setenv("PMI_RANK", "7", 1);
  EXPECT_EQ(launch_rank(), 7);
  setenv("PMIX_RANK", "5", 1);
  EXPECT_EQ(launch_rank(), 5);
  setenv("OMPI_COMM_WORLD_RANK", "3", 1);
  EXPECT_EQ(launch_rank(), 3);
  setenv("OMPI_COMM_WORLD_RANK", "x3", 1);  // not a rank: the next variable
  EXPECT_EQ(launch_rank(), 5);
  setenv("PMIX_RANK", "-1", 1);
  EXPECT_EQ(launch_rank(), 7);
  setenv("PMI_RANK", "", 1);
  EXPECT_EQ(launch_rank(), 0);
  int up = 1;
  ASSERT_EQ(MPI_Initialized(&up), MPI_SUCCESS);
  EXPECT_FALSE(up) << "launch_rank started MPI";
  clear();
}

TEST(LaunchRank, FromBlacsOnceMpiIsUp) {
  clear();
  ASSERT_EQ(MPI_Init(nullptr, nullptr), MPI_SUCCESS);
  EXPECT_EQ(launch_rank(), 0);
  EXPECT_EQ(MPI_Finalize(), MPI_SUCCESS);
}

}  // namespace
}  // namespace mmbench::preload
