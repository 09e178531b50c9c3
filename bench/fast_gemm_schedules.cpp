// Paired comparison of the local kernel's schedules, one process,
// one rank: plain DGEMM, Winograd L levels with the two-temporary schedule
// on every level ("plain"), and with the accumulate schedule at the deepest
// level ("accumulate"), and with fused operand sums at the deepest level
// ("fused-deepest") or at every level ("fused-all"), and mmbench's packed
// GEMM alone ("packed-gemm") and under the levels ("packed", the deepest
// level fused into it); all of them write their operand passes with
// streaming stores, the "-cached" ones with ordinary stores (the kernel's
// default). Rounds run every configuration once in
// a rotated order; the ratio to DGEMM is taken per round (same round's
// DGEMM), reported as median [min, max] over the rounds, with the kernel's
// account (DGEMM leaves, addition passes per level) per multiply; each
// multiply's own account goes to stderr as it finishes.
//
//   cmake --build build --target fast_gemm_schedules
//   [LD_PAD=P] [PACKED_BLOCKING=MCxKCxNC] build/bench/fast_gemm_schedules N L ROUNDS THREADS [VARIANT,...]
//   e.g. build/bench/fast_gemm_schedules 8192 3 5 1
//        build/bench/fast_gemm_schedules 12288 4 3 1 dgemm,fused-all
// DGEMM always runs (every ratio is to the same round's DGEMM); the optional
// list picks the other variants, so a large n need not pay for all five.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "local/fast_gemm.hpp"
#include "local/packed_gemm.hpp"

using mmbench::local::FastGemm;
using mmbench::local::FastGemmConfig;
using mmbench::local::FastVariant;
using mmbench::local::LeafGemm;
using Fusion = mmbench::local::FastGemmConfig::Fusion;

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: %s N LEVELS ROUNDS THREADS [VARIANT,...]\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int levels = std::atoi(argv[2]), rounds = std::atoi(argv[3]), threads = std::atoi(argv[4]);
  if (n < 2 || levels < 1 || levels > 6 || rounds < 1 || threads < 1) {
    std::fprintf(stderr, "N >= 2, LEVELS 1..6, ROUNDS >= 1, THREADS >= 1\n");
    return 2;
  }
  openblas_set_num_threads(threads);
  // LD_PAD=P: leading dimension n + P for A, B and C (power-of-two ld puts
  // every column of a tile in the same L1 cache set).
  const long ld = n + (std::getenv("LD_PAD") ? std::atol(std::getenv("LD_PAD")) : 0);
  std::vector<double> a(ld * n), b(ld * n), c(ld * n);
  for (long i = 0; i < ld * n; ++i) {
    a[i] = (i % 7) * 0.1 - 0.3;
    b[i] = (i % 5) * 0.2 - 0.4;
  }
  // PACKED_BLOCKING=MCxKCxNC: the packed GEMM's block sizes for the packed
  // variants (default: the running kernel's).
  mmbench::local::PackedBlocking blocking{};
  if (const char* pb = std::getenv("PACKED_BLOCKING")) {
    long mc = 0, kc = 0, nc = 0;
    if (std::sscanf(pb, "%ldx%ldx%ld", &mc, &kc, &nc) != 3) {
      std::fprintf(stderr, "PACKED_BLOCKING='%s' is not MCxKCxNC (e.g. 96x768x1024)\n", pb);
      return 2;
    }
    blocking = {mc, kc, nc};
  }
  struct Variant {
    const char* name;
    FastGemmConfig cfg;
  };
  const std::vector<Variant> all_variants = {
      {"dgemm", {0, FastVariant::winograd, 256, threads}},
      // Streaming stores named here, not taken from the kernel's default
      // (cached since 2026-12-03): the variants keep the meaning the
      // committed results measured them with.
      {"plain", {levels, FastVariant::winograd, 256, threads, /*accumulate=*/false, Fusion::none, true}},
      {"accumulate", {levels, FastVariant::winograd, 256, threads, /*accumulate=*/true, Fusion::none, true}},
      {"fused-deepest",
       {levels, FastVariant::winograd, 256, threads, true, Fusion::deepest, /*streaming_stores=*/true}},
      {"fused-all", {levels, FastVariant::winograd, 256, threads, true, Fusion::all, /*streaming_stores=*/true}},
      {"fused-all-cached",
       {levels, FastVariant::winograd, 256, threads, true, Fusion::all, /*streaming_stores=*/false}},
      // mmbench's packed GEMM alone (L = 0), and the levels on it with the
      // deepest one fused into its packing (FastGemmConfig::leaf).
      {"packed-gemm", {0, FastVariant::winograd, 256, threads, true, Fusion::all, true, LeafGemm::packed}},
      {"packed", {levels, FastVariant::winograd, 256, threads, true, Fusion::all, true, LeafGemm::packed}},
      {"packed-cached", {levels, FastVariant::winograd, 256, threads, true, Fusion::all, false, LeafGemm::packed}}};
  // The optional list: names separated by commas, each one of all_variants.
  std::vector<std::string> wanted;
  if (argc == 6)
    for (std::string list = argv[5]; !list.empty();) {
      const std::size_t comma = list.find(',');
      wanted.push_back(list.substr(0, comma));
      list = comma == std::string::npos ? "" : list.substr(comma + 1);
    }
  for (const std::string& w : wanted)
    if (std::none_of(all_variants.begin(), all_variants.end(), [&](const Variant& v) { return w == v.name; })) {
      std::fprintf(stderr,
                   "unknown variant '%s' (allowed: dgemm, plain, accumulate, fused-deepest, fused-all, "
                   "fused-all-cached, packed-gemm, packed, packed-cached)\n",
                   w.c_str());
      return 2;
    }
  std::vector<Variant> variants;  // dgemm first: ratios divide by t[0]
  for (const Variant& v : all_variants)
    if (wanted.empty() || v.name == std::string("dgemm") ||
        std::find(wanted.begin(), wanted.end(), v.name) != wanted.end())
      variants.push_back(v);
  std::vector<FastGemm> kernels;
  for (Variant& v : variants) {
    if (v.cfg.leaf == LeafGemm::packed) v.cfg.packed_blocking = blocking;
    kernels.emplace_back(v.cfg);
  }
  auto run = [&](FastGemm& k) { k.multiply(n, n, n, a.data(), ld, b.data(), ld, c.data(), ld); };
  for (FastGemm& k : kernels) {  // warm-up: workspace, pages, caches
    run(k);
    k.reset_account();
  }
  std::vector<std::vector<double>> t(variants.size());
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const std::size_t j = (i + r) % variants.size();
      // This multiply's own account (the totals below are sums over
      // rounds): the spread between rounds shows where the noise sits.
      const mmbench::local::FastGemmAccount before = kernels[j].account();
      const double t0 = now();
      run(kernels[j]);
      t[j].push_back(now() - t0);
      const mmbench::local::FastGemmAccount& after = kernels[j].account();
      std::fprintf(stderr, "# round %d %s: %.3f s, leaves %.3f s, additions %.3f s", r + 1, variants[j].name,
                   t[j].back(), after.leaf_seconds - before.leaf_seconds,
                   after.total_add_seconds() - before.total_add_seconds());
      for (int l = 1; l <= kernels[j].deepest_levels(); ++l)
        std::fprintf(stderr, "%s%.3f", l > 1 ? ";" : ", by level ", after.add_seconds[l] - before.add_seconds[l]);
      std::fprintf(stderr, "\n");
    }
  std::printf("# n=%ld ld=%ld levels=%d rounds=%d threads=%d packed_blocking=%s; ideal (8/7)^L = %.3f\n", n, ld, levels,
              rounds, threads, mmbench::local::to_string(kernels.back().config().packed_blocking).c_str(),
              std::pow(8.0 / 7.0, levels));
  std::printf("variant,t_median_s,gflops_eff,ratio_median,ratio_min,ratio_max,leaf_s,add_s,add_s_by_level,passes_by_level\n");
  for (std::size_t i = 0; i < variants.size(); ++i) {
    std::vector<double> ratio;
    for (int r = 0; r < rounds; ++r) ratio.push_back(t[0][r] / t[i][r]);
    const auto& acc = kernels[i].account();
    std::string by_level, passes;
    for (int l = 1; l <= kernels[i].deepest_levels(); ++l) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%.3f", l > 1 ? ";" : "", acc.add_seconds[l] / rounds);
      by_level += buf;
      if (l > 1) passes += ';';
      passes += std::to_string(acc.passes[l] / rounds);
    }
    const double tm = median(t[i]);
    std::printf("%s,%.3f,%.1f,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%s\n", variants[i].name, tm, 2.0 * n * n * n / tm / 1e9,
                median(ratio), *std::min_element(ratio.begin(), ratio.end()),
                *std::max_element(ratio.begin(), ratio.end()), acc.leaf_seconds / rounds,
                acc.total_add_seconds() / rounds, by_level.c_str(), passes.c_str());
  }
  return 0;
}
