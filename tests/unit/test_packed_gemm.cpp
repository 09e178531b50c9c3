// Tests of the packed GEMM (src/local/packed_gemm.*) and of FastGemm with it
// at the bottom (FastGemmConfig::leaf = packed: the deepest level fused).
//
// Every kernel this CPU can run is tested, not only the one packed_isa()
// picks: the AVX-512 kernel (MR×NR = 16×12, MC 96, KC 768, NC 1024), AVX2
// (8×6, 48, 768, 1024) and the portable one (8×4, 128, 256, 2048). Shapes
// cross every blocking edge of each: partial MR and NR tiles, several KC
// blocks (k = 1000: two even blocks of 500 with KC = 768), several MC blocks
// (m = 300), several NC blocks of the vector kernels (n = 1100: 550 + 550),
// and 1×1×1. Correctness is the normwise measure of
// test_fast_gemm.cpp against one cblas_dgemm of the explicitly formed sums.
#include "local/packed_gemm.hpp"

#include <cblas.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "local/fast_gemm.hpp"
#include "local/local_multiply.hpp"

namespace mmbench::local {
namespace {

using i64 = std::int64_t;
constexpr double kSentinel = 12345.0;

std::vector<double> random_values(i64 count, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<std::size_t>(count));
  for (double& x : v) x = u(gen);
  return v;
}

std::vector<PackedIsa> runnable_isas() {
  std::vector<PackedIsa> out;
  for (PackedIsa isa : {PackedIsa::avx512, PackedIsa::avx2, PackedIsa::portable})
    if (packed_isa_available(isa)) out.push_back(isa);
  return out;
}

// C_d = (overwrite ? 0 : C_d) + coef_d (Σ α A_t)(Σ β B_s) with `na` A terms,
// `nb` B terms and `nc` destinations of mixed coefficients and modes, all
// parts of padded buffers (ld = rows + 3); returns the normwise error ratio
// and checks the padding rows.
double check_sum_of_products(i64 m, i64 n, i64 k, int na, int nb, int nc, PackedIsa isa,
                             const PackedBlocking& blocking = {}) {
  const i64 lda = m + 3, ldb = k + 3, ldc = m + 3;
  const double alpha[4] = {1.0, -1.0, 1.0, -1.0}, beta[4] = {-1.0, 1.0, 1.0, -1.0};
  const double gamma[4] = {1.0, -1.0, 1.0, 1.0};
  const bool overwrite[4] = {true, false, false, true};
  std::vector<std::vector<double>> as, bs, cs;
  for (int t = 0; t < na; ++t) as.push_back(random_values(lda * k, 10u + t));
  for (int t = 0; t < nb; ++t) bs.push_back(random_values(ldb * n, 20u + t));
  for (int d = 0; d < nc; ++d) {
    cs.push_back(random_values(ldc * n, 30u + d));
    for (i64 j = 0; j < n; ++j)
      for (i64 i = m; i < ldc; ++i) cs[d][i + j * ldc] = kSentinel;
    if (overwrite[d])  // garbage that must never be read
      for (i64 j = 0; j < n; ++j)
        for (i64 i = 0; i < m; ++i) cs[d][i + j * ldc] = std::numeric_limits<double>::quiet_NaN();
  }
  // Reference: the sums formed explicitly, one DGEMM.
  std::vector<double> sa(m * k, 0.0), sb(k * n, 0.0), ref(m * n, 0.0);
  for (int t = 0; t < na; ++t)
    for (i64 j = 0; j < k; ++j)
      for (i64 i = 0; i < m; ++i) sa[i + j * m] += alpha[t] * as[t][i + j * lda];
  for (int t = 0; t < nb; ++t)
    for (i64 j = 0; j < n; ++j)
      for (i64 i = 0; i < k; ++i) sb[i + j * k] += beta[t] * bs[t][i + j * ldb];
  if (k > 0)
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0, sa.data(), int(m),
                sb.data(), int(k), 0.0, ref.data(), int(m));
  std::vector<std::vector<double>> expect = cs;
  for (int d = 0; d < nc; ++d)
    for (i64 j = 0; j < n; ++j)
      for (i64 i = 0; i < m; ++i) {
        double& e = expect[d][i + j * ldc];
        e = (overwrite[d] ? 0.0 : e) + gamma[d] * ref[i + j * m];
      }

  std::vector<PackedTerm> at, bt;
  std::vector<PackedDestination> ct;
  for (int t = 0; t < na; ++t) at.push_back({as[t].data(), lda, alpha[t]});
  for (int t = 0; t < nb; ++t) bt.push_back({bs[t].data(), ldb, beta[t]});
  for (int d = 0; d < nc; ++d) ct.push_back({cs[d].data(), ldc, gamma[d], overwrite[d]});
  std::vector<double> ws(packed_workspace_doubles(isa, blocking) + 8);
  double* aligned_ws = reinterpret_cast<double*>((reinterpret_cast<std::uintptr_t>(ws.data()) + 63) & ~std::uintptr_t{63});
  packed_gemm(m, n, k, at.data(), na, bt.data(), nb, ct.data(), nc, aligned_ws, isa, blocking);

  double err = 0;
  for (int d = 0; d < nc; ++d)
    for (i64 j = 0; j < n; ++j) {
      for (i64 i = 0; i < m; ++i) {
        const double diff = std::abs(cs[d][i + j * ldc] - expect[d][i + j * ldc]);
        err = std::isnan(diff) ? std::numeric_limits<double>::infinity() : std::max(err, diff);
      }
      for (i64 i = m; i < ldc; ++i) EXPECT_EQ(cs[d][i + j * ldc], kSentinel) << "padding of destination " << d;
    }
  // |Σ terms| <= terms · max|entry| = terms for entries in [-1, 1].
  const double scale = std::max<i64>(k, 1) * std::numeric_limits<double>::epsilon() * na * nb * 4;
  return err / scale;
}

struct Shape {
  i64 m, n, k;
};

TEST(PackedGemm, PlainAndSumsOfProductsOnEveryKernel) {
  const std::vector<Shape> shapes{{1, 1, 1}, {17, 13, 5}, {16, 12, 512}, {33, 29, 1000}, {300, 70, 40}, {64, 130, 257}, {20, 1100, 9}};
  for (PackedIsa isa : runnable_isas())
    for (const Shape& s : shapes)
      for (int terms : {1, 2, 4})
        for (int dests : {1, 2, 4}) {
          const double ratio = check_sum_of_products(s.m, s.n, s.k, terms, terms == 4 ? 1 : terms, dests, isa);
          EXPECT_LE(ratio, 1.0) << to_string(isa) << " " << s.m << "x" << s.n << "x" << s.k << " terms " << terms
                                << " destinations " << dests;
        }
}

TEST(PackedGemm, KZeroClearsOverwritingDestinationsOnly) {
  for (PackedIsa isa : runnable_isas()) {
    std::vector<double> c1(6, 7.0), c2(6, 7.0), ws(packed_workspace_doubles(isa));
    const double a = 1.0, b = 1.0;
    const PackedTerm at{&a, 2, 1.0}, bt{&b, 1, 1.0};
    const PackedDestination ct[2] = {{c1.data(), 2, 1.0, true}, {c2.data(), 2, 1.0, false}};
    packed_gemm(2, 3, 0, &at, 1, &bt, 1, ct, 2, ws.data(), isa);
    EXPECT_EQ(c1, std::vector<double>(6, 0.0));
    EXPECT_EQ(c2, std::vector<double>(6, 7.0));
  }
}

TEST(PackedGemm, RejectsCountsOutOfRange) {
  std::vector<double> ws(packed_workspace_doubles(PackedIsa::portable)), c(4);
  const double x = 1.0;
  const PackedTerm t{&x, 1, 1.0};
  const PackedDestination d{c.data(), 1, 1.0, true};
  EXPECT_THROW(packed_gemm(1, 1, 1, &t, 0, &t, 1, &d, 1, ws.data(), PackedIsa::portable), std::invalid_argument);
  EXPECT_THROW(packed_gemm(1, 1, 1, &t, 1, &t, 5, &d, 1, ws.data(), PackedIsa::portable), std::invalid_argument);
  EXPECT_THROW(packed_gemm(1, 1, 1, &t, 1, &t, 1, &d, 0, ws.data(), PackedIsa::portable), std::invalid_argument);
  EXPECT_THROW(packed_gemm(-1, 1, 1, &t, 1, &t, 1, &d, 1, ws.data(), PackedIsa::portable), std::invalid_argument);
}

// Blockings other than the defaults, small enough that the shapes above
// cross several MC, KC and NC blocks with ragged last ones: MC the smallest
// multiple of MR (one panel per A block) and a few panels; KC and NC caps
// that are not multiples of anything (k = 1000 with KC = 37: 28 blocks of
// 35-36; n = 130 with NC = 50: 44 + 43 + 43, ragged NR tiles in each).
TEST(PackedGemm, NonDefaultBlockingsMatchTheReference) {
  const std::vector<Shape> shapes{{1, 1, 1}, {17, 13, 5}, {33, 29, 1000}, {300, 70, 40}, {64, 130, 257}};
  for (PackedIsa isa : runnable_isas()) {
    const PackedTile t = packed_tile(isa);
    const std::vector<PackedBlocking> blockings{
        {t.mr, 8, t.nr}, {3 * t.mr, 37, 50}, {5 * t.mr, 129, 3 * t.nr + 1}, {t.mr, 0, 0}, {0, 256, 0}};
    for (const PackedBlocking& b : blockings)
      for (const Shape& s : shapes)
        for (int terms : {1, 2}) {
          const double ratio = check_sum_of_products(s.m, s.n, s.k, terms, terms, terms, isa, b);
          EXPECT_LE(ratio, 1.0) << to_string(isa) << " blocking " << to_string(b) << " " << s.m << "x" << s.n
                                << "x" << s.k << " terms " << terms;
        }
  }
}

TEST(PackedBlocking, DefaultsAndValidation) {
  for (PackedIsa isa : {PackedIsa::avx512, PackedIsa::avx2, PackedIsa::portable}) {
    const PackedTile t = packed_tile(isa);
    const PackedBlocking d = default_packed_blocking(isa);
    EXPECT_EQ(packed_blocking_problem(d, isa), "") << to_string(isa);
    EXPECT_EQ(d.mc % t.mr, 0) << to_string(isa);
    // Zeros take the defaults.
    EXPECT_EQ(resolve_packed_blocking({}, isa), d);
    EXPECT_EQ(resolve_packed_blocking({0, 300, 0}, isa), (PackedBlocking{d.mc, 300, d.nc}));
    // Edges of every rule.
    EXPECT_EQ(packed_blocking_problem({t.mr, 8, t.nr}, isa), "");
    EXPECT_EQ(packed_blocking_problem({8192 / t.mr * t.mr, 8192, 65536}, isa), "");
    EXPECT_NE(packed_blocking_problem({t.mr + 1, 0, 0}, isa).find("not a multiple"), std::string::npos);
    EXPECT_NE(packed_blocking_problem({-t.mr, 0, 0}, isa).find("MC = "), std::string::npos);
    EXPECT_NE(packed_blocking_problem({8192 / t.mr * t.mr + t.mr, 0, 0}, isa).find("MC = "), std::string::npos);
    EXPECT_NE(packed_blocking_problem({0, 7, 0}, isa).find("KC = 7"), std::string::npos);
    EXPECT_NE(packed_blocking_problem({0, 8193, 0}, isa).find("KC = 8193"), std::string::npos);
    EXPECT_NE(packed_blocking_problem({0, 0, t.nr - 1}, isa).find("NC = "), std::string::npos);
    EXPECT_NE(packed_blocking_problem({0, 0, 65537}, isa).find("NC = 65537"), std::string::npos);
    EXPECT_THROW(resolve_packed_blocking({0, 5, 0}, isa), std::invalid_argument);
    EXPECT_THROW(packed_workspace_doubles(PackedIsa::portable, {0, 5, 0}), std::invalid_argument);
  }
  EXPECT_EQ(to_string(PackedBlocking{96, 768, 1024}), "96x768x1024");
  EXPECT_EQ(packed_blocking_problem({100, 0, 0}, PackedIsa::avx512),
            "MC = 100 is not a multiple of the avx512 kernel's MR = 16");
  // A larger blocking needs a larger workspace.
  EXPECT_LT(packed_workspace_doubles(PackedIsa::portable, {8, 8, 4}),
            packed_workspace_doubles(PackedIsa::portable, {64, 256, 512}));
  // packed_gemm itself rejects a bad blocking before touching anything.
  std::vector<double> ws(packed_workspace_doubles(PackedIsa::portable)), c(1);
  const double x = 1.0;
  const PackedTerm term{&x, 1, 1.0};
  const PackedDestination dest{c.data(), 1, 1.0, true};
  EXPECT_THROW(packed_gemm(1, 1, 1, &term, 1, &term, 1, &dest, 1, ws.data(), PackedIsa::portable, {12, 0, 0}),
               std::invalid_argument);
  // FastGemm takes one through its config and shows the resolved one.
  FastGemmConfig cfg{1, FastVariant::winograd, 2, 1};
  cfg.leaf = LeafGemm::packed;
  cfg.packed_blocking = {0, 64, 0};
  const FastGemm fg(cfg);
  EXPECT_EQ(fg.config().packed_blocking, resolve_packed_blocking({0, 64, 0}, packed_isa()));
  cfg.packed_blocking = {0, 3, 0};
  EXPECT_THROW(FastGemm{cfg}, std::invalid_argument);
}

// The choice of kernel, one case per rule, independent of this CPU.
TEST(PackedIsaChoice, UnsetTakesTheWidestTheCpuRuns) {
  const PackedIsaSupport all{true, true}, avx2_only{false, true}, none{};
  // The BLAS's core does not matter without match-blas.
  for (bool blas_avx512 : {false, true}) {
    EXPECT_EQ(choose_packed_isa("", all, blas_avx512), PackedIsa::avx512);
    EXPECT_EQ(choose_packed_isa("", avx2_only, blas_avx512), PackedIsa::avx2);
    EXPECT_EQ(choose_packed_isa("", none, blas_avx512), PackedIsa::portable);
  }
}

TEST(PackedIsaChoice, MatchBlasFollowsTheBlasCore) {
  const PackedIsaSupport all{true, true}, avx2_only{false, true}, none{};
  EXPECT_EQ(choose_packed_isa("match-blas", all, true), PackedIsa::avx512);
  EXPECT_EQ(choose_packed_isa("match-blas", all, false), PackedIsa::avx2);  // e.g. OPENBLAS_CORETYPE=Haswell
  EXPECT_EQ(choose_packed_isa("match-blas", avx2_only, true), PackedIsa::avx2);
  EXPECT_EQ(choose_packed_isa("match-blas", none, true), PackedIsa::portable);
  EXPECT_EQ(choose_packed_isa("match-blas", none, false), PackedIsa::portable);
}

TEST(PackedIsaChoice, ForcedByNameOrRejected) {
  const PackedIsaSupport all{true, true}, avx2_only{false, true}, none{};
  EXPECT_EQ(choose_packed_isa("avx512", all, false), PackedIsa::avx512);
  EXPECT_EQ(choose_packed_isa("avx2", all, true), PackedIsa::avx2);
  EXPECT_EQ(choose_packed_isa("portable", all, true), PackedIsa::portable);
  EXPECT_EQ(choose_packed_isa("portable", none, false), PackedIsa::portable);
  // A kernel the CPU lacks is an error naming what it has, never a silent fallback.
  try {
    choose_packed_isa("avx512", avx2_only, true);
    ADD_FAILURE() << "no throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("avx2, portable, match-blas"), std::string::npos) << e.what();
  }
  EXPECT_THROW(choose_packed_isa("avx2", none, false), std::runtime_error);
  try {
    choose_packed_isa("sse9", all, false);
    ADD_FAILURE() << "no throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'sse9'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("match-blas"), std::string::npos) << e.what();
  }
  EXPECT_THROW(choose_packed_isa("AVX512", all, false), std::runtime_error);  // names are exact
}

TEST(PackedIsaChoice, ThisProcessAgreesWithTheRule) {
  // Whatever MMBENCH_PACKED_ISA the test runs under (normally unset).
  const char* env = std::getenv("MMBENCH_PACKED_ISA");
  const std::string forced = env ? env : "";
  if (forced.empty()) {
    EXPECT_EQ(packed_isa(), choose_packed_isa("", packed_isa_support(), false));
    EXPECT_NE(describe_packed_isa().find("the widest this CPU runs"), std::string::npos) << describe_packed_isa();
  }
  EXPECT_EQ(describe_packed_isa().rfind(std::string(to_string(packed_isa())), 0), 0u) << describe_packed_isa();
}

// ---- FastGemm with the packed GEMM at the bottom -----------------------------

FastGemmConfig packed_config(int levels, FastVariant variant, i64 min_dim, int threads) {
  FastGemmConfig cfg{levels, variant, min_dim, threads};
  cfg.leaf = LeafGemm::packed;
  return cfg;
}

// max|C - DGEMM| / (k ε max|A| max|B| growth(L)), as test_fast_gemm.cpp.
double fast_packed_ratio(i64 m, i64 n, i64 k, const FastGemmConfig& cfg) {
  const std::vector<double> a = random_values(m * k, 1), b = random_values(k * n, 2);
  std::vector<double> ref(m * n), c(m * n, std::numeric_limits<double>::quiet_NaN());
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0, a.data(), int(m), b.data(),
              int(k), 0.0, ref.data(), int(m));
  FastGemm fg(cfg);
  fg.multiply(m, n, k, a.data(), m, b.data(), k, c.data(), m);
  double err = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double d = std::abs(c[i] - ref[i]);
    err = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(err, d);
  }
  return err / (k * std::numeric_limits<double>::epsilon() * fast_gemm_error_growth(cfg.levels, cfg.variant));
}

TEST(FastGemmPacked, MatchesDgemmOverShapesLevelsVariantsThreads) {
  const std::vector<Shape> shapes{{64, 64, 64}, {96, 80, 112}, {67, 45, 93}, {130, 129, 131},
                                  {1, 1, 1},    {3, 5, 7},     {33, 1, 17}, {200, 190, 210}};
  for (const Shape& s : shapes)
    for (int levels : {0, 1, 2, 3})
      for (FastVariant v : {FastVariant::winograd, FastVariant::strassen})
        for (int threads : {1, 2})
          EXPECT_LE(fast_packed_ratio(s.m, s.n, s.k, packed_config(levels, v, 2, threads)), 1.0)
              << s.m << "x" << s.n << "x" << s.k << " L=" << levels << " " << to_string(v) << " threads=" << threads;
}

// The deepest level makes no memory pass: its sums are formed while packing
// and its products go into C from the micro-kernel. Three Winograd levels on
// 64³: 3 fused passes at the top, 7·3 at level 2, none at level 3, whose
// 49 instances make 7 packed products each.
TEST(FastGemmPacked, DeepestLevelMakesNoPass) {
  const std::vector<double> a(64 * 64, 1.0), b(64 * 64, 2.0);
  std::vector<double> c(64 * 64);
  FastGemm fg(packed_config(3, FastVariant::winograd, 2, 1));
  fg.multiply(64, 64, 64, a.data(), 64, b.data(), 64, c.data(), 64);
  EXPECT_EQ(fg.account().passes[1], 3);
  EXPECT_EQ(fg.account().passes[2], 21);
  EXPECT_EQ(fg.account().passes[3], 0);
  EXPECT_EQ(fg.account().leaf_calls, 343);
  for (double x : c) ASSERT_EQ(x, 128.0);  // 64 · 1 · 2, exact in any order
  // One level: no pass at all.
  FastGemm one(packed_config(1, FastVariant::winograd, 2, 1));
  one.multiply(64, 64, 64, a.data(), 64, b.data(), 64, c.data(), 64);
  EXPECT_EQ(one.account().total_passes(), 0);
  EXPECT_EQ(one.account().leaf_calls, 7);
}

// The workspace: one packing area per thread, and no temporaries for the
// deepest level (one level: the packing area alone).
TEST(FastGemmPacked, WorkspaceIsPackingAreaPlusUpperLevels) {
  const std::size_t area = (packed_workspace_doubles(packed_isa()) + 7) / 8 * 8 * sizeof(double);
  EXPECT_EQ(FastGemm::workspace_bytes_needed(256, 256, 256, packed_config(1, FastVariant::winograd, 2, 1)), area);
  EXPECT_EQ(FastGemm::workspace_bytes_needed(256, 256, 256, packed_config(0, FastVariant::winograd, 2, 2)), 2 * area);
  FastGemmConfig blas2{2, FastVariant::winograd, 2, 1}, blas1{1, FastVariant::winograd, 2, 1};
  // Two packed levels: the top level's fused temporaries, as the blas
  // kernel's with one level.
  EXPECT_EQ(FastGemm::workspace_bytes_needed(256, 256, 256, packed_config(2, FastVariant::winograd, 2, 1)),
            area + FastGemm::workspace_bytes_needed(256, 256, 256, blas1));
  EXPECT_LT(FastGemm::workspace_bytes_needed(256, 256, 256, packed_config(2, FastVariant::winograd, 2, 1)),
            area + FastGemm::workspace_bytes_needed(256, 256, 256, blas2));
}

TEST(FastGemmPacked, LocalMultiplyNamesTheGemm) {
  LocalMultiply packed({.gemm = LeafGemm::packed}, 1);
  const std::vector<double> a(96 * 96, 1.0), b(96 * 96, 1.0);
  std::vector<double> c(96 * 96, 0.0);
  packed(96, 96, 96, a.data(), 96, b.data(), 96, c.data(), 96);
  EXPECT_EQ(c[0], 96.0);
  EXPECT_EQ(packed.describe()["local_gemm"], "packed");
  EXPECT_EQ(LocalMultiply({}, 1).describe()["local_gemm"], "blas");
  EXPECT_THROW(parse_leaf_gemm("mkl"), std::invalid_argument);  // a name is checked where it is parsed
  EXPECT_EQ(parse_leaf_gemm("packed"), LeafGemm::packed);
  EXPECT_EQ(to_string(LeafGemm::blas), "blas");
}

}  // namespace
}  // namespace mmbench::local
