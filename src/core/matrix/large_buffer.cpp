#include "core/matrix/large_buffer.hpp"

#include <new>

#include "core/matrix/buffer_pool.hpp"
#include "core/machine/memory_account.hpp"
#include "core/simulation.hpp"

namespace mmbench {

void* allocate_large(std::size_t bytes, std::size_t alignment) {
  void* p = nullptr;
  if (sim::shares_buffer(bytes)) {
    p = sim::shared_allocate(bytes);
  } else if (buffer_pool::in_scope() && alignment <= buffer_pool::kAlignment) {
    p = buffer_pool::take(bytes, alignment);
    if (p == nullptr) p = buffer_pool::fresh(bytes);
  } else {
    p = ::operator new(bytes, std::align_val_t(alignment));
  }
  memory_account::add(bytes);
  return p;
}

void free_large(void* p, std::size_t bytes, std::size_t alignment) noexcept {
  if (!p) return;
  memory_account::remove(bytes);
  if (sim::shares_buffer(bytes))
    sim::shared_free(p);
  else if (!buffer_pool::give_back(p))
    ::operator delete(p, std::align_val_t(alignment));
}

}  // namespace mmbench
