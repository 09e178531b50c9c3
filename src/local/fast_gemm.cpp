// Strassen–Winograd / Strassen levels on top of DGEMM; see fast_gemm.hpp.
//
// One level, with A, B, C split into 2×2 quadrants of the *even* part
// (quadrant sizes mh = ⌊m/2⌋, nh = ⌊n/2⌋, kh = ⌊k/2⌋):
//
//   Winograd (15 additions)              classic Strassen (18, docs/method.md §3.1)
//   S1 = A21 + A22   T1 = B12 - B11      Q1 = (A11 + A22)(B11 + B22)
//   S2 = S1 - A11    T2 = B22 - T1       Q2 = (A21 + A22) B11
//   S3 = A11 - A21   T3 = B22 - B12      Q3 = A11 (B12 - B22)
//   S4 = A12 - S2    T4 = T2 - B21       Q4 = A22 (B21 - B11)
//   P1 = A11 B11     P5 = S1 T1          Q5 = (A11 + A12) B22
//   P2 = A12 B21     P6 = S2 T2          Q6 = (A21 - A11)(B11 + B12)
//   P3 = S4 B22      P7 = S3 T3          Q7 = (A12 - A22)(B21 + B22)
//   P4 = A22 T4
//   U2 = P1 + P6, U3 = U2 + P7, U4 = U2 + P5
//   C11 = P1 + P2    C12 = U4 + P3       C11 = Q1 + Q4 - Q5 + Q7   C12 = Q3 + Q5
//   C21 = U3 - P4    C22 = U3 + P5       C21 = Q2 + Q4             C22 = Q1 - Q2 + Q3 + Q6
//
// Odd sizes: dynamic peeling, not padding. A level multiplies the even part
// A[0:2mh, 0:2kh]·B[0:2kh, 0:2nh] into C[0:2mh, 0:2nh] and then fixes up with
// BLAS-2 calls (O(mn + mk + nk) work, no copies):
//   k odd: C[0:2mh, 0:2nh] += A[0:2mh, k-1] · B[k-1, 0:2nh]   (DGER, rank 1)
//   n odd: C[0:2mh, n-1]    = A[0:2mh, :]   · B[:, n-1]        (DGEMV)
//   m odd: C[m-1, :]        = A[m-1, :]     · B                (DGEMV, transposed)
// Example m = 5, n = 3, k = 7: the level works on 4×2×6 (quadrants 2×1×3);
// DGER adds A[0:4, 6]·B[6, 0:2], DGEMV fills column 2 rows 0..3, and the
// transposed DGEMV fills row 4 (all three columns). Padding would copy A, B
// and C into larger buffers on every call and multiply zeros; peeling touches
// only the thin border and works on the caller's storage directly. Each level
// peels again, so any shape reaches the recursion.
//
// Workspace (one buffer, 64-byte aligned parts, sized by workspace_doubles()):
// - sequential level (threads = 1, and every level below a parallel top):
//   a fused Winograd level (the default, winograd_fused_level) S1..S4:
//   mh×max(kh, nh) and T1..T4: kh×nh; otherwise Winograd X: mh×max(kh, nh),
//   Y: kh×nh, and at the deepest level Z: mh×nh (the accumulate schedule,
//   winograd_deepest_level); Strassen X: mh×kh, Y: kh×nh, Z: mh×nh.
//   The seven products of a level run one after another and write into C's
//   quadrants or X/Z (schedules below), so the next level's workspace follows
//   directly and is shared by all seven: the total is a geometric sum,
//   about (8/3)·n² doubles for square fused Winograd (8 quadrants, 2n², per
//   level, shrinking 4×), (2/3)·n² for the two-temporary schedule.
//
// Where the time goes (FastGemmAccount, the CSV's local_add_share columns):
// measured on this VM (one core, n = 8192, three levels, 2 rounds under
// load), DGEMM leaves 16.0 s and addition passes 1.3-1.6 s of ~17.5 s. The
// leaves run at ~98 % of the full-size DGEMM's rate, so the passes are what
// the schedule can still win; they are memory-bound (DRAM at the top levels,
// 20-25 GB/s), hence the fused operand sums (16 instead of 24 quadrant
// touches per level) and the accumulate schedule at the deepest level, whose
// 7^(L-1) instances carry the largest share of them: the passes fell from
// 1.34 to 0.82 s (fast_gemm.hpp, FastGemmConfig::fusion).
// Those figures ran OpenBLAS's Haswell (AVX2) kernels, which the VM's
// environment pins (OPENBLAS_CORETYPE=Haswell, core/blas.cpp). With the
// detected AVX-512 kernels DGEMM is ~1.7x faster and the additions are not:
// at n = 8192, L = 3, one thread, DGEMM 13.4 s, leaves 9.57 s (ideal 8.98)
// and passes 0.57 s, so the leaves' and the passes' losses are about equal
// and the kernel keeps less of (8/7)^3 than with the AVX2 kernels
// (docs/results.md, "Local Strassen–Winograd vs DGEMM", the schedules). The
// faster DGEMM is, the more the addition traffic costs relative to it.
// - with the packed GEMM (FastGemmConfig::leaf = packed) the buffer starts
//   with one packing area per thread (packed_gemm.hpp), and the deepest
//   level needs no temporaries (packed_strassen_level).
// - parallel top level: every operand sum and three of the products get their
//   own buffer (Winograd 4 S, 4 T, 3 P; Strassen 5 + 5 operand sums, 3 Q),
//   because the seven products run at once; then one sequential workspace per
//   thread for the levels below.
#include "local/fast_gemm.hpp"

#include <cblas.h>

#include <algorithm>
#include <array>
#include <barrier>
#include <chrono>
#include <climits>
#include <cmath>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/blas.hpp"
#include "core/simulation.hpp"
#include "local/fast_gemm_passes.hpp"
#include "local/packed_gemm.hpp"
#include "local/strassen_coefficients.hpp"

namespace mmbench::local {
namespace {

using i64 = std::int64_t;

constexpr int kMaxLevels = 30;
constexpr i64 kAlignDoubles = 8;  // 64 bytes: a cache line, an AVX-512 vector
constexpr std::align_val_t kAlignBytes{64};

i64 aligned(i64 doubles) { return (doubles + kAlignDoubles - 1) / kAlignDoubles * kAlignDoubles; }

// The leading dimension of a temporary with `rows` rows: the rows, packed.
// (Padding it to an odd multiple of 64 bytes, against cache-set conflicts of
// power-of-two strides, was tried and measured no faster: passes over
// sub-quadrants of 2048-row temporaries ran slower with ld = 2056 than with
// ld = 2048.)
i64 temp_ld(i64 rows) { return std::max<i64>(rows, 1); }

bool level_applies(i64 m, i64 n, i64 k, int levels, const FastGemmConfig& cfg) {
  return local_level_applies(m, n, k, levels, cfg.min_dim);
}

// The deepest level: one whose seven products are plain DGEMM calls (the
// level below does not apply). With cfg.accumulate, Winograd's deepest level
// uses the accumulate schedule (winograd_deepest_level).
bool deepest(i64 mh, i64 nh, i64 kh, int levels, const FastGemmConfig& cfg) {
  return !level_applies(mh, nh, kh, levels - 1, cfg);
}
bool accumulate_level(i64 mh, i64 nh, i64 kh, int levels, const FastGemmConfig& cfg) {
  return cfg.accumulate && cfg.variant == FastVariant::winograd && deepest(mh, nh, kh, levels, cfg);
}
// The deepest level fused into the packed GEMM (packed_strassen_level).
bool packed_level(i64 mh, i64 nh, i64 kh, int levels, const FastGemmConfig& cfg) {
  return cfg.leaf == LeafGemm::packed && deepest(mh, nh, kh, levels, cfg);
}
// A Winograd level with fused operand sums (winograd_fused_level).
bool fused_level(i64 mh, i64 nh, i64 kh, int levels, const FastGemmConfig& cfg) {
  return cfg.variant == FastVariant::winograd && fuses_level(cfg.fusion, deepest(mh, nh, kh, levels, cfg));
}

// Doubles the sequential recursion from this shape down needs. All seven
// products of a level have the same shape (mh, nh, kh) and run one after the
// other, so each level adds its own temporaries once:
//   Winograd X (mh × max(kh, nh)) and Y (kh × nh), plus Z (mh × nh) at an
//   accumulate level; a fused Winograd level four of each (S1..S4 sized
//   like X because three of them later hold products, T1..T4 like Y);
//   classic Strassen X, Y, Z.
i64 sequential_workspace(i64 m, i64 n, i64 k, int levels, const FastGemmConfig& cfg) {
  i64 total = 0;
  while (level_applies(m, n, k, levels, cfg)) {
    const i64 mh = m / 2, nh = n / 2, kh = k / 2;
    const i64 ldm = temp_ld(mh), ldk = temp_ld(kh);
    if (packed_level(mh, nh, kh, levels, cfg)) {
      // none: operand sums are formed while packing, products land in C
    } else if (fused_level(mh, nh, kh, levels, cfg)) {
      total += 4 * aligned(ldm * std::max(kh, nh)) + 4 * aligned(ldk * nh);
    } else if (cfg.variant == FastVariant::winograd) {
      total += aligned(ldm * std::max(kh, nh)) + aligned(ldk * nh);
      if (accumulate_level(mh, nh, kh, levels, cfg)) total += aligned(ldm * nh);
    } else {
      total += aligned(ldm * kh) + aligned(ldk * nh) + aligned(ldm * nh);
    }
    m = mh, n = nh, k = kh;
    --levels;
  }
  return total;
}

bool parallel_top(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  return cfg.threads > 1 && level_applies(m, n, k, cfg.levels, cfg);
}

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

// Sequential workspace each thread needs at a parallel top level.
i64 per_thread_workspace(i64 mh, i64 nh, i64 kh, const FastGemmConfig& cfg) {
  i64 most = 0;
  for (int t = 0; t < cfg.threads; ++t)
    for_each_part(t, cfg.threads, nh, [&](const ProductPart& part) {
      most = std::max(most, sequential_workspace(mh, part.cols, kh, cfg.levels - 1, cfg));
    });
  return most;
}

// Buffers of the parallel top level, in workspace order.
struct ParallelLayout {
  int a_sums, b_sums, products;  // how many operand sums / product temporaries
  i64 a_size, b_size, c_size;    // doubles each (aligned)
  i64 per_thread;                // sequential workspace per thread
  i64 temporaries() const { return a_sums * a_size + b_sums * b_size + products * c_size; }
};

ParallelLayout parallel_layout(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  ParallelLayout l{};
  const bool w = cfg.variant == FastVariant::winograd;
  l.a_sums = w ? 4 : 5;
  l.b_sums = w ? 4 : 5;
  l.products = 3;
  l.a_size = aligned(temp_ld(mh) * kh);
  l.b_size = aligned(temp_ld(kh) * nh);
  l.c_size = aligned(temp_ld(mh) * nh);
  l.per_thread = per_thread_workspace(mh, nh, kh, cfg);
  return l;
}

// With the packed GEMM, the workspace starts with one packing area per
// thread (packed_gemm.hpp: its A and B blocks), then the layout above.
i64 pack_area(const FastGemmConfig& cfg) {
  return cfg.leaf == LeafGemm::packed
             ? aligned(static_cast<i64>(packed_workspace_doubles(packed_isa(), cfg.packed_blocking)))
             : 0;
}

i64 threads_pack(const FastGemmConfig& cfg) { return cfg.threads * pack_area(cfg); }

i64 workspace_doubles(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  const i64 packing = threads_pack(cfg);
  if (!parallel_top(m, n, k, cfg)) return packing + sequential_workspace(m, n, k, cfg.levels, cfg);
  const ParallelLayout l = parallel_layout(m, n, k, cfg);
  return packing + l.temporaries() + cfg.threads * l.per_thread;
}

// ---- operation count ------------------------------------------------------

double addition_flops(i64 mh, i64 nh, i64 kh, FastVariant v) {
  const double a = static_cast<double>(mh) * kh, b = static_cast<double>(kh) * nh,
               c = static_cast<double>(mh) * nh;
  return v == FastVariant::winograd ? 4 * a + 4 * b + 7 * c : 5 * a + 5 * b + 8 * c;
}

double peel_flops(i64 m, i64 n, i64 k) {
  const i64 me = m & ~i64{1}, ne = n & ~i64{1}, ke = k & ~i64{1};
  double f = 0;
  if (k > ke) f += 2.0 * me * ne;
  if (n > ne) f += 2.0 * me * k;
  if (m > me) f += 2.0 * k * n;
  return f;
}

double sequential_flops(i64 m, i64 n, i64 k, int levels, const FastGemmConfig& cfg) {
  if (!level_applies(m, n, k, levels, cfg)) return 2.0 * m * n * k;
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  // A packed level computes classic Strassen's sums (while packing).
  const FastVariant v = packed_level(mh, nh, kh, levels, cfg) ? FastVariant::strassen : cfg.variant;
  return 7 * sequential_flops(mh, nh, kh, levels - 1, cfg) + addition_flops(mh, nh, kh, v) + peel_flops(m, n, k);
}

// ---- accounting -------------------------------------------------------------

// What one recursion (one thread) needs besides its operands: the
// configuration and where its time goes (FastGemmAccount).
struct Ctx {
  const FastGemmConfig& cfg;
  FastGemmAccount& acc;
  double* pack = nullptr;  // this thread's packing area (cfg.leaf == packed)
};

// How operand passes write their sums (FastGemmConfig::streaming_stores).
Stores stores(const Ctx& ctx) { return ctx.cfg.streaming_stores ? Stores::streaming : Stores::cached; }

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
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

// ---- BLAS ---------------------------------------------------------------

int blas_int(i64 v) { return static_cast<int>(v); }  // range checked in multiply()

// Runs one product at the bottom of the recursion and books it as a leaf
// (like pass() for additions); in a simulation it is charged as a DGEMM of
// its shape instead.
template <class F>
void leaf(Ctx& ctx, i64 m, i64 n, i64 k, F&& multiply) {
  ++ctx.acc.leaf_calls;
  if (sim::charged()) return sim::charge_dgemm(m, n, k);
  const auto t0 = Clock::now();
  multiply();
  ctx.acc.leaf_seconds += seconds_since(t0);
}

// C = alpha·A·B + beta·C at the bottom of the recursion: OpenBLAS's DGEMM,
// or the packed GEMM (beta 0 or 1 there, all the schedules use).
void leaf_dgemm(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c, double alpha = 1.0,
                double beta = 0.0) {
  if (ctx.cfg.leaf == LeafGemm::packed) {
    if (beta != 0.0 && beta != 1.0) throw std::logic_error("leaf_dgemm: the packed GEMM takes beta 0 or 1");
    const PackedTerm at{a.data, a.ld, 1.0}, bt{b.data, b.ld, 1.0};
    const PackedDestination ct{c.data, c.ld, alpha, beta == 0.0};
    return leaf(ctx, m, n, k, [&] { packed_gemm(m, n, k, &at, 1, &bt, 1, &ct, 1, ctx.pack, packed_isa(), ctx.cfg.packed_blocking);
    });
  }
  leaf(ctx, m, n, k, [&] {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, blas_int(m), blas_int(n), blas_int(k), alpha, a.data,
                blas_int(a.ld), b.data, blas_int(b.ld), beta, c.data, blas_int(c.ld));
  });
}

// The border of an odd-sized level (see the file comment), after the even
// part C[0:me, 0:ne] has been computed.
void peel_fixup(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c) {
  const i64 me = m & ~i64{1}, ne = n & ~i64{1}, ke = k & ~i64{1};
  if (me == m && ne == n && ke == k) return;
  if (sim::charged()) {  // the same flops, charged (core/simulation.hpp)
    sim::charge_dgemm(me, ne, k - ke);
    sim::charge_dgemm(me, n - ne, k);
    sim::charge_dgemm(m - me, n, k);
    return;
  }
  const auto t0 = Clock::now();
  if (k > ke)
    cblas_dger(CblasColMajor, blas_int(me), blas_int(ne), 1.0, a.data + ke * a.ld, 1,
               b.data + ke, blas_int(b.ld), c.data, blas_int(c.ld));
  if (n > ne)
    cblas_dgemv(CblasColMajor, CblasNoTrans, blas_int(me), blas_int(k), 1.0, a.data,
                blas_int(a.ld), b.data + ne * b.ld, 1, 0.0, c.data + ne * c.ld, 1);
  if (m > me)
    cblas_dgemv(CblasColMajor, CblasTrans, blas_int(k), blas_int(n), 1.0, b.data,
                blas_int(b.ld), a.data + me, blas_int(a.ld), 0.0, c.data + me,
                blas_int(c.ld));
  ctx.acc.fixup_seconds += seconds_since(t0);
}

// ---- quadrants ----------------------------------------------------------

// Quadrant (i, j) of a block split into rows×cols quadrants: offset i·rows
// down and j·cols across (column-major: j·cols·ld elements).
ConstBlock quad(ConstBlock x, int i, int j, i64 rows, i64 cols) {
  return {x.data + i * rows + j * cols * x.ld, x.ld};
}
Block quad(Block x, int i, int j, i64 rows, i64 cols) {
  return {x.data + i * rows + j * cols * x.ld, x.ld};
}

struct Quadrants {
  ConstBlock a11, a12, a21, a22, b11, b12, b21, b22;
  Block c11, c12, c21, c22;
};

Quadrants split(ConstBlock a, ConstBlock b, Block c, i64 mh, i64 nh, i64 kh) {
  return {quad(a, 0, 0, mh, kh), quad(a, 0, 1, mh, kh), quad(a, 1, 0, mh, kh),
          quad(a, 1, 1, mh, kh), quad(b, 0, 0, kh, nh), quad(b, 0, 1, kh, nh),
          quad(b, 1, 0, kh, nh), quad(b, 1, 1, kh, nh), quad(c, 0, 0, mh, nh),
          quad(c, 0, 1, mh, nh), quad(c, 1, 0, mh, nh), quad(c, 1, 1, mh, nh)};
}

// ---- sequential recursion -----------------------------------------------

// `depth` is the level being done (1 = top), for the account.
void multiply_sequential(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c,
                         int levels, double* ws, int depth);

// One Winograd level with two temporaries; products land in C's quadrants
// or X (a schedule of Boyer, Dumas, Pernet and Zhou, "Memory efficient
// scheduling of Strassen-Winograd's matrix multiplication algorithm", 2009).
// Step numbers refer to that order; steps 13-17 are fused into one pass.
// 11 passes: 8 operand sums, 3 result combinations.
void winograd_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels, double* ws,
                    int depth) {
  const Block x{ws, temp_ld(mh)};  // mh×kh operand sums, later P1 (mh×nh)
  const Block y{ws + aligned(x.ld * std::max(kh, nh)), temp_ld(kh)};  // kh×nh
  double* next = y.data + aligned(y.ld * nh);
  const Columns ak{mh, 0, kh}, bn{kh, 0, nh}, cn{mh, 0, nh};
  auto product = [&](ConstBlock l, ConstBlock r, Block out) {
    multiply_sequential(ctx, mh, nh, kh, l, r, out, levels - 1, next, depth + 1);
  };
  auto add_pass = [&](auto f) { pass(ctx, depth, f); };
  add_pass([&] { sub(ak, q.a11, q.a21, x); });            // 1  X = S3
  add_pass([&] { sub(bn, q.b22, q.b12, y); });            // 2  Y = T3
  product(x, y, q.c21);                                   // 3  C21 = P7
  add_pass([&] { add(ak, q.a21, q.a22, x); });            // 4  X = S1
  add_pass([&] { sub(bn, q.b12, q.b11, y); });            // 5  Y = T1
  product(x, y, q.c22);                                   // 6  C22 = P5
  add_pass([&] { sub_in_place(ak, x, q.a11); });          // 7  X = S2 = S1 - A11
  add_pass([&] { reverse_sub_in_place(bn, y, q.b22); });  // 8  Y = T2 = B22 - T1
  product(x, y, q.c12);                                   // 9  C12 = P6
  add_pass([&] { reverse_sub_in_place(ak, x, q.a12); });  // 10 X = S4 = A12 - S2
  product(x, q.b22, q.c11);                               // 11 C11 = P3
  product(q.a11, q.b11, x);                               // 12 X = P1
  // 13-17: C12 = U5 = P1 + P6 + P5 + P3 (final), C21 = U3 = P1 + P6 + P7,
  // C22 = U7 = U3 + P5 (final).
  add_pass([&] { winograd_combine_partial(cn, x, q.c11, q.c12, q.c21, q.c22); });
  add_pass([&] { sub_in_place(bn, y, q.b21); });          // 18 Y = T4 = T2 - B21
  product(q.a22, y, q.c11);                               // 19 C11 = P4
  add_pass([&] { sub_in_place(cn, q.c21, q.c11); });      // 20 C21 = U3 - P4 (final)
  product(q.a12, q.b21, q.c11);                           // 21 C11 = P2
  add_pass([&] { add_in_place(cn, q.c11, x); });          // 22 C11 = P2 + P1 (final)
}

// The deepest Winograd level, whose seven products are DGEMM calls
// ("accumulate schedule"). DGEMM computes C = alpha·A·B + beta·C at no extra
// cost (OpenBLAS's kernel always adds into C; beta = 0 even costs one more
// pass to clear C first), so two of the seven result additions move into
// DGEMM: C21 -= A22·T4 (P4) and C11 += A12·B21 (P2). The remaining five
// additions form one pass. P1 must stay in C11 until that pass, so P6 needs
// a third temporary Z (mh×nh) instead of landing in C12.
//   passes: 8 operand sums + 1 combination = 9 (Boyer et al.: 8 + 3 = 11),
//   and two of the seven DGEMMs run with beta = 1 instead of 0.
// Example 2×2 (quadrants 1×1) with A = [a b; c d], B = [e f; g h]:
//   C11 = P1 + P2 = ae + bg (P1 = ae by DGEMM, then += bg by DGEMM's beta).
void winograd_deepest_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, double* ws,
                            int depth) {
  const Block x{ws, temp_ld(mh)};  // mh×kh operand sums
  const Block y{ws + aligned(x.ld * std::max(kh, nh)), temp_ld(kh)};  // kh×nh
  const Block z{y.data + aligned(y.ld * nh), temp_ld(mh)};           // mh×nh: P6
  const Columns ak{mh, 0, kh}, bn{kh, 0, nh}, cn{mh, 0, nh};
  auto product = [&](ConstBlock l, ConstBlock r, Block out, double alpha = 1.0, double beta = 0.0) {
    leaf_dgemm(ctx, mh, nh, kh, l, r, out, alpha, beta);
  };
  auto add_pass = [&](auto f) { pass(ctx, depth, f); };
  add_pass([&] { sub(ak, q.a11, q.a21, x); });            // X = S3
  add_pass([&] { sub(bn, q.b22, q.b12, y); });            // Y = T3
  product(x, y, q.c21);                                   // C21 = P7
  add_pass([&] { add(ak, q.a21, q.a22, x); });            // X = S1
  add_pass([&] { sub(bn, q.b12, q.b11, y); });            // Y = T1
  product(x, y, q.c22);                                   // C22 = P5
  add_pass([&] { sub_in_place(ak, x, q.a11); });          // X = S2 = S1 - A11
  add_pass([&] { reverse_sub_in_place(bn, y, q.b22); });  // Y = T2 = B22 - T1
  product(x, y, z);                                       // Z = P6
  add_pass([&] { reverse_sub_in_place(ak, x, q.a12); });  // X = S4 = A12 - S2
  product(x, q.b22, q.c12);                               // C12 = P3
  product(q.a11, q.b11, q.c11);                           // C11 = P1
  // C12 = P1 + P6 + P5 + P3 (final), C21 = P1 + P6 + P7 (= U3), C22 = U3 + P5 (final).
  add_pass([&] { winograd_combine_accumulate(cn, q.c11, z, q.c12, q.c21, q.c22); });
  add_pass([&] { sub_in_place(bn, y, q.b21); });          // Y = T4 = T2 - B21
  product(q.a22, y, q.c21, -1.0, 1.0);                    // C21 = U3 - P4 (final)
  product(q.a12, q.b21, q.c11, 1.0, 1.0);                 // C11 = P1 + P2 (final)
}

// ---- Winograd's seven products once their operand sums exist ----------------

struct ProductSpec {
  ConstBlock left, right;
  Block out;
};

// P1..P7 (index 0..6) with S1..S4 in s, T1..T4 in t: P2..P5 land in C11,
// C12, C21, C22, and P1, P6, P7 in the temporaries p1, p6, p7, which is
// what winograd_combine expects. Used by the fused level and the parallel
// top level.
std::array<ProductSpec, 7> winograd_products(const Quadrants& q, const std::array<Block, 4>& s,
                                             const std::array<Block, 4>& t, Block p1, Block p6, Block p7) {
  return {{{q.a11, q.b11, p1},       // P1
           {q.a12, q.b21, q.c11},    // P2
           {s[3], q.b22, q.c12},     // P3 = S4 B22
           {q.a22, t[3], q.c21},     // P4 = A22 T4
           {s[0], t[0], q.c22},      // P5 = S1 T1
           {s[1], t[1], p6},         // P6 = S2 T2
           {s[2], t[2], p7}}};       // P7 = S3 T3
}

// A Winograd level with fused operand sums ("fused schedule", cfg.fusion):
// two passes compute S1..S4 and T1..T4 into eight buffers, each input
// quadrant read once (16 quadrant touches; the two-temporary schedules
// above need 24, because S2, S4, T2, T4 re-read the sums before them). The
// products then read their own operands, so no product waits for a sum pass
// in between, and three of the S buffers, dead by then, take products:
//   deepest level with cfg.accumulate (products are DGEMM calls):
//     C21 = P7, C22 = P5, S1 <- P6, C12 = P3, C11 = P1,
//     winograd_combine_accumulate, then DGEMM's beta: C21 -= A22·T4 (P4),
//     C11 += A12·B21 (P2).                        3 passes, 24 touches
//   any other level (products may recurse, so none can accumulate):
//     C11 = P2, C12 = P3, C21 = P4, C22 = P5, S1 <- P6, S4 <- P7, S2 <- P1,
//     winograd_combine (the parallel top level's pass). 3 passes, 27 touches
// The price is workspace: 4 + 4 quadrant buffers instead of 2 (or 3).
void winograd_fused_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels,
                          double* ws, int depth) {
  const i64 s_size = aligned(temp_ld(mh) * std::max(kh, nh)), t_size = aligned(temp_ld(kh) * nh);
  std::array<Block, 4> s{}, t{};  // s[i] = S(i+1), t[i] = T(i+1)
  for (int i = 0; i < 4; ++i) s[i] = {ws + i * s_size, temp_ld(mh)};
  for (int i = 0; i < 4; ++i) t[i] = {ws + 4 * s_size + i * t_size, temp_ld(kh)};
  double* next = ws + 4 * s_size + 4 * t_size;
  const Columns ak{mh, 0, kh}, bn{kh, 0, nh}, cn{mh, 0, nh};
  auto add_pass = [&](auto f) { pass(ctx, depth, f); };
  add_pass([&] { winograd_a_operands(ak, q.a11, q.a12, q.a21, q.a22, s[0], s[1], s[2], s[3], stores(ctx)); });
  add_pass([&] { winograd_b_operands(bn, q.b11, q.b12, q.b21, q.b22, t[0], t[1], t[2], t[3], stores(ctx)); });
  if (accumulate_level(mh, nh, kh, levels, ctx.cfg)) {
    auto product = [&](ConstBlock l, ConstBlock r, Block out, double alpha = 1.0, double beta = 0.0) {
      leaf_dgemm(ctx, mh, nh, kh, l, r, out, alpha, beta);
    };
    product(s[2], t[2], q.c21);          // C21 = P7
    product(s[0], t[0], q.c22);          // C22 = P5
    product(s[1], t[1], s[0]);           // S1 <- P6 (S1 is dead)
    product(s[3], q.b22, q.c12);         // C12 = P3
    product(q.a11, q.b11, q.c11);        // C11 = P1
    add_pass([&] { winograd_combine_accumulate(cn, q.c11, s[0], q.c12, q.c21, q.c22); });
    product(q.a22, t[3], q.c21, -1.0, 1.0);  // C21 = U3 - P4 (final)
    product(q.a12, q.b21, q.c11, 1.0, 1.0);  // C11 = P1 + P2 (final)
    return;
  }
  // P6 goes to S1 (dead after P5), P7 to S4 (dead after P3), P1 to S2
  // (dead after P6): hence the order P2..P7, then P1.
  const auto products = winograd_products(q, s, t, /*p1=*/s[1], /*p6=*/s[0], /*p7=*/s[3]);
  for (int i : {1, 2, 3, 4, 5, 6, 0}) {
    const ProductSpec& p = products[i];
    multiply_sequential(ctx, mh, nh, kh, p.left, p.right, p.out, levels - 1, next, depth + 1);
  }
  add_pass([&] { winograd_combine(cn, s[1], s[0], s[3], q.c11, q.c12, q.c21, q.c22); });
}

// One side of classic Strassen product t (Q1..Q7 = 0..6), read from the
// coefficient table (strassen_coefficients.hpp): a single +1 term is the
// quadrant itself, read in place; two terms are summed into `tmp` in one
// pass. Example: Q6's A side is (-1, 0, +1, 0), i.e. A21 - A11 ->
// sub(A21, A11) into tmp; Q3's A side (+1, 0, 0, 0) is A11 itself.
// Classic Strassen has no other shape of operand (checked by a unit test of
// the table), so anything else is a programming error.
class StrassenOperand {
 public:
  StrassenOperand(Columns cols, std::array<ConstBlock, 4> quadrants, Block tmp)
      : cols_(cols), quad_(quadrants), tmp_(tmp) {}
  // The operand; runs its addition pass through add_pass when it has one.
  template <class AddPass>
  ConstBlock get(const std::array<int, 4>& coef, AddPass&& add_pass) const {
    std::array<int, 4> used{};  // the quadrants with a coefficient, in order
    int terms = 0;
    for (int q = 0; q < 4; ++q)
      if (coef[q] != 0) used[terms++] = q;
    if (terms == 1 && coef[used[0]] == 1) return quad_[used[0]];
    if (terms == 2 && (coef[used[0]] == 1 || coef[used[1]] == 1)) {
      // The +1 term first: X + Y, X - Y, or -X + Y = Y - X.
      const int x = coef[used[0]] == 1 ? used[0] : used[1], y = x == used[0] ? used[1] : used[0];
      add_pass([&] { (coef[y] == 1 ? add : sub)(cols_, quad_[x], quad_[y], tmp_); });
      return tmp_;
    }
    throw std::logic_error("StrassenOperand: the table has an operand that is not X, X + Y or X - Y");
  }

 private:
  Columns cols_;
  std::array<ConstBlock, 4> quad_;
  Block tmp_;
};

// One classic Strassen level with three temporaries. Operands come from the
// coefficient table (StrassenOperand: 10 two-term sums, each one pass into
// X or Y); Q2, Q3, Q6, Q7 land in C's quadrants; Q1, Q4, Q5 pass through Z
// and are added where they belong right away (one fused pass each). 13
// passes. The three result passes are the table's columns for Q1, Q4, Q5
// with the products already in C folded in (strassen_add_q1 adds Q3 - Q2 to
// C22 from C12 and C21); the FastGemm tests check them end to end against
// DGEMM.
void strassen_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh, int levels, double* ws,
                    int depth) {
  const Block x{ws, temp_ld(mh)};                     // mh×kh
  const Block y{ws + aligned(x.ld * kh), temp_ld(kh)};  // kh×nh
  const Block z{y.data + aligned(y.ld * nh), temp_ld(mh)};  // mh×nh
  double* next = z.data + aligned(z.ld * nh);
  const Columns cn{mh, 0, nh};
  auto add_pass = [&](auto f) { pass(ctx, depth, f); };
  const StrassenOperand a_side({mh, 0, kh}, {q.a11, q.a12, q.a21, q.a22}, x);
  const StrassenOperand b_side({kh, 0, nh}, {q.b11, q.b12, q.b21, q.b22}, y);
  // Q_t into `out`: its operand sums (from the table), then the product.
  auto product = [&](int t, Block out) {
    const ProductFormula& f = kStrassenProducts[t];
    const ConstBlock left = a_side.get(f.a, add_pass);
    const ConstBlock right = b_side.get(f.b, add_pass);
    multiply_sequential(ctx, mh, nh, kh, left, right, out, levels - 1, next, depth + 1);
  };
  product(5, q.c22);  // C22 = Q6
  product(6, q.c11);  // C11 = Q7
  product(1, q.c21);  // C21 = Q2
  product(2, q.c12);  // C12 = Q3
  product(0, z);      // Z = Q1
  // C11 = Q7 + Q1, C22 = Q6 + Q1 + Q3 - Q2 (final)
  add_pass([&] { strassen_add_q1(cn, z, q.c11, q.c12, q.c21, q.c22); });
  product(3, z);      // Z = Q4
  add_pass([&] { add_to_both(cn, q.c21, q.c11, z); });  // C21 = Q2 + Q4 (final), C11 += Q4
  product(4, z);      // Z = Q5
  // C12 = Q3 + Q5, C11 -= Q5 (both final)
  add_pass([&] { add_to_first_sub_from_second(cn, q.c12, q.c11, z); });
}

// The deepest level fused into the packed GEMM (packed_gemm.hpp; Huang et
// al.'s "ABC" Strassen): each of classic Strassen's seven products is one
// packed_gemm call that sums its operand quadrants while packing and adds
// the product into its C quadrants from the micro-kernel's registers, with
// the coefficients of the table (strassen_coefficients.hpp). No temporary,
// no memory pass: 12 A and 12 B quadrant terms are read where plain DGEMM
// calls would read 7 and 7, and 12 C quadrant updates are made where they
// would make 7 (once per KC-deep block of the product, as any GEMM does).
// Classic Strassen, not Winograd, because Winograd's products written out
// in quadrants have up to four terms (S4 = A12 - A21 - A22 + A11) and its
// savings are shared partial sums, which a fused level does not store.
// The first product that reaches a C quadrant overwrites it (Q1: C11 and
// C22, Q2: C21, Q3: C12), so C need not be cleared first.
// Example, Q2 = (A21 + A22) B11 into C21 (+1) and C22 (-1): terms
// {A21, +1}, {A22, +1}; {B11, +1}; destinations {C21, +1, overwrite},
// {C22, -1, add}.
void packed_strassen_level(Ctx& ctx, const Quadrants& q, i64 mh, i64 nh, i64 kh) {
  const std::array<ConstBlock, 4> a{q.a11, q.a12, q.a21, q.a22}, b{q.b11, q.b12, q.b21, q.b22};
  const std::array<Block, 4> c{q.c11, q.c12, q.c21, q.c22};
  std::array<bool, 4> written{};
  for (int t = 0; t < 7; ++t) {
    const ProductFormula& f = kStrassenProducts[t];
    std::array<PackedTerm, 4> at{}, bt{};
    std::array<PackedDestination, 4> ct{};
    int na = 0, nb = 0, nc = 0;
    for (int i = 0; i < 4; ++i) {
      if (f.a[i] != 0) at[na++] = {a[i].data, a[i].ld, double(f.a[i])};
      if (f.b[i] != 0) bt[nb++] = {b[i].data, b[i].ld, double(f.b[i])};
      if (kStrassenC[i][t] != 0) {
        ct[nc++] = {c[i].data, c[i].ld, double(kStrassenC[i][t]), !written[i]};
        written[i] = true;
      }
    }
    leaf(ctx, mh, nh, kh, [&] {
      packed_gemm(mh, nh, kh, at.data(), na, bt.data(), nb, ct.data(), nc, ctx.pack, packed_isa(),
                  ctx.cfg.packed_blocking);
    });
  }
}

void multiply_sequential(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c,
                         int levels, double* ws, int depth) {
  if (!level_applies(m, n, k, levels, ctx.cfg)) {
    leaf_dgemm(ctx, m, n, k, a, b, c);
    return;
  }
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  const Quadrants q = split(a, b, c, mh, nh, kh);
  if (packed_level(mh, nh, kh, levels, ctx.cfg))
    packed_strassen_level(ctx, q, mh, nh, kh);
  else if (ctx.cfg.variant == FastVariant::strassen)
    strassen_level(ctx, q, mh, nh, kh, levels, ws, depth);
  else if (fused_level(mh, nh, kh, levels, ctx.cfg))
    winograd_fused_level(ctx, q, mh, nh, kh, levels, ws, depth);
  else if (accumulate_level(mh, nh, kh, levels, ctx.cfg))
    winograd_deepest_level(ctx, q, mh, nh, kh, ws, depth);
  else
    winograd_level(ctx, q, mh, nh, kh, levels, ws, depth);
  peel_fixup(ctx, m, n, k, a, b, c);
}

// ---- parallel top level -------------------------------------------------

// work(t) for t = 0..threads-1, thread 0 on the calling thread, the others
// on threads of their own; returns when all are done.
template <class F>
void on_threads(int threads, F&& work) {
  std::vector<std::jthread> helpers;  // joined on scope exit
  helpers.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work, t);
  work(0);
}

// Threads that run a packed GEMM of the whole shape (no level applies and
// cfg.threads > 1): each multiplies a column slice with its own packing
// area, as OpenBLAS's threads would split DGEMM. Slices start on a multiple
// of 64 columns (whole B panels; 64 is a multiple of every kernel's NR).
void packed_gemm_threads(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c, double* ws) {
  const int threads = ctx.cfg.threads;
  const i64 area = pack_area(ctx.cfg);
  std::vector<FastGemmAccount> accounts(threads);
  auto work = [&](int t) {
    const i64 j0 = n * t / threads / 64 * 64, j1 = t + 1 == threads ? n : n * (t + 1) / threads / 64 * 64;
    if (j1 <= j0) return;
    Ctx mine{ctx.cfg, accounts[t], ws + t * area};
    leaf_dgemm(mine, m, j1 - j0, k, a, {b.data + j0 * b.ld, b.ld}, {c.data + j0 * c.ld, c.ld});
  };
  on_threads(threads, work);
  for (const FastGemmAccount& acc : accounts) ctx.acc += acc;
}

// Columns [j0, j1) of `cols` that thread t of T handles in a split pass.
Columns share(i64 rows, i64 cols, int t, int threads) {
  return {rows, cols * t / threads, cols * (t + 1) / threads};
}

// The top level with its seven products run by cfg.threads threads. Its
// account: the passes of thread 0 are counted (every thread does a column
// share of the same pass), the seconds of all threads are summed.
void multiply_parallel_top(Ctx& ctx, i64 m, i64 n, i64 k, ConstBlock a, ConstBlock b, Block c,
                           double* ws) {
  const FastGemmConfig& cfg = ctx.cfg;
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  const Quadrants q = split(a, b, c, mh, nh, kh);
  const ParallelLayout l = parallel_layout(m, n, k, cfg);
  const bool winograd = cfg.variant == FastVariant::winograd;

  // Carve the buffers: A-side sums (mh×kh), B-side sums (kh×nh), product
  // temporaries (mh×nh), then one sequential workspace per thread.
  double* const packing = ws;  // one packing area per thread (cfg.leaf == packed), then the buffers
  double* p = ws + threads_pack(cfg);
  std::array<Block, 5> as{}, bs{};  // Winograd uses the first 4 of each
  std::array<Block, 3> ps{};
  for (int i = 0; i < l.a_sums; ++i, p += l.a_size) as[i] = {p, temp_ld(mh)};
  for (int i = 0; i < l.b_sums; ++i, p += l.b_size) bs[i] = {p, temp_ld(kh)};
  for (int i = 0; i < l.products; ++i, p += l.c_size) ps[i] = {p, temp_ld(mh)};
  double* thread_ws = p;

  // The seven products: operands and destination. Four land in C directly.
  std::array<ProductSpec, 7> products;
  if (winograd) {
    // as = S1..S4, bs = T1..T4, ps = P1, P6, P7.
    products = winograd_products(q, {as[0], as[1], as[2], as[3]}, {bs[0], bs[1], bs[2], bs[3]}, ps[0], ps[1],
                                 ps[2]);
  } else {
    // as = operands of Q1, Q2, Q5, Q6, Q7; bs = of Q1, Q3, Q4, Q6, Q7; ps = Q1, Q4, Q5.
    products[0] = {as[0], bs[0], ps[0]};   // Q1
    products[1] = {as[1], q.b11, q.c21};   // Q2
    products[2] = {q.a11, bs[1], q.c12};   // Q3
    products[3] = {q.a22, bs[2], ps[1]};   // Q4
    products[4] = {as[2], q.b22, ps[2]};   // Q5
    products[5] = {as[3], bs[3], q.c22};   // Q6
    products[6] = {as[4], bs[4], q.c11};   // Q7
  }

  const int threads = cfg.threads;
  std::vector<FastGemmAccount> accounts(threads);
  std::barrier sync(threads);
  auto work = [&](int t) {
    Ctx mine{cfg, accounts[t], packing + t * pack_area(cfg)};
    auto add_pass = [&](auto f) { pass(mine, 1, f); };
    // Phase 1: operand sums, split by columns.
    const Columns ak = share(mh, kh, t, threads), bn = share(kh, nh, t, threads);
    if (winograd) {
      add_pass([&] { winograd_a_operands(ak, q.a11, q.a12, q.a21, q.a22, as[0], as[1], as[2], as[3], stores(ctx)); });
      add_pass([&] { winograd_b_operands(bn, q.b11, q.b12, q.b21, q.b22, bs[0], bs[1], bs[2], bs[3], stores(ctx)); });
    } else {
      add_pass([&] { strassen_a_operands(ak, q.a11, q.a12, q.a21, q.a22, as[0], as[1], as[2], as[3], as[4], stores(ctx)); });
      add_pass([&] { strassen_b_operands(bn, q.b11, q.b12, q.b21, q.b22, bs[0], bs[1], bs[2], bs[3], bs[4], stores(ctx)); });
    }
    sync.arrive_and_wait();
    // Phase 2: this thread's products (or column slices of them).
    double* my_ws = thread_ws + t * l.per_thread;
    for_each_part(t, threads, nh, [&](const ProductPart& part) {
      const ProductSpec& s = products[part.product];
      const ConstBlock right{s.right.data + part.col0 * s.right.ld, s.right.ld};
      const Block out{s.out.data + part.col0 * s.out.ld, s.out.ld};
      multiply_sequential(mine, mh, part.cols, kh, s.left, right, out, cfg.levels - 1, my_ws, 2);
    });
    sync.arrive_and_wait();
    // Phase 3: result additions, split by columns.
    const Columns cn = share(mh, nh, t, threads);
    if (winograd)
      add_pass([&] { winograd_combine(cn, ps[0], ps[1], ps[2], q.c11, q.c12, q.c21, q.c22); });
    else
      add_pass([&] { strassen_combine(cn, ps[0], ps[1], ps[2], q.c11, q.c12, q.c21, q.c22); });
  };

  {
    const ScopedBlasThreads single(1);  // our threads split the work: each calls a one-thread BLAS
    on_threads(threads, work);
  }
  const std::int64_t top_passes = accounts[0].passes[1];
  for (int t = 0; t < threads; ++t) {
    accounts[t].passes[1] = 0;  // thread 0's count of the top level, added once below
    ctx.acc += accounts[t];
  }
  ctx.acc.passes[1] += top_passes;
  peel_fixup(ctx, m, n, k, a, b, c);
}

void check_dim(const char* name, i64 v) {
  if (v < 0 || v > INT_MAX)
    throw std::invalid_argument(std::string("FastGemm::multiply: ") + name + " = " +
                                std::to_string(v) + " out of range (allowed 0.." +
                                std::to_string(INT_MAX) + ")");
}

void check_ld(const char* name, i64 ld, i64 rows) {
  const i64 low = std::max<i64>(1, rows);
  if (ld < low || ld > INT_MAX)
    throw std::invalid_argument(std::string("FastGemm::multiply: ") + name + " = " +
                                std::to_string(ld) + " out of range (allowed " +
                                std::to_string(low) + ".." + std::to_string(INT_MAX) + ")");
}

void check_flops_shape(i64 m, i64 n, i64 k) {
  if (m < 0 || n < 0 || k < 0)
    throw std::invalid_argument("FastGemm: negative shape " + std::to_string(m) + "x" +
                                std::to_string(n) + "x" + std::to_string(k) +
                                " (m, n, k must be >= 0)");
}

FastGemmConfig validated(FastGemmConfig cfg) {
  if (cfg.levels < 0 || cfg.levels > kMaxLevels)
    throw std::invalid_argument("FastGemm: levels = " + std::to_string(cfg.levels) +
                                " out of range (allowed 0.." + std::to_string(kMaxLevels) + ")");
  if (cfg.min_dim < 1)
    throw std::invalid_argument("FastGemm: min_dim = " + std::to_string(cfg.min_dim) +
                                " out of range (allowed >= 1)");
  if (cfg.threads < 1)
    throw std::invalid_argument("FastGemm: threads = " + std::to_string(cfg.threads) +
                                " out of range (allowed >= 1)");
  if (cfg.variant != FastVariant::winograd && cfg.variant != FastVariant::strassen)
    throw std::invalid_argument("FastGemm: unknown variant value " +
                                std::to_string(static_cast<int>(cfg.variant)));
  if (cfg.leaf != LeafGemm::blas && cfg.leaf != LeafGemm::packed)
    throw std::invalid_argument("FastGemm: unknown leaf value " + std::to_string(static_cast<int>(cfg.leaf)));
  using F = FastGemmConfig::Fusion;
  if (cfg.fusion != F::none && cfg.fusion != F::deepest && cfg.fusion != F::all)
    throw std::invalid_argument("FastGemm: unknown fusion value " +
                                std::to_string(static_cast<int>(cfg.fusion)));
  return cfg;
}

}  // namespace

double FastGemmAccount::total_add_seconds() const {
  double s = 0;
  for (double v : add_seconds) s += v;
  return s;
}

std::int64_t FastGemmAccount::total_passes() const {
  std::int64_t s = 0;
  for (auto v : passes) s += v;
  return s;
}

FastGemmAccount& FastGemmAccount::operator+=(const FastGemmAccount& o) {
  calls += o.calls;
  leaf_seconds += o.leaf_seconds;
  leaf_calls += o.leaf_calls;
  fixup_seconds += o.fixup_seconds;
  for (std::size_t l = 0; l < add_seconds.size(); ++l) {
    add_seconds[l] += o.add_seconds[l];
    passes[l] += o.passes[l];
  }
  return *this;
}

FastVariant parse_fast_variant(std::string_view name) {
  if (name == "winograd") return FastVariant::winograd;
  if (name == "strassen") return FastVariant::strassen;
  throw std::invalid_argument("unknown fast-gemm variant '" + std::string(name) +
                              "' (allowed: winograd, strassen)");
}

std::string_view to_string(FastVariant variant) {
  return variant == FastVariant::winograd ? "winograd" : "strassen";
}

LeafGemm parse_leaf_gemm(std::string_view name) {
  if (name == "blas") return LeafGemm::blas;
  if (name == "packed") return LeafGemm::packed;
  throw std::invalid_argument("unknown local gemm '" + std::string(name) + "' (allowed: blas, packed)");
}

std::string_view to_string(LeafGemm leaf) { return leaf == LeafGemm::blas ? "blas" : "packed"; }

FastGemmConfig::Fusion parse_fusion(std::string_view name) {
  using F = FastGemmConfig::Fusion;
  if (name == "none") return F::none;
  if (name == "deepest") return F::deepest;
  if (name == "all") return F::all;
  throw std::invalid_argument("unknown fusion schedule '" + std::string(name) + "' (allowed: none, deepest, all)");
}

std::string_view to_string(FastGemmConfig::Fusion fusion) {
  using F = FastGemmConfig::Fusion;
  return fusion == F::none ? "none" : fusion == F::deepest ? "deepest" : "all";
}

void FastGemm::AlignedDelete::operator()(double* p) const {
  ::operator delete[](p, kAlignBytes);
}

namespace {
// The packed GEMM's blocking with the running kernel's defaults filled in
// (checked: std::invalid_argument for one that kernel cannot take).
FastGemmConfig with_resolved_blocking(FastGemmConfig cfg) {
  if (cfg.leaf == LeafGemm::packed) cfg.packed_blocking = resolve_packed_blocking(cfg.packed_blocking, packed_isa());
  return cfg;
}
}  // namespace

FastGemm::FastGemm(FastGemmConfig cfg) : cfg_(with_resolved_blocking(validated(cfg))) {}

void FastGemm::reserve(std::size_t doubles) {
  if (doubles <= capacity_) return;
  workspace_.reset();  // free first: the old buffer is not needed and may be large
  capacity_ = 0;
  workspace_.reset(static_cast<double*>(::operator new[](doubles * sizeof(double), kAlignBytes)));
  // Touch every page now: otherwise the first multiply's addition passes pay
  // the page faults of a fresh buffer (hundreds of MB at n = 8192) and the
  // account books them as additions.
  std::fill_n(workspace_.get(), doubles, 0.0);
  capacity_ = doubles;
  ++allocations_;
}

void FastGemm::prepare(i64 m, i64 n, i64 k) {
  if (m <= 0 || n <= 0 || k <= 0) return;
  reserve(static_cast<std::size_t>(workspace_doubles(m, n, k, cfg_)));
}

std::size_t FastGemm::workspace_bytes_needed(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  check_flops_shape(m, n, k);
  const FastGemmConfig c = with_resolved_blocking(validated(cfg));
  return static_cast<std::size_t>(workspace_doubles(m, n, k, c)) * sizeof(double);
}

void FastGemm::multiply(i64 m, i64 n, i64 k, const double* A, i64 lda, const double* B, i64 ldb,
                        double* C, i64 ldc) {
  check_dim("m", m);
  check_dim("n", n);
  check_dim("k", k);
  check_ld("lda", lda, m);
  check_ld("ldb", ldb, k);
  check_ld("ldc", ldc, m);
  if (m == 0 || n == 0) return;
  if (C == nullptr || (k > 0 && (A == nullptr || B == nullptr)))
    throw std::invalid_argument("FastGemm::multiply: null matrix pointer");
  if (k == 0) {  // DGEMM semantics: C = 0·C with beta = 0
    for (i64 j = 0; j < n; ++j) std::fill_n(C + j * ldc, m, 0.0);
    return;
  }
  reserve(static_cast<std::size_t>(workspace_doubles(m, n, k, cfg_)));
  deepest_ = std::max(deepest_, levels_applied(m, n, k, cfg_));
  const ConstBlock a{A, lda}, b{B, ldb};
  const Block c{C, ldc};
  ++account_.calls;
  double* const ws = workspace_.get();
  Ctx ctx{cfg_, account_, ws};
  if (parallel_top(m, n, k, cfg_))
    multiply_parallel_top(ctx, m, n, k, a, b, c, ws);
  else if (cfg_.leaf == LeafGemm::packed && cfg_.threads > 1 && !level_applies(m, n, k, cfg_.levels, cfg_))
    packed_gemm_threads(ctx, m, n, k, a, b, c, ws);
  else
    multiply_sequential(ctx, m, n, k, a, b, c, cfg_.levels, ws + threads_pack(cfg_), 1);
}

int FastGemm::levels_applied(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  int done = 0;
  for (int left = cfg.levels; level_applies(m, n, k, left, cfg); --left, ++done) m /= 2, n /= 2, k /= 2;
  return done;
}

double FastGemm::flops(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  check_flops_shape(m, n, k);
  const FastGemmConfig c = validated(cfg);
  if (!parallel_top(m, n, k, c)) return sequential_flops(m, n, k, c.levels, c);
  // The parallel top level slices some products by columns, and a slice
  // recurses on a narrower shape, so count exactly what the threads do.
  const i64 mh = m / 2, nh = n / 2, kh = k / 2;
  double f = addition_flops(mh, nh, kh, c.variant) + peel_flops(m, n, k);
  for (int t = 0; t < c.threads; ++t)
    for_each_part(t, c.threads, nh, [&](const ProductPart& part) {
      f += sequential_flops(mh, part.cols, kh, c.levels - 1, c);
    });
  return f;
}

// Error growth. Higham (Accuracy and Stability of Numerical Algorithms, 2nd
// ed., sec. 23.2) bounds the max-norm error of L levels on n = 2^L·n0 as
//   classic Strassen: ((n/n0)^log2(12) · (n0² + 5·n0) − 5n) · u · ‖A‖‖B‖,
//   Winograd:         ((n/n0)^log2(18) · (n0² + 6·n0) − 6n) · u · ‖A‖‖B‖,
// against n²·u·‖A‖‖B‖ for the conventional product at n = n0 (L = 0). With
// (n/n0)^log2(g) = g^L, each level multiplies the bound by 12 (Strassen) or
// 18 (Winograd) relative to the leaf DGEMM's. Measured relative to the
// conventional bound at the *same* n the growth is only (g/4)^L (3 and 4.5
// per level), since the leaves are 4^L times smaller in n0². We use the larger
// 12^L / 18^L: a threshold should not fail a correct result, and it still
// leaves the ~1e-16 relative errors of a correct product 10+ orders of
// magnitude below the O(1) error of a wrong formula for any practical L (18^5
// ≈ 1.9e6). Winograd's constant is larger because its operands are sums of
// sums (S2 = S1 − A11, S4 = A12 − S2, likewise T2 and T4) and its result
// terms reuse partial sums (U2, U3).
double fast_gemm_error_growth(int levels, FastVariant variant) {
  if (levels < 0 || levels > kMaxLevels)
    throw std::invalid_argument("fast_gemm_error_growth: levels = " + std::to_string(levels) +
                                " out of range (allowed 0.." + std::to_string(kMaxLevels) + ")");
  const double per_level = variant == FastVariant::winograd ? 18.0 : 12.0;
  return std::pow(per_level, levels);
}

bool local_level_applies(std::int64_t m, std::int64_t n, std::int64_t k, int levels, std::int64_t min_dim) {
  return levels > 0 && std::min({m, n, k}) >= std::max<std::int64_t>(min_dim, 2);
}

}  // namespace mmbench::local
