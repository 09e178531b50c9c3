#include "core/matrix/buffer_pool.hpp"

#include <atomic>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

namespace mmbench::buffer_pool {

namespace {

struct Pool {
  std::mutex mutex;
  std::unordered_map<void*, std::size_t> blocks;  // every block the pool knows, in use or idle, by its size
  std::multimap<std::size_t, void*> idle;         // idle blocks by size
  std::size_t idle_bytes = 0, capacity = 0;
  std::atomic<bool> knows_any{false};  // free_large's fast path: no block was ever the pool's
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: buffers may be freed during static destruction
  return *p;
}

thread_local int depth = 0;
thread_local std::size_t served = 0;

void release(void* p) noexcept { ::operator delete(p, std::align_val_t(kAlignment)); }

// With the lock held: frees idle blocks, largest first, until at most `bytes` stay idle.
void trim_locked(Pool& pl, std::size_t bytes) {
  while (pl.idle_bytes > bytes && !pl.idle.empty()) {
    auto last = std::prev(pl.idle.end());
    pl.idle_bytes -= last->first;
    pl.blocks.erase(last->second);
    release(last->second);
    pl.idle.erase(last);
  }
}

}  // namespace

Scope::Scope() { ++depth; }
Scope::~Scope() { --depth; }
bool in_scope() { return depth > 0; }

void set_capacity(std::size_t bytes) {
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  pl.capacity = bytes;
  trim_locked(pl, bytes);
}

std::size_t capacity() {
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  return pl.capacity;
}

std::size_t idle_bytes() {
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  return pl.idle_bytes;
}

void trim(std::size_t bytes) {
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  trim_locked(pl, bytes);
}

std::size_t served_bytes() { return served; }
void reset_served() { served = 0; }

void* take(std::size_t bytes, std::size_t alignment) {
  if (alignment > kAlignment) return nullptr;
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  // The smallest idle block of at least `bytes`, if it is at most twice them.
  auto it = pl.idle.lower_bound(bytes);
  if (it == pl.idle.end() || it->first / 2 > bytes) return nullptr;
  void* p = it->second;
  pl.idle_bytes -= it->first;
  pl.idle.erase(it);
  served += bytes;
  return p;
}

void* fresh(std::size_t bytes) {
  void* p = ::operator new(bytes, std::align_val_t(kAlignment));
  Pool& pl = pool();
  try {
    std::lock_guard<std::mutex> lock(pl.mutex);
    pl.blocks.emplace(p, bytes);
    pl.knows_any = true;
  } catch (...) {
    release(p);
    throw;
  }
  return p;
}

bool give_back(void* p) noexcept {
  Pool& pl = pool();
  if (!pl.knows_any.load(std::memory_order_relaxed)) return false;
  std::unique_lock<std::mutex> lock(pl.mutex);
  auto it = pl.blocks.find(p);
  if (it == pl.blocks.end()) return false;
  const std::size_t size = it->second;
  if (in_scope() && pl.idle_bytes + size <= pl.capacity) {
    try {
      pl.idle.emplace(size, p);
      pl.idle_bytes += size;
      return true;
    } catch (...) {
      // No room for the bookkeeping: free it instead.
    }
  }
  pl.blocks.erase(it);
  lock.unlock();
  release(p);
  return true;
}

}  // namespace mmbench::buffer_pool
