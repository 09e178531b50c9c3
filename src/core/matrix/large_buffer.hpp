// The container of mmbench's large buffers: matrices (DistMatrix::local),
// message and workspace buffers of the algorithms. The local kernel's
// workspace (local/fast_gemm.cpp) takes the same allocation path.
//
// While a buffer_pool::Scope lives on the thread, buffers come from and go
// back to the process's pool of idle blocks (core/matrix/buffer_pool.hpp).
//
// Every allocation is counted (core/machine/memory_account.hpp), so a run can
// report the high-water mark of its own buffers beside the predicted one.
//
// In the SMPI build, when local computation is charged rather than executed
// (core/simulation.hpp), buffers of 1 MiB or more come from SimGrid's shared
// allocation (SMPI_SHARED_MALLOC): every rank's buffer maps the same few
// physical pages, so p = 1024 ranks at n = 65536 fit in one machine's
// memory. Their contents are then meaningless, which charged mode allows
// (nothing is verified). They still count as the simulated rank's memory.
#pragma once

#include <cstddef>
#include <vector>

namespace mmbench {

// `bytes` (> 0) aligned to `alignment` (a power of two); counted. Throws
// std::bad_alloc.
void* allocate_large(std::size_t bytes, std::size_t alignment);
// Gives back what allocate_large(bytes, alignment) returned (null: nothing).
void free_large(void* p, std::size_t bytes, std::size_t alignment) noexcept;

template <class T>
struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <class U>
  LargeAllocator(const LargeAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_large(n * sizeof(T), alignof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { free_large(p, n * sizeof(T), alignof(T)); }
  template <class U>
  bool operator==(const LargeAllocator<U>&) const {
    return true;
  }
};
template <class T>
using LargeVector = std::vector<T, LargeAllocator<T>>;

}  // namespace mmbench
