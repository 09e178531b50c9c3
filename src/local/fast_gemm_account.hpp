// Where a FastGemm multiply's time goes (FastGemmAccount, the CSV's
// local_add_share columns): what one recursion (one thread) carries besides
// its operands, and the two ways it books time, an addition pass of a level
// and a product at the bottom of the recursion. Why the passes are booked
// per level, and what they were measured to cost: docs/method.md §4,
// "Where the time goes".
#pragma once

#include <chrono>
#include <cstdint>

#include "core/simulation.hpp"
#include "local/fast_gemm.hpp"
#include "local/fast_gemm_passes.hpp"

namespace mmbench::local::fast_gemm_detail {

// What one recursion (one thread) needs besides its operands: the
// configuration and where its time goes (FastGemmAccount).
struct Ctx {
  const FastGemmConfig& cfg;
  FastGemmAccount& acc;
  double* pack = nullptr;  // this thread's packing area (cfg.leaf == packed)
};

// How operand passes write their sums (FastGemmConfig::streaming_stores).
inline Stores stores(const Ctx& ctx) { return ctx.cfg.streaming_stores ? Stores::streaming : Stores::cached; }

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Runs one addition pass of level `depth` and books it.
template <class F>
void pass(Ctx& ctx, int depth, F&& f) {
  const auto t0 = Clock::now();
  f();
  ctx.acc.add_seconds[depth] += seconds_since(t0);
  ++ctx.acc.passes[depth];
}

// Runs one product at the bottom of the recursion and books it as a leaf
// (like pass() for additions); in a simulation it is charged as a DGEMM of
// its shape instead.
template <class F>
void leaf(Ctx& ctx, std::int64_t m, std::int64_t n, std::int64_t k, F&& multiply) {
  ++ctx.acc.leaf_calls;
  if (sim::charged()) return sim::charge_dgemm(m, n, k);
  const auto t0 = Clock::now();
  multiply();
  ctx.acc.leaf_seconds += seconds_since(t0);
}

}  // namespace mmbench::local::fast_gemm_detail
