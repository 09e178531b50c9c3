// The shape of a FastGemm multiply, worked out without doing it: which
// schedule each level runs, how the workspace is laid out and how large it
// is, and how many flops are performed. The kernel (fast_gemm_recursion.cpp,
// fast_gemm_parallel.cpp) and its static queries (FastGemm::flops,
// workspace_bytes_needed) both read these, so they cannot disagree.
//
// Workspace (one buffer, 64-byte aligned parts, sized by workspace_doubles()):
// - sequential level (threads = 1, and every level below a parallel top):
//   a fused Winograd level (the default, winograd_fused_level) S1..S4:
//   mh×max(kh, nh) and T1..T4: kh×nh; otherwise Winograd X: mh×max(kh, nh),
//   Y: kh×nh, and at the deepest level Z: mh×nh (the accumulate schedule,
//   winograd_deepest_level); Strassen X: mh×kh, Y: kh×nh, Z: mh×nh.
//   The seven products of a level run one after another and write into C's
//   quadrants or X/Z (fast_gemm_schedules.hpp), so the next level's
//   workspace follows directly and is shared by all seven: the total is a
//   geometric sum, about (8/3)·n² doubles for square fused Winograd
//   (8 quadrants, 2n², per level, shrinking 4×), (2/3)·n² for the
//   two-temporary schedule.
// - with the packed GEMM (FastGemmConfig::leaf = packed) the buffer starts
//   with one packing area per thread (packed_gemm.hpp), and the deepest
//   level needs no temporaries (packed_strassen_level).
// - parallel top level: every operand sum and three of the products get their
//   own buffer (Winograd 4 S, 4 T, 3 P; Strassen 5 + 5 operand sums, 3 Q),
//   because the seven products run at once; then one sequential workspace per
//   thread for the levels below.
#pragma once

#include <algorithm>
#include <cstdint>

#include "local/fast_gemm.hpp"

namespace mmbench::local::fast_gemm_detail {

using i64 = std::int64_t;

constexpr int kMaxLevels = 30;
constexpr i64 kAlignDoubles = 8;  // 64 bytes: a cache line, an AVX-512 vector

inline i64 aligned(i64 doubles) { return (doubles + kAlignDoubles - 1) / kAlignDoubles * kAlignDoubles; }

// The leading dimension of a temporary with `rows` rows: the rows, packed.
// (Padding it to an odd multiple of 64 bytes, against cache-set conflicts of
// power-of-two strides, was tried and was no faster: docs/method.md §4,
// "Where the time goes".)
inline i64 temp_ld(i64 rows) { return std::max<i64>(rows, 1); }

inline bool level_applies(i64 m, i64 n, i64 k, int levels, const FastGemmConfig& cfg) {
  return local_level_applies(m, n, k, levels, cfg.min_dim);
}

// The deepest level: one whose seven products are plain DGEMM calls (the
// level below does not apply). With cfg.accumulate, Winograd's deepest level
// uses the accumulate schedule (winograd_deepest_level).
inline bool deepest(i64 mh, i64 nh, i64 kh, int levels, const FastGemmConfig& cfg) {
  return !level_applies(mh, nh, kh, levels - 1, cfg);
}
inline bool accumulate_level(i64 mh, i64 nh, i64 kh, int levels, const FastGemmConfig& cfg) {
  return cfg.accumulate && cfg.variant == FastVariant::winograd && deepest(mh, nh, kh, levels, cfg);
}
// The deepest level fused into the packed GEMM (packed_strassen_level).
inline bool packed_level(i64 mh, i64 nh, i64 kh, int levels, const FastGemmConfig& cfg) {
  return cfg.leaf == LeafGemm::packed && deepest(mh, nh, kh, levels, cfg);
}
// A Winograd level with fused operand sums (winograd_fused_level).
inline bool fused_level(i64 mh, i64 nh, i64 kh, int levels, const FastGemmConfig& cfg) {
  return cfg.variant == FastVariant::winograd && fuses_level(cfg.fusion, deepest(mh, nh, kh, levels, cfg));
}

inline bool parallel_top(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  return cfg.threads > 1 && level_applies(m, n, k, cfg.levels, cfg);
}

// Doubles the sequential recursion from this shape down needs. All seven
// products of a level have the same shape (mh, nh, kh) and run one after the
// other, so each level adds its own temporaries once:
//   Winograd X (mh × max(kh, nh)) and Y (kh × nh), plus Z (mh × nh) at an
//   accumulate level; a fused Winograd level four of each (S1..S4 sized
//   like X because three of them later hold products, T1..T4 like Y);
//   classic Strassen X, Y, Z.
i64 sequential_workspace(i64 m, i64 n, i64 k, int levels, const FastGemmConfig& cfg);

// Which part of which of the 7 top-level products thread t computes.
// Products are dealt out whole, ⌊7/T⌋ per thread; the 7 mod T remaining ones
// are cut into T column slices, one per thread, so every thread gets 7/T
// products' worth of work. Example T = 2: thread 0 computes products 0-2,
// thread 1 products 3-5, and each computes half of the columns of product 6
// (3.5 each instead of 4 against 3). T = 4: one whole product each, and a
// quarter of each of products 4, 5, 6.
struct ProductPart {
  int product;
  i64 col0;
  i64 cols;
};

template <class F>
void for_each_part(int t, int threads, i64 nh, F&& f) {
  const int whole = 7 / threads;
  for (int p = t * whole; p < (t + 1) * whole; ++p) f(ProductPart{p, 0, nh});
  const i64 c0 = nh * t / threads;
  const i64 c1 = nh * (t + 1) / threads;
  if (c1 > c0)
    for (int p = whole * threads; p < 7; ++p) f(ProductPart{p, c0, c1 - c0});
}

// Buffers of the parallel top level, in workspace order.
struct ParallelLayout {
  int a_sums, b_sums, products;  // how many operand sums / product temporaries
  i64 a_size, b_size, c_size;    // doubles each (aligned)
  i64 per_thread;                // sequential workspace per thread
  i64 temporaries() const { return a_sums * a_size + b_sums * b_size + products * c_size; }
};

ParallelLayout parallel_layout(i64 m, i64 n, i64 k, const FastGemmConfig& cfg);

// With the packed GEMM, the workspace starts with one packing area per
// thread (packed_gemm.hpp: its A and B blocks), then the layout above.
i64 pack_area(const FastGemmConfig& cfg);
inline i64 threads_pack(const FastGemmConfig& cfg) { return cfg.threads * pack_area(cfg); }

// Doubles of the whole workspace of an m×n×k multiply.
i64 workspace_doubles(i64 m, i64 n, i64 k, const FastGemmConfig& cfg);

// ---- operation count (the convention of FastGemm::flops) -------------------

// The additions of one level with quadrants mh×nh×kh.
double addition_flops(i64 mh, i64 nh, i64 kh, FastVariant v);
// The odd-size border of one level (fast_gemm_recursion.cpp, peel_fixup).
double peel_flops(i64 m, i64 n, i64 k);
// Flops of the sequential recursion from this shape down.
double sequential_flops(i64 m, i64 n, i64 k, int levels, const FastGemmConfig& cfg);

}  // namespace mmbench::local::fast_gemm_detail
