// Large buffers kept for reuse instead of handed back to the system: the
// dispatcher's pool across shapes (docs/dispatch.md, "Memory").
//
// Why: fresh memory costs its first touch -- the kernel maps and zeroes
// every page, and a virtual machine may first have to get the page from its
// host -- while memory a process already holds only costs a rewrite. A
// program whose PDGEMM shapes change call by call (a factorization's
// trailing updates shrink by one block each step) would pay the first touch
// of every shape's buffers; with the pool, a shape's buffers are the last
// shape's, rewritten.
//
// How: one pool per process. While a buffer_pool::Scope lives on a thread,
// allocate_large (core/matrix/large_buffer.hpp) on that thread first takes an idle
// block of the pool -- the smallest one of at least the bytes asked and at
// most twice them, so a small request never pins a big block -- and
// free_large gives a block back to the pool while its idle bytes stay
// within the capacity. A block handed out under a Scope and freed outside
// one goes back to the system. Outside a Scope nothing changes, so mmbench
// run's measurements never see the pool.
//
// Idle blocks are not in memory_account's count (which is of buffers in
// use); idle_bytes() reports them.
#pragma once

#include <cstddef>

namespace mmbench::buffer_pool {

// Pooled blocks are aligned to a page: any LargeVector's alignment.
inline constexpr std::size_t kAlignment = 4096;

// While one lives on this thread (they nest), large buffers come from and go
// back to the pool.
class Scope {
 public:
  Scope();
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
};
bool in_scope();  // on this thread

// Most idle bytes the pool keeps (0, the start: it keeps none); lowering it
// frees idle blocks, largest first, down to it.
void set_capacity(std::size_t bytes);
std::size_t capacity();
std::size_t idle_bytes();
// Frees idle blocks, largest first, until at most `bytes` stay idle.
void trim(std::size_t bytes);

// Bytes of the requests this thread got from idle blocks since the last
// reset_served() on this thread (the census's pooled_mib).
std::size_t served_bytes();
void reset_served();

// For allocate_large / free_large only. take: an idle block for `bytes`
// at `alignment`, or nullptr; fresh: a new block the pool will know;
// give_back: true when p was the pool's (kept idle or freed), false when
// the caller must free it.
void* take(std::size_t bytes, std::size_t alignment);
void* fresh(std::size_t bytes);
bool give_back(void* p) noexcept;

}  // namespace mmbench::buffer_pool
