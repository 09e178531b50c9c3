// The container of mmbench's large buffers: matrices (DistMatrix::local),
// message and workspace buffers of the algorithms.
//
// In the normal build LargeVector<T> is std::vector<T>. In the SMPI build,
// when local computation is charged rather than executed
// (core/simulation.hpp), buffers of 1 MiB or more come from SimGrid's shared
// allocation (SMPI_SHARED_MALLOC): every rank's buffer maps the same few
// physical pages, so p = 1024 ranks at n = 65536 fit in one machine's
// memory. Their contents are then meaningless, which charged mode allows
// (nothing is verified).
#pragma once

#include <vector>

#ifdef MMBENCH_SMPI
#include <cstddef>

namespace mmbench::sim {
void* allocate_large(std::size_t bytes);
void free_large(void* p, std::size_t bytes);
}  // namespace mmbench::sim
#endif

namespace mmbench {

#ifdef MMBENCH_SMPI
template <class T>
struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <class U>
  LargeAllocator(const LargeAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(sim::allocate_large(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { sim::free_large(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const LargeAllocator<U>&) const { return true; }
};
template <class T>
using LargeVector = std::vector<T, LargeAllocator<T>>;
#else
template <class T>
using LargeVector = std::vector<T>;
#endif

}  // namespace mmbench
