#include "core/large_buffer.hpp"

#include <new>

#include "core/memory_account.hpp"
#include "core/simulation.hpp"

namespace mmbench {

void* allocate_large(std::size_t bytes, std::size_t alignment) {
  void* p = sim::shares_buffer(bytes) ? sim::shared_allocate(bytes)
                                      : ::operator new(bytes, std::align_val_t(alignment));
  memory_account::add(bytes);
  return p;
}

void free_large(void* p, std::size_t bytes, std::size_t alignment) noexcept {
  if (!p) return;
  memory_account::remove(bytes);
  if (sim::shares_buffer(bytes)) sim::shared_free(p);
  else ::operator delete(p, std::align_val_t(alignment));
}

}  // namespace mmbench
