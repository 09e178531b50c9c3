// Paired comparison of the packed GEMM's block sizes against the BLAS's
// DGEMM on one thread: C = A·B, n × n × n, every candidate and DGEMM once
// per round in a rotated order, each ratio taken against the same round's
// DGEMM and reported as median [min, max] over the rounds. The FMA loop's
// one-core rate (AVX-512 only; elsewhere of_peak is left empty) is measured
// between rounds too, so each row also reads as a fraction of the peak
// measured in the same run.
//
//   cmake --build build --target packed_blockings
//   build/bench/packed_blockings N ROUNDS [MCxKCxNC,...]
//   e.g. build/bench/packed_blockings 4096 5 96x768x1024,192x256x4096
// Without a list: the kernel's default blocking. The kernel is packed_isa()'s
// (MMBENCH_PACKED_ISA picks another).
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/stats/paired_stats.hpp"
#include "local/packed_gemm.hpp"
#include "local/peak_loop.hpp"

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
// The register-only FMA loop's rate on this core, GFLOP/s (0 where the
// build has no AVX-512 loop).
double fma_loop_gflops() {
  const mmbench::local::PeakLoop loop = mmbench::local::avx512_peak_loop();
  if (loop == nullptr || !__builtin_cpu_supports("avx512f")) return 0.0;
  const std::int64_t iterations = 20'000'000;
  const double t0 = now();
  volatile double sink = loop(iterations);
  (void)sink;
  return double(iterations) * mmbench::local::kAvx512FlopsPerIteration / (now() - t0) / 1e9;
}
double median(std::vector<double> v) { return mmbench::median_interval(std::move(v)).median; }
}  // namespace

int main(int argc, char** argv) {
  using namespace mmbench::local;
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: %s N ROUNDS [MCxKCxNC,...]\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int rounds = std::atoi(argv[2]);
  if (n < 16 || rounds < 1) {
    std::fprintf(stderr, "N >= 16, ROUNDS >= 1\n");
    return 2;
  }
  openblas_set_num_threads(1);
  const PackedIsa isa = packed_isa();
  std::vector<PackedBlocking> list;
  if (argc == 4) {
    for (std::string s = argv[3]; !s.empty();) {
      const std::size_t comma = s.find(',');
      const std::string item = s.substr(0, comma);
      s = comma == std::string::npos ? "" : s.substr(comma + 1);
      PackedBlocking b;
      if (std::sscanf(item.c_str(), "%ldx%ldx%ld", &b.mc, &b.kc, &b.nc) != 3) {
        std::fprintf(stderr, "'%s' is not MCxKCxNC\n", item.c_str());
        return 2;
      }
      if (const std::string p = packed_blocking_problem(b, isa); !p.empty()) {
        std::fprintf(stderr, "%s: %s\n", item.c_str(), p.c_str());
        return 2;
      }
      list.push_back(b);
    }
  } else {
    list.push_back(default_packed_blocking(isa));
  }
  std::size_t ws_doubles = 0;
  for (const PackedBlocking& b : list) ws_doubles = std::max(ws_doubles, packed_workspace_doubles(isa, b));
  auto* ws = static_cast<double*>(std::aligned_alloc(64, (ws_doubles * 8 + 63) / 64 * 64));
  std::vector<double> a(n * n), b(n * n), c(n * n);
  for (long i = 0; i < n * n; ++i) {
    a[i] = (i % 7) * 0.1 - 0.3;
    b[i] = (i % 5) * 0.2 - 0.4;
  }
  const std::size_t count = list.size() + 1;  // the last is DGEMM
  auto run = [&](std::size_t which) {
    if (which == list.size()) {
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
      return;
    }
    const PackedTerm at{a.data(), n, 1.0}, bt{b.data(), n, 1.0};
    const PackedDestination ct{c.data(), n, 1.0, true};
    packed_gemm(n, n, n, &at, 1, &bt, 1, &ct, 1, ws, isa, list[which]);
  };
  for (std::size_t i = 0; i < count; ++i) run(i);
  std::vector<std::vector<double>> t(count);
  std::vector<double> peak;
  for (int r = 0; r < rounds; ++r) {
    peak.push_back(fma_loop_gflops());
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t j = (i + r) % count;
      const double t0 = now();
      run(j);
      t[j].push_back(now() - t0);
    }
  }
  const double flops = 2.0 * n * n * n;
  const double fma_peak = median(peak);  // 0 without the AVX-512 loop: of_peak is then left empty
  std::printf("# n=%ld rounds=%d isa=%s; FMA loop (AVX-512) one core %.1f GFLOP/s (median of rounds)\n", n, rounds,
              std::string(to_string(isa)).c_str(), fma_peak);
  std::printf("blocking,gflops,of_peak,gflops_best,vs_dgemm_median,vs_dgemm_min,vs_dgemm_max\n");
  for (std::size_t i = 0; i < count; ++i) {
    std::vector<double> ratio;
    for (int r = 0; r < rounds; ++r) ratio.push_back(t[list.size()][r] / t[i][r]);
    const double g = flops / median(t[i]) / 1e9;
    const double best = flops / *std::min_element(t[i].begin(), t[i].end()) / 1e9;
    const std::string of_peak = fma_peak > 0 ? std::to_string(g / fma_peak).substr(0, 5) : "";
    std::printf("%s,%.1f,%s,%.1f,%.3f,%.3f,%.3f\n", i == list.size() ? "dgemm" : to_string(list[i]).c_str(), g,
                of_peak.c_str(), best, median(ratio), *std::min_element(ratio.begin(), ratio.end()),
                *std::max_element(ratio.begin(), ratio.end()));
  }
  std::free(ws);
  return 0;
}
