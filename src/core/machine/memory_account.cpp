#include "core/machine/memory_account.hpp"

#include <atomic>

namespace mmbench::memory_account {

namespace {
// Atomic: the local kernel's threads may grow a workspace while the main
// thread holds others.
std::atomic<std::size_t> g_current{0};
std::atomic<std::size_t> g_peak{0};
}  // namespace

void add(std::size_t bytes) {
  const std::size_t now = g_current.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::size_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void remove(std::size_t bytes) { g_current.fetch_sub(bytes, std::memory_order_relaxed); }

std::size_t current_bytes() { return g_current.load(std::memory_order_relaxed); }
std::size_t peak_bytes() { return g_peak.load(std::memory_order_relaxed); }
void reset_peak() { g_peak.store(g_current.load(std::memory_order_relaxed), std::memory_order_relaxed); }

}  // namespace mmbench::memory_account
