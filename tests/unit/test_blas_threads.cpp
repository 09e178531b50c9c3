// ScopedBlasThreads: the BLAS thread count of a scope, restored on leaving
// it normally or by an exception, and when scopes nest.
#include "core/blas.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace mmbench {
namespace {

TEST(ScopedBlasThreads, RestoresOnEveryPath) {
  set_blas_threads(1);
  {
    const ScopedBlasThreads two(2);
    EXPECT_EQ(blas_threads(), 2);
    {
      const ScopedBlasThreads one(1);
      EXPECT_EQ(blas_threads(), 1);
    }
    EXPECT_EQ(blas_threads(), 2);
  }
  EXPECT_EQ(blas_threads(), 1);
  EXPECT_THROW(
      {
        const ScopedBlasThreads two(2);
        throw std::runtime_error("inside");
      },
      std::runtime_error);
  EXPECT_EQ(blas_threads(), 1);
}

}  // namespace
}  // namespace mmbench
