#include "tuner/packed_ladder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>

#include "core/machine/blas.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/generate.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/stats/timing.hpp"
#include "local/fast_gemm.hpp"

namespace mmbench::tuner {

using local::PackedBlocking;

std::vector<PackedBlocking> packed_ladder(local::PackedIsa isa) {
  const PackedBlocking d = local::default_packed_blocking(isa);
  const std::int64_t mr = local::packed_tile(isa).mr;
  const auto panels = [&](std::int64_t mc) { return std::max<std::int64_t>(mr, mc / mr * mr); };
  const std::vector<PackedBlocking> tries{d,
                                          {panels(2 * d.mc), d.kc, d.nc},
                                          {panels(d.mc / 2), d.kc, d.nc},
                                          {d.mc, d.kc / 2, d.nc},
                                          {d.mc, d.kc, 2 * d.nc},
                                          {d.mc, d.kc, d.nc / 2}};
  std::vector<PackedBlocking> out;
  for (const PackedBlocking& b : tries)
    if (local::packed_blocking_problem(b, isa).empty() && std::find(out.begin(), out.end(), b) == out.end())
      out.push_back(b);
  return out;
}

namespace {
constexpr int kLevelRounds = 9;
}  // namespace

std::int64_t packed_ladder_size(std::int64_t n) { return std::clamp<std::int64_t>(n, 64, 2048); }

profile::PackedTuneRecord measure_packed_ladder(std::int64_t n, int rounds, int warmup, MPI_Comm comm_handle,
                                                const std::function<void(const std::string&)>& say) {
  if (n < 1 || rounds < 1 || warmup < 0)
    throw std::invalid_argument(fmt::format("packed ladder: n = {}, rounds = {}, warmup = {}: needs n, rounds >= 1, "
                                            "warmup >= 0",
                                            static_cast<long long>(n), rounds, warmup));
  const Comm comm = Comm::view(comm_handle);
  const bool root = comm.rank() == 0;
  const local::PackedIsa isa = local::packed_isa();
  const std::vector<PackedBlocking> ladder = packed_ladder(isa);

  // Operands on rank 0 only; the others sleep through every call.
  const std::size_t size = root ? static_cast<std::size_t>(n * n) : 0;
  std::vector<double> a(size), b(size), c(size, 0.0);
  if (root)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        a[static_cast<std::size_t>(i + j * n)] = matrix_entry(i, j, 21);
        b[static_cast<std::size_t>(i + j * n)] = matrix_entry(i, j, 22);
      }
  std::size_t ws_doubles = 0;
  for (const PackedBlocking& bl : ladder) ws_doubles = std::max(ws_doubles, local::packed_workspace_doubles(isa, bl));
  // 64-byte aligned, as FastGemm's workspace (the kernel loads A panels aligned).
  std::vector<double> ws_store(root ? ws_doubles + 8 : 0);
  double* ws = root ? reinterpret_cast<double*>((reinterpret_cast<std::uintptr_t>(ws_store.data()) + 63) &
                                                ~std::uintptr_t{63})
                    : nullptr;

  // One thread for every timed call, the levels' construction included,
  // restored on leaving by any path (an invalid blocking throws).
  const ScopedBlasThreads one_thread(1);
  // Rank 0 times `count` candidates, call(which) each, `warmup` untimed
  // calls of each first, then `round_count` rounds in round_order(count, seed, r).
  auto time_candidates = [&](std::size_t count, const std::function<void(std::size_t)>& call, std::uint64_t seed,
                             const char* what, int round_count) {
    for (std::size_t w = 0; w < count; ++w)
      for (int i = 0; i < warmup; ++i)
        run_taking_part(
            comm, [&] { call(w); }, root);
    std::vector<std::vector<double>> times(count);
    for (int r = 0; r < round_count; ++r) {
      for (std::size_t which : round_order(count, seed, r))
        times[which].push_back(time_max_over_ranks(
            comm, [&] { call(which); }, root));
      if (say) say(fmt::format("{} round {}/{}", what, r + 1, round_count));
    }
    return times;
  };
  auto dgemm_n = [&] { dgemm(n, n, n, a.data(), n, b.data(), n, 0.0, c.data(), n); };

  // Candidates 0 .. size-1 are the ladder; the last is the DGEMM.
  const std::vector<std::vector<double>> times = time_candidates(
      ladder.size() + 1,
      [&](std::size_t which) {
        if (which == ladder.size()) return dgemm_n();
        const local::PackedTerm at{a.data(), n, 1.0}, bt{b.data(), n, 1.0};
        const local::PackedDestination ct{c.data(), n, 1.0, true};
        local::packed_gemm(n, n, n, &at, 1, &bt, 1, &ct, 1, ws, isa, ladder[which]);
      },
      0x7061636b65640000ULL /* "packed" */, "packed GEMM", rounds);

  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  const auto rate = [&](std::size_t which) { return flops / summarize(times[which]).median / 1e6; };
  profile::PackedTuneRecord out;
  out.measured = true;
  out.isa = isa;
  out.n = n;
  out.rounds = rounds;
  for (std::size_t i = 0; i < ladder.size(); ++i) out.candidates.push_back({ladder[i], rate(i)});
  // The first of equal medians: the defaults where nothing beats them.
  const auto best = std::max_element(out.candidates.begin(), out.candidates.end(),
                                     [](const profile::PackedCandidate& x, const profile::PackedCandidate& y) {
                                       return x.mflops_median < y.mflops_median;
                                     });
  out.best = best->blocking;
  out.packed_mflops = best->mflops_median;
  out.blas_mflops = rate(ladder.size());
  out.speedup =
      profile::paired_speedup(times[static_cast<std::size_t>(best - out.candidates.begin())], times[ladder.size()]);

  // One level on each leaf (profile::PackedLevel), where the kernel would
  // apply one by default: 0 DGEMM, 1 the level on DGEMM leaves, 2 the level
  // fused into the packed GEMM with the best blocking. At least kLevelRounds
  // rounds: the two levels differ by a few per cent, and below 9 rounds the
  // median's 95 % interval is the whole range of the ratios
  // (core/stats/paired_stats.hpp), so one slow round would decide the leaf.
  if (n >= local::FastGemmConfig{}.min_dim) {
    local::FastGemmConfig on_blas;
    on_blas.levels = 1;
    on_blas.threads = 1;
    local::FastGemmConfig on_packed = on_blas;
    on_packed.leaf = local::LeafGemm::packed;
    on_packed.packed_blocking = out.best;
    local::FastGemm level_blas(on_blas), level_packed(on_packed);
    if (root) {  // workspace touched outside the timing
      level_blas.prepare(n, n, n);
      level_packed.prepare(n, n, n);
    }
    const int level_rounds = std::max(rounds, kLevelRounds);
    const std::vector<std::vector<double>> lt = time_candidates(
        3,
        [&](std::size_t which) {
          if (which == 0) return dgemm_n();
          (which == 1 ? level_blas : level_packed).multiply(n, n, n, a.data(), n, b.data(), n, c.data(), n);
        },
        0x6c6576656c000000ULL /* "level" */, "one Strassen level on each leaf", level_rounds);
    out.level.n = n;
    out.level.rounds = level_rounds;
    out.level.over_blas_level = profile::paired_speedup(lt[2], lt[1]);
    out.level.packed_vs_dgemm = profile::paired_speedup(lt[2], lt[0]).median;
    out.level.blas_vs_dgemm = profile::paired_speedup(lt[1], lt[0]).median;
  }
  out.leaf = profile::packed_leaf_choice(profile::deciding_speedup(out));
  // The times are the maximum over ranks, and only rank 0 contributed: the
  // same on every rank already.
  return out;
}

}  // namespace mmbench::tuner
