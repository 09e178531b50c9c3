// Tests of the local fast matrix multiplication (src/local/fast_gemm.*).
//
// Correctness is checked against one cblas_dgemm with the normwise measure
//   ratio = max|C − C_ref| / (k · ε · max|A| · max|B| · growth(L)),
// which must stay <= 1. For a correct product of uniform [−1, 1] data the
// ratio is far below 1 (errors are ~ε·√k·|C|); a wrong formula — say P5 and
// P6 swapped in Winograd's C12 = P1 + P6 + P5 + P3 and C22 = U3 + P5 — leaves
// an O(1)·√k error in a quadrant, a ratio of ~1e15 / (√k · growth) ≫ 1 for
// every shape and L <= 3 used here. Tiny cut-offs (min_dim = 2) make the
// recursion reach 1×1 quadrants on small shapes, so odd-size peeling is
// exercised at every level.
#include "local/fast_gemm.hpp"
#include "local/local_multiply.hpp"

#include <cblas.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace mmbench::local {
namespace {

using i64 = std::int64_t;

constexpr double kSentinel = 12345.0;  // in the padding rows of C: must survive

// Column-major rows×cols matrix with leading dimension ld >= rows; padding
// rows hold the sentinel.
struct Matrix {
  i64 rows, cols, ld;
  std::vector<double> v;
  Matrix(i64 r, i64 c, i64 pad = 0) : rows(r), cols(c), ld(std::max<i64>(1, r + pad)),
                                      v(static_cast<size_t>(ld * std::max<i64>(c, 1)), kSentinel) {}
  double& at(i64 i, i64 j) { return v[static_cast<size_t>(i + j * ld)]; }
  double max_abs() const {
    double m = 0;
    for (i64 j = 0; j < cols; ++j)
      for (i64 i = 0; i < rows; ++i) m = std::max(m, std::abs(v[static_cast<size_t>(i + j * ld)]));
    return m;
  }
};

Matrix random_matrix(i64 rows, i64 cols, i64 pad, unsigned seed) {
  Matrix a(rows, cols, pad);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (i64 j = 0; j < cols; ++j)
    for (i64 i = 0; i < rows; ++i) a.at(i, j) = u(gen);
  return a;
}

Matrix reference(const Matrix& a, const Matrix& b) {
  Matrix c(a.rows, b.cols);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(a.rows),
              static_cast<int>(b.cols), static_cast<int>(a.cols), 1.0, a.v.data(),
              static_cast<int>(a.ld), b.v.data(), static_cast<int>(b.ld), 0.0, c.v.data(),
              static_cast<int>(c.ld));
  return c;
}

struct Outcome {
  double ratio;        // the normwise measure above
  bool padding_intact;
  std::size_t workspace;
};

Outcome run_case(i64 m, i64 n, i64 k, const FastGemmConfig& cfg, i64 pad = 3) {
  const Matrix a = random_matrix(m, k, pad, 1000u + static_cast<unsigned>(m * 7 + k));
  const Matrix b = random_matrix(k, n, pad, 2000u + static_cast<unsigned>(k * 5 + n));
  const Matrix ref = reference(a, b);
  Matrix c(m, n, pad);
  for (i64 j = 0; j < n; ++j)  // garbage that must be overwritten, never read
    for (i64 i = 0; i < m; ++i) c.at(i, j) = std::numeric_limits<double>::quiet_NaN();

  FastGemm fg(cfg);
  fg.multiply(m, n, k, a.v.data(), a.ld, b.v.data(), b.ld, c.v.data(), c.ld);

  double err = 0;
  bool intact = true;
  for (i64 j = 0; j < n; ++j) {
    for (i64 i = 0; i < m; ++i) {
      const double d = std::abs(c.at(i, j) - ref.v[static_cast<size_t>(i + j * ref.ld)]);
      err = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(err, d);
    }
    for (i64 i = m; i < c.ld; ++i) intact = intact && c.at(i, j) == kSentinel;
  }
  const double scale = static_cast<double>(k) * std::numeric_limits<double>::epsilon() *
                       a.max_abs() * b.max_abs() * fast_gemm_error_growth(cfg.levels, cfg.variant);
  return {err / scale, intact, fg.workspace_bytes()};
}

// ---- agreement with DGEMM ---------------------------------------------------

struct Shape {
  i64 m, n, k;
};

// Readable parameters in gtest's failure messages.
void PrintTo(const Shape& s, std::ostream* os) { *os << s.m << "x" << s.n << "x" << s.k; }

}  // namespace

void PrintTo(FastVariant v, std::ostream* os) { *os << to_string(v); }

namespace {

class FastGemmMatchesDgemm
    : public ::testing::TestWithParam<std::tuple<Shape, int, FastVariant, int>> {};

TEST_P(FastGemmMatchesDgemm, WithinErrorBound) {
  const auto [s, levels, variant, threads] = GetParam();
  const FastGemmConfig cfg{levels, variant, 2, threads};
  const Outcome out = run_case(s.m, s.n, s.k, cfg);
  EXPECT_LE(out.ratio, 1.0) << s.m << "x" << s.n << "x" << s.k << " L=" << levels << " "
                            << to_string(variant) << " threads=" << threads;
  EXPECT_TRUE(out.padding_intact);
  // With min_dim = 2 a level applies whenever L >= 1 and min(m, n, k) >= 2,
  // and every level needs workspace: proof that the fast path really ran.
  const bool fast = levels >= 1 && std::min({s.m, s.n, s.k}) >= 2;
  EXPECT_EQ(out.workspace > 0, fast);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, FastGemmMatchesDgemm,
    ::testing::Combine(::testing::Values(Shape{64, 64, 64},     // square, even at every level
                                         Shape{96, 80, 112},    // non-square
                                         Shape{67, 45, 93},     // odd
                                         Shape{130, 129, 131},  // odd at the top only
                                         Shape{1, 1, 1}, Shape{2, 2, 2}, Shape{3, 5, 7},
                                         Shape{33, 1, 17}, Shape{1, 40, 9}, Shape{9, 40, 1}),
                       ::testing::Values(0, 1, 2, 3),
                       ::testing::Values(FastVariant::winograd, FastVariant::strassen),
                       ::testing::Values(1, 2)));

// Thread counts that do not divide 7 evenly, and more threads than products:
// the sliced products and the column split of the additions.
// --local-fusion's words and back; the spec's schedule reaches the kernel.
TEST(FastGemm, FusionNamesAndTheSpec) {
  using F = local::FastGemmConfig::Fusion;
  for (F f : {F::none, F::deepest, F::all}) EXPECT_EQ(local::parse_fusion(local::to_string(f)), f);
  EXPECT_THROW(local::parse_fusion("some"), std::invalid_argument);
  EXPECT_EQ(local::LocalMultiply({.levels = 1, .fusion = F::none}, 1).config().fusion, F::none);
  EXPECT_EQ(local::LocalMultiply({.levels = 1}, 1).config().fusion, F::all);  // the default
}

TEST(FastGemm, ParallelTopWithUnevenThreadCounts) {
  for (int threads : {3, 4, 8})
    for (FastVariant v : {FastVariant::winograd, FastVariant::strassen}) {
      const Outcome out = run_case(67, 45, 93, FastGemmConfig{2, v, 2, threads});
      EXPECT_LE(out.ratio, 1.0) << "threads=" << threads << " " << to_string(v);
      EXPECT_TRUE(out.padding_intact);
    }
}

TEST(FastGemm, DefaultCutoffOnRealisticSize) {
  for (int threads : {1, 2}) {
    const Outcome out = run_case(520, 515, 513, FastGemmConfig{2, FastVariant::winograd, 256, threads});
    EXPECT_LE(out.ratio, 1.0) << "threads=" << threads;
    EXPECT_GT(out.workspace, 0u);  // two levels apply: min dims 513, then 256 (>= 256)
  }
}

TEST(FastGemm, StopsAtMinDim) {
  const FastGemmConfig cfg{3, FastVariant::winograd, 256, 1};
  EXPECT_EQ(FastGemm::workspace_bytes_needed(255, 4096, 4096, cfg), 0u);
  EXPECT_DOUBLE_EQ(FastGemm::flops(255, 4096, 4096, cfg), 2.0 * 255 * 4096 * 4096);
  // 600 → 300 (>= 256, second level) → 150 (< 256, stop): two levels of three.
  const double half = 300, quarter = 150;
  const double two_levels = 49 * 2 * quarter * quarter * quarter + 7 * 15 * quarter * quarter +
                            15 * half * half;
  EXPECT_DOUBLE_EQ(FastGemm::flops(600, 600, 600, cfg), two_levels);
}

TEST(FastGemm, LevelsAppliedStopAtTheCutoff) {
  // --local-strassen auto: up to 4 levels, cut-off = the measured crossover.
  const FastGemmConfig cfg{4, FastVariant::winograd, 1536, 1};
  EXPECT_EQ(FastGemm::levels_applied(1535, 8192, 8192, cfg), 0);
  EXPECT_EQ(FastGemm::levels_applied(4096, 4096, 4096, cfg), 2);    // 4096, 2048 (1024 < 1536)
  EXPECT_EQ(FastGemm::levels_applied(8192, 8192, 8192, cfg), 3);    // 8192, 4096, 2048
  EXPECT_EQ(FastGemm::levels_applied(12288, 12288, 12288, cfg), 4);  // 12288 .. 1536, capped at 4
  EXPECT_EQ(FastGemm::levels_applied(3000, 3000, 3000, FastGemmConfig{3, FastVariant::winograd, 1024, 1}), 2);
  // The object remembers the deepest call, the CSV's local_levels_applied.
  FastGemm fg(FastGemmConfig{3, FastVariant::winograd, 16, 1});
  EXPECT_EQ(fg.deepest_levels(), 0);
  std::vector<double> a(64 * 64, 1.0), b(64 * 64, 1.0), c(64 * 64);
  fg.multiply(20, 20, 20, a.data(), 20, b.data(), 20, c.data(), 20);  // 20, 10 < 16: one level
  EXPECT_EQ(fg.deepest_levels(), 1);
  fg.multiply(64, 64, 64, a.data(), 64, b.data(), 64, c.data(), 64);  // 64, 32, 16: three
  EXPECT_EQ(fg.deepest_levels(), 3);
  fg.multiply(20, 20, 20, a.data(), 20, b.data(), 20, c.data(), 20);
  EXPECT_EQ(fg.deepest_levels(), 3);
}

TEST(LocalMultiply, CutoffReachesTheKernelAndTheCsv) {
  local::LocalMultiply lm({.levels = 3, .min_dim = 32}, 1);
  std::vector<double> a(128 * 128), b(128 * 128), c(128 * 128), ref(128 * 128);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto* v : {&a, &b})
    for (double& x : *v) x = u(rng);
  lm(128, 128, 128, a.data(), 128, b.data(), 128, c.data(), 128);  // 128, 64, 32: three levels
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 128, 128, 128, 1.0, a.data(), 128, b.data(), 128, 0.0,
              ref.data(), 128);
  double err = 0;
  for (std::size_t i = 0; i < c.size(); ++i) err = std::max(err, std::abs(c[i] - ref[i]));
  EXPECT_LT(err, 1e-10);
  auto d = lm.describe();
  EXPECT_EQ(d["local_levels_applied"], "3");
  EXPECT_EQ(d["local_cutoff"], "32");
  EXPECT_EQ(d["local_variant"], "winograd");
  EXPECT_EQ(local::LocalMultiply({.levels = 2}, 1).describe()["local_levels_applied"], "0");  // not called yet
  EXPECT_EQ(local::LocalMultiply({}, 1).describe().count("local_cutoff"), 0u);
}

// The estimate the sweep's memory budget uses before anything is allocated
// must be what a call really allocates, on 1 and on 2 threads (the parallel
// top level gives each product task its own temporaries).
TEST(LocalMultiply, WorkspaceEstimateIsWhatACallAllocates) {
  const int n = 256;
  std::vector<double> a(n * n, 1.0), b(n * n, 0.5), c(n * n);
  for (int threads : {1, 2}) {
    for (int levels : {1, 2, 3}) {
      local::LocalMultiply lm({.levels = levels, .min_dim = 32}, threads);
      lm(n, n, n, a.data(), n, b.data(), n, c.data(), n);
      EXPECT_EQ(local::LocalMultiply::workspace_doubles_needed(n, n, n, {.levels = levels, .min_dim = 32}, threads),
                lm.workspace_doubles())
          << "threads " << threads << ", levels " << levels;
      EXPECT_GT(lm.workspace_doubles(), 0);
    }
  }
  EXPECT_EQ(local::LocalMultiply::workspace_doubles_needed(n, n, n, {}, 2), 0);
  // A setting the kernel refuses (more levels than it allows) needs nothing either.
  EXPECT_EQ(local::LocalMultiply::workspace_doubles_needed(n, n, n, {.levels = 40}, 1), 0);
}

// Plans call prepare() when built: the timed multiplies (this shape, or a
// narrower one such as a ring chunk) then allocate nothing.
TEST(FastGemm, PrepareAllocatesBeforeTheFirstMultiply) {
  for (int threads : {1, 2}) {
    FastGemm fg(FastGemmConfig{2, FastVariant::winograd, 32, threads});
    fg.prepare(256, 256, 256);
    EXPECT_EQ(fg.workspace_allocations(), 1);
    const std::vector<double> a(256 * 256, 1.0), b(256 * 256, 2.0);
    std::vector<double> c(256 * 256);
    fg.multiply(256, 256, 256, a.data(), 256, b.data(), 256, c.data(), 256);
    fg.multiply(256, 128, 256, a.data(), 256, b.data(), 256, c.data(), 256);
    fg.multiply(256, 100, 256, a.data(), 256, b.data(), 256, c.data(), 256);
    EXPECT_EQ(fg.workspace_allocations(), 1) << "threads " << threads;
    EXPECT_EQ(c[0], 512.0);
  }
  FastGemm plain(FastGemmConfig{0, FastVariant::winograd, 32, 1});
  plain.prepare(256, 256, 256);
  EXPECT_EQ(plain.workspace_allocations(), 0);
}

TEST(FastGemm, ZeroSizes) {
  FastGemm fg(FastGemmConfig{2, FastVariant::winograd, 2, 1});
  std::vector<double> c(6, 7.0);
  fg.multiply(2, 3, 0, nullptr, 2, nullptr, 1, c.data(), 2);  // k = 0: C = 0 like DGEMM
  for (double x : c) EXPECT_EQ(x, 0.0);
  std::vector<double> d(4, 7.0);
  fg.multiply(0, 2, 2, nullptr, 1, nullptr, 2, d.data(), 1);  // nothing to do
  for (double x : d) EXPECT_EQ(x, 7.0);
}

// ---- operation count --------------------------------------------------------

TEST(FastGemm, FlopsOneLevelEvenSquare) {
  const double h = 32;  // n = 64
  const double products = 7 * 2 * h * h * h;
  EXPECT_DOUBLE_EQ(FastGemm::flops(64, 64, 64, {1, FastVariant::winograd, 2, 1}),
                   products + 15 * h * h);
  EXPECT_DOUBLE_EQ(FastGemm::flops(64, 64, 64, {1, FastVariant::strassen, 2, 1}),
                   products + 18 * h * h);
  EXPECT_DOUBLE_EQ(FastGemm::flops(64, 64, 64, {0, FastVariant::winograd, 2, 1}),
                   2.0 * 64 * 64 * 64);
}

TEST(FastGemm, FlopsTwoLevels) {
  // Level 2 on 32³: 7·2·16³ + 15·16² = 57344 + 3840 = 61184; level 1 adds 15·32².
  EXPECT_DOUBLE_EQ(FastGemm::flops(64, 64, 64, {2, FastVariant::winograd, 2, 1}),
                   7 * 61184.0 + 15 * 32.0 * 32.0);
}

TEST(FastGemm, FlopsOddShapeCountsPeeling) {
  // 3×3×3, one level on the even 2×2×2 part (1×1×1 quadrants): 7·2 + 15;
  // k odd: rank-1 update of the 2×2 block, 2·2·2 = 8;
  // n odd: column 2, rows 0..1, full k: 2·2·3 = 12; m odd: row 2, all 3 columns: 2·3·3 = 18.
  EXPECT_DOUBLE_EQ(FastGemm::flops(3, 3, 3, {1, FastVariant::winograd, 2, 1}),
                   14.0 + 15 + 8 + 12 + 18);
  // Without a level the same border terms add up to the classical count.
  EXPECT_DOUBLE_EQ(FastGemm::flops(3, 3, 3, {1, FastVariant::winograd, 4, 1}), 54.0);
}

TEST(FastGemm, FlopsParallelCountsSlicedProduct) {
  // n = 64, L = 2, 2 threads: six products of 32³ with one level each
  // (61184, see above) and product 7 in two column halves 32×16×32, each
  // 7·2·16·8·16 + (4·16·16 + 4·16·8 + 7·16·8) = 28672 + 2432 = 31104.
  EXPECT_DOUBLE_EQ(FastGemm::flops(64, 64, 64, {2, FastVariant::winograd, 2, 2}),
                   6 * 61184.0 + 2 * 31104.0 + 15 * 32.0 * 32.0);
}

// ---- workspace --------------------------------------------------------------

// The two-temporary schedule on every level (the kernel before the
// accumulate schedule): the sizes this test always had.
constexpr FastGemmConfig kPlain(int levels, FastVariant v, int threads) {
  return {levels, v, 2, threads, /*accumulate=*/false, FastGemmConfig::Fusion::none};
}
// The accumulate schedule at the deepest level, operand sums unfused (the
// default before the fused schedule).
constexpr FastGemmConfig kAccumulate(int levels, FastVariant v, int threads) {
  return {levels, v, 2, threads, /*accumulate=*/true, FastGemmConfig::Fusion::none};
}

TEST(FastGemm, WorkspaceSizes) {
  // One sequential level on 64³: Winograd X (32×32) and Y (32×32); Strassen
  // also Z (32×32). Doubles of 8 bytes.
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, kPlain(1, FastVariant::winograd, 1)),
            2u * 1024 * 8);
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, kPlain(1, FastVariant::strassen, 1)),
            3u * 1024 * 8);
  // Parallel top: 4 S + 4 T + 3 P buffers of 32×32, nothing below (L = 1).
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, kPlain(1, FastVariant::winograd, 2)),
            11u * 1024 * 8);
  // Two sequential levels: 2·32² + 2·16².
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, kPlain(2, FastVariant::winograd, 1)),
            (2u * 1024 + 2u * 256) * 8);
}

TEST(FastGemm, WorkspaceSizesFused) {
  using F = FastGemmConfig::Fusion;
  // One fused level on 64³: S1..S4 and T1..T4, 32×32 each.
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, {1, FastVariant::winograd, 2, 1, true, F::deepest}),
            8u * 1024 * 8);
  // Non-square 64×16×32 (m×n×k): S buffers mh × max(kh, nh) = 32×16, T kh×nh = 16×8.
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 16, 32, {1, FastVariant::winograd, 2, 1, true, F::deepest}),
            (4u * 512 + 4u * 128) * 8);
  // Two levels, only the deepest fused: the top's X, Y (32²), then 8 × 16².
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, {2, FastVariant::winograd, 2, 1, true, F::deepest}),
            (2u * 1024 + 8u * 256) * 8);
  // Two levels, both fused: 8 × 32² + 8 × 16².
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, {2, FastVariant::winograd, 2, 1, true, F::all}),
            (8u * 1024 + 8u * 256) * 8);
}

TEST(FastGemm, WorkspaceSizesAccumulate) {
  // One level (the deepest): X, Y and Z, 32×32 each.
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, kAccumulate(1, FastVariant::winograd, 1)),
            3u * 1024 * 8);
  // Two levels: the top X, Y (32×32), the deepest X, Y, Z (16×16).
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, kAccumulate(2, FastVariant::winograd, 1)),
            (2u * 1024 + 3u * 256) * 8);
  // Classic Strassen keeps its three temporaries per level.
  EXPECT_EQ(FastGemm::workspace_bytes_needed(64, 64, 64, {1, FastVariant::strassen, 2, 1}),
            3u * 1024 * 8);
}

// ---- the schedules ----------------------------------------------------------

TEST(FastGemm, BothSchedulesMatchDgemm) {
  // The accumulate schedule (default) and the two-temporary one on even,
  // odd and non-square shapes; C starts as NaN (run_case), so
  // a beta = 1 product on a quadrant not yet written would show up.
  const Shape shapes[] = {{64, 64, 64}, {67, 45, 93}, {128, 40, 72}, {33, 33, 33}};
  for (const Shape& s : shapes)
    for (int levels : {1, 2, 3})
      for (int threads : {1, 2})
        for (bool accumulate : {false, true}) {
          const FastGemmConfig cfg{levels, FastVariant::winograd, 2, threads, accumulate,
                                   FastGemmConfig::Fusion::none};
          const Outcome out = run_case(s.m, s.n, s.k, cfg);
          EXPECT_LT(out.ratio, 1.0) << s.m << "x" << s.n << "x" << s.k << " L=" << levels
                                    << " threads=" << threads << " accumulate=" << accumulate;
          EXPECT_TRUE(out.padding_intact);
        }
}

TEST(FastGemm, FusedSchedulesMatchDgemm) {
  // Fused operand sums at the deepest level or every level, with and
  // without DGEMM's beta at the deepest level, with cached and streaming
  // stores in the operand passes, on even, odd and non-square
  // shapes (C starts as NaN in run_case), one and two threads.
  using F = FastGemmConfig::Fusion;
  const Shape shapes[] = {{64, 64, 64}, {67, 45, 93}, {128, 40, 72}, {40, 128, 72}, {33, 33, 33}};
  for (const Shape& s : shapes)
    for (int levels : {1, 2, 3})
      for (int threads : {1, 2})
        for (F fusion : {F::deepest, F::all})
          for (bool accumulate : {false, true})
            for (bool streaming : {false, true}) {
              const FastGemmConfig cfg{levels, FastVariant::winograd, 2, threads, accumulate, fusion,
                                       streaming};
              const Outcome out = run_case(s.m, s.n, s.k, cfg);
              EXPECT_LT(out.ratio, 1.0) << s.m << "x" << s.n << "x" << s.k << " L=" << levels
                                        << " threads=" << threads << " fusion=" << int(fusion)
                                        << " accumulate=" << accumulate << " streaming=" << streaming;
              EXPECT_TRUE(out.padding_intact);
            }
}

TEST(FastGemm, PassCountsPerLevel) {
  // Winograd: 11 passes per level (8 operand sums, 3 combinations); the
  // deepest level's accumulate schedule 9 (8 + 1). Three levels on 64³:
  // 11 at the top, 7·11 = 77 below, 49·9 = 441 at the deepest level.
  const std::vector<double> a(64 * 64, 1.0), b(64 * 64, 2.0);
  std::vector<double> c(64 * 64);
  auto passes = [&](const FastGemmConfig& cfg, int calls) {
    FastGemm fg(cfg);
    for (int i = 0; i < calls; ++i) fg.multiply(64, 64, 64, a.data(), 64, b.data(), 64, c.data(), 64);
    EXPECT_EQ(fg.account().calls, calls);
    std::vector<std::int64_t> per_call;
    for (int l = 1; l <= fg.deepest_levels(); ++l) per_call.push_back(fg.account().passes[l] / calls);
    EXPECT_EQ(fg.account().passes[fg.deepest_levels() + 1], 0);
    return per_call;
  };
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(passes(kAccumulate(3, FastVariant::winograd, 1), 2), (V{11, 77, 441}));
  EXPECT_EQ(passes(kPlain(3, FastVariant::winograd, 1), 1), (V{11, 77, 539}));
  // Classic Strassen: 13 per level on every level (10 operand sums, 3 fused
  // combinations).
  EXPECT_EQ(passes({2, FastVariant::strassen, 2, 1}, 1), (V{13, 91}));
  // Fused operand sums: 3 passes per fused level (2 operand passes, 1
  // combination), with or without DGEMM's beta at the deepest level.
  using F = FastGemmConfig::Fusion;
  EXPECT_EQ(passes({3, FastVariant::winograd, 2, 1, true, F::deepest}, 1), (V{11, 77, 147}));
  EXPECT_EQ(passes({3, FastVariant::winograd, 2, 1, false, F::deepest}, 1), (V{11, 77, 147}));
  EXPECT_EQ(passes({3, FastVariant::winograd, 2, 1, true, F::all}, 1), (V{3, 21, 147}));
  // Fusion is a Winograd schedule: classic Strassen ignores it.
  EXPECT_EQ(passes({2, FastVariant::strassen, 2, 1, true, F::all}, 1), (V{13, 91}));
  // Parallel top (2 threads): its 3 fused passes, counted once; below it 6
  // whole products and 2 column halves of the seventh, 9 passes each.
  EXPECT_EQ(passes(kAccumulate(2, FastVariant::winograd, 2), 1), (V{3, 72}));
  // The default (fused operand sums at every level): 3 per level; below a
  // parallel top 8 products' worth of calls (6 whole, 2 halves), 3 each.
  EXPECT_EQ(passes({3, FastVariant::winograd, 2, 1}, 1), (V{3, 21, 147}));
  EXPECT_EQ(passes({2, FastVariant::winograd, 2, 2}, 1), (V{3, 24}));

  // Every leaf is one DGEMM call: 7^3 per multiply; the time is booked.
  FastGemm fg(kAccumulate(3, FastVariant::winograd, 1));
  fg.multiply(64, 64, 64, a.data(), 64, b.data(), 64, c.data(), 64);
  EXPECT_EQ(fg.account().leaf_calls, 343);
  EXPECT_GT(fg.account().leaf_seconds, 0.0);
  EXPECT_GT(fg.account().total_add_seconds(), 0.0);
  EXPECT_EQ(fg.account().total_passes(), 11 + 77 + 441);
  fg.reset_account();
  EXPECT_EQ(fg.account().total_passes(), 0);
}

TEST(FastGemm, LocalMultiplyReportsTheAccount) {
  local::LocalMultiply lm({.levels = 2, .min_dim = 2}, 1);
  const std::vector<double> a(64 * 64, 1.0), b(64 * 64, 2.0);
  std::vector<double> c(64 * 64);
  EXPECT_EQ(lm.describe().count("local_add_share"), 0u);  // nothing done yet
  lm(64, 64, 64, a.data(), 64, b.data(), 64, c.data(), 64);
  auto d = lm.describe();
  // The default schedule, fused at both levels: 3 passes each (with the
  // unfused accumulate schedule this read "11;63").
  EXPECT_EQ(d["local_passes_by_level"], "3;21");
  const double share = std::stod(d["local_add_share"]);
  EXPECT_GT(share, 0.0);
  EXPECT_LT(share, 1.0);
  EXPECT_NE(d["local_add_share_by_level"].find(';'), std::string::npos);
}

TEST(FastGemm, WorkspaceAllocatedOnceForRepeatedShapes) {
  for (int threads : {1, 2}) {
    FastGemm fg(FastGemmConfig{2, FastVariant::winograd, 8, threads});
    const Matrix a = random_matrix(100, 100, 0, 1), b = random_matrix(100, 100, 0, 2);
    Matrix c(100, 100);
    fg.multiply(100, 100, 100, a.v.data(), 100, b.v.data(), 100, c.v.data(), 100);
    EXPECT_EQ(fg.workspace_allocations(), 1);
    const std::size_t held = fg.workspace_bytes();
    fg.multiply(100, 100, 100, a.v.data(), 100, b.v.data(), 100, c.v.data(), 100);
    fg.multiply(60, 70, 80, a.v.data(), 100, b.v.data(), 100, c.v.data(), 100);  // smaller
    EXPECT_EQ(fg.workspace_allocations(), 1);
    EXPECT_EQ(fg.workspace_bytes(), held);
    const Matrix a2 = random_matrix(200, 200, 0, 3), b2 = random_matrix(200, 200, 0, 4);
    Matrix c2(200, 200);
    fg.multiply(200, 200, 200, a2.v.data(), 200, b2.v.data(), 200, c2.v.data(), 200);
    EXPECT_EQ(fg.workspace_allocations(), 2);
    EXPECT_GT(fg.workspace_bytes(), held);
  }
}

TEST(FastGemm, RestoresBlasThreadCount) {
  openblas_set_num_threads(2);
  const int before = openblas_get_num_threads();
  run_case(64, 64, 64, FastGemmConfig{1, FastVariant::winograd, 2, 2});
  EXPECT_EQ(openblas_get_num_threads(), before);
}

// ---- configuration and errors -------------------------------------------------

TEST(FastGemm, VariantNames) {
  EXPECT_EQ(parse_fast_variant("winograd"), FastVariant::winograd);
  EXPECT_EQ(parse_fast_variant("strassen"), FastVariant::strassen);
  EXPECT_EQ(to_string(FastVariant::winograd), "winograd");
  EXPECT_EQ(to_string(FastVariant::strassen), "strassen");
  EXPECT_THROW(parse_fast_variant("Winograd"), std::invalid_argument);
  EXPECT_THROW(parse_fast_variant(""), std::invalid_argument);
}

TEST(FastGemm, RejectsBadConfigAndArguments) {
  EXPECT_THROW(FastGemm(FastGemmConfig{-1, FastVariant::winograd, 256, 1}), std::invalid_argument);
  EXPECT_THROW(FastGemm(FastGemmConfig{31, FastVariant::winograd, 256, 1}), std::invalid_argument);
  EXPECT_THROW(FastGemm(FastGemmConfig{1, FastVariant::winograd, 0, 1}), std::invalid_argument);
  EXPECT_THROW(FastGemm(FastGemmConfig{1, FastVariant::winograd, 256, 0}), std::invalid_argument);
  FastGemm fg(FastGemmConfig{1, FastVariant::winograd, 2, 1});
  std::vector<double> x(16, 1.0);
  EXPECT_THROW(fg.multiply(-1, 2, 2, x.data(), 1, x.data(), 2, x.data(), 1), std::invalid_argument);
  EXPECT_THROW(fg.multiply(4, 2, 2, x.data(), 3, x.data(), 2, x.data(), 4), std::invalid_argument);
  EXPECT_THROW(fg.multiply(2, 2, 4, x.data(), 2, x.data(), 3, x.data(), 2), std::invalid_argument);
  EXPECT_THROW(fg.multiply(4, 2, 2, x.data(), 4, x.data(), 2, x.data(), 3), std::invalid_argument);
  EXPECT_THROW(FastGemm::flops(1, -2, 1, {}), std::invalid_argument);
}

TEST(FastGemm, ErrorGrowth) {
  EXPECT_DOUBLE_EQ(fast_gemm_error_growth(0, FastVariant::winograd), 1.0);
  EXPECT_DOUBLE_EQ(fast_gemm_error_growth(2, FastVariant::strassen), 144.0);
  EXPECT_DOUBLE_EQ(fast_gemm_error_growth(2, FastVariant::winograd), 324.0);
  EXPECT_THROW(fast_gemm_error_growth(-1, FastVariant::strassen), std::invalid_argument);
}

}  // namespace
}  // namespace mmbench::local
