// FastGemm on several threads: the parallel top level, whose seven products
// run at once, and a packed GEMM split by columns where no level applies;
// see fast_gemm_schedules.hpp.
#include "local/fast_gemm_schedules.hpp"

#include <array>
#include <barrier>
#include <thread>
#include <vector>

#include "core/machine/blas.hpp"

namespace mmbench::local::fast_gemm_detail {

namespace {

// work(t) for t = 0..threads-1, thread 0 on the calling thread, the others
// on threads of their own; returns when all are done.
template <class F>
void on_threads(int threads, F&& work) {
  std::vector<std::jthread> helpers;  // joined on scope exit
  helpers.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work, t);
  work(0);
}

// Columns [j0, j1) of `cols` that thread t of T handles in a split pass.
Columns share(i64 rows, i64 cols, int t, int threads) {
  return {rows, cols * t / threads, cols * (t + 1) / threads};
}

}  // namespace

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

}  // namespace mmbench::local::fast_gemm_detail
