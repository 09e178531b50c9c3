#include "tuner/kernel_timings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/machine/blas.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/local_copy.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/stats/paired_stats.hpp"
#include "local/fast_gemm_passes.hpp"

namespace mmbench::tuner {

std::int64_t kernel_model_size(std::int64_t n) { return std::clamp<std::int64_t>(n, 128, 2048); }

std::vector<KernelShape> kernel_model_shapes(std::int64_t n) {
  const std::int64_t N = kernel_model_size(n);
  const std::vector<KernelShape> all = {
      {N, N, N, "square N (DGEMM)"},
      {N / 2, N / 2, N / 2, "square N/2 (leaf of one local Strassen level)"},
      {N / 4, N / 4, N / 4, "square N/4 (leaf of two local Strassen levels)"},
      {N / 8, N / 8, N / 8, "square N/8 (leaf of three local Strassen levels)"},
      {N / 2, N / 2, N, "ring/tpMM step, p = 2"},
      {N / 4, N / 4, N, "ring/tpMM step, p = 4"},
      {N / 8, N / 8, N, "ring/tpMM step, p = 8"},
      {N / 2, N / 8, N, "ring step's column chunk, p = 2"},
      {N, N, N / 2, "2.5D layer's share of k, c = 2"},
      {N / 2, N / 2, 32, "PDGEMM panel update, lb = 32"},
      {N / 2, N / 2, 128, "PDGEMM panel update, lb = 128"},
      {N, N / 2, 64, "PDGEMM panel update, lb = 64"},
      {N, 32, N, "thin n"},
      {32, N, N, "thin m"},
  };
  std::vector<KernelShape> out;
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> seen;
  for (const KernelShape& s : all)
    if (s.m >= 8 && s.n >= 8 && s.k >= 8 && seen.insert({s.m, s.n, s.k}).second) out.push_back(s);
  return out;
}

std::vector<std::int64_t> kernel_model_pass_sizes(std::int64_t n) {
  const std::int64_t N = kernel_model_size(n);
  std::vector<std::int64_t> out;
  for (std::int64_t s : {N / 8, N / 4, N / 2, 3 * N / 4, N}) {
    s &= ~std::int64_t{1};  // even: a pack takes half the rows
    if (s >= 8 && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

void kernel_model_dgemm(std::int64_t m, std::int64_t n, std::int64_t k, const double* a, const double* b, double* c) {
  dgemm(m, n, k, a, m, b, k, 1.0, c, m);
}

namespace {

enum class Kind { dgemm, add, copy, pack };

struct Item {
  Kind kind;
  std::int64_t m = 0, n = 0, k = 0;  // DGEMM's shape; passes: m = s
};

// Times one call on every rank at once; rank 0 receives the slowest rank's
// time. A step of a synchronous algorithm lasts until its slowest rank is
// done, so that is the price of a call when every rank computes: where the
// ranks of a machine differ under load (some share a core's resources), a
// fit over every rank's time follows the fast majority and charged
// simulation runs fast (docs/results.md, "Simulation against these runs").
double time_slowest_rank(const Comm& comm, const std::function<void()>& f) {
  MMBENCH_MPI(MPI_Barrier(comm.get()));
  const double t0 = MPI_Wtime();
  f();
  const double t = MPI_Wtime() - t0;
  double slowest = 0;
  MMBENCH_MPI(MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm.get()));
  return slowest;
}

}  // namespace

KernelTimings time_kernels(std::int64_t n, int rounds, int warmup, MPI_Comm mpi_comm,
                           const std::function<void(const std::string&)>& progress) {
  if (n < 1) throw std::invalid_argument("kernel model: n = " + std::to_string(n) + " must be >= 1");
  if (rounds < 1) throw std::invalid_argument("kernel model: rounds = " + std::to_string(rounds) + " must be >= 1");
  if (warmup < 0) throw std::invalid_argument("kernel model: warmup = " + std::to_string(warmup) + " must be >= 0");
  const Comm comm = Comm::view(mpi_comm);
  const ScopedBlasThreads one(1);
  KernelTimings out;
  out.size = kernel_model_size(n);
  out.rounds = rounds;
  out.ranks = comm.size();
  const std::int64_t N = out.size;

  std::vector<Item> items;
  for (const KernelShape& s : kernel_model_shapes(n)) items.push_back({Kind::dgemm, s.m, s.n, s.k});
  for (std::int64_t s : kernel_model_pass_sizes(n))
    for (Kind k : {Kind::add, Kind::copy, Kind::pack}) items.push_back({k, s, 0, 0});

  // Every shape and pass fits in N x N (the largest dimension is N).
  const auto count = static_cast<std::size_t>(N * N);
  std::vector<double> a(count, 0.5), b(count, 0.25), c(count, 0.0);

  auto run = [&](const Item& it) {
    switch (it.kind) {
      case Kind::dgemm:
        kernel_model_dgemm(it.m, it.n, it.k, a.data(), b.data(), c.data());
        break;
      case Kind::add:
        local::add({it.m, 0, it.m}, {a.data(), it.m}, {b.data(), it.m}, {c.data(), it.m});
        break;
      case Kind::copy:
        copy_block(a.data(), it.m, c.data(), it.m, it.m, it.m);
        break;
      case Kind::pack:
        copy_block(a.data(), it.m, c.data(), it.m / 2, it.m / 2, it.m);
        break;
    }
  };
  auto record = [&](const Item& it, double t) {
    if (comm.rank() != 0) return;
    const double s = static_cast<double>(it.m);
    switch (it.kind) {
      case Kind::dgemm: out.dgemm.push_back({it.m, it.n, it.k, t}); break;
      case Kind::add: out.add.push_back({24.0 * s * s, t}); break;
      case Kind::copy: out.copy.push_back({16.0 * s * s, t}); break;
      case Kind::pack: out.pack.push_back({16.0 * (s / 2) * s, t}); break;
    }
  };

  constexpr std::uint64_t kSeed = 0x6b65726e656cULL;  // "kernel"
  for (int w = 0; w < warmup; ++w)
    for (const Item& it : items) time_slowest_rank(comm, [&] { run(it); });
  for (int r = 0; r < rounds; ++r) {
    const double t0 = MPI_Wtime();
    for (std::size_t i : round_order(items.size(), kSeed, r)) record(items[i], time_slowest_rank(comm, [&] { run(items[i]); }));
    if (comm.rank() == 0 && progress)
      progress(fmt::format("kernel model round {}/{} ({} calls per rank, {:.1f} s)", r + 1, rounds, items.size(),
                           MPI_Wtime() - t0));
  }
  return out;
}

KernelTimeModel fit_kernel_model(const KernelTimings& t) {
  KernelTimeModel m;
  m.max_dim = t.size;
  m.rounds = t.rounds;
  m.ranks = t.ranks;
  m.dgemm = fit_dgemm_time(t.dgemm);
  m.add = fit_pass_time(t.add);
  m.copy = fit_pass_time(t.copy);
  m.pack = fit_pass_time(t.pack);
  m.measured = m.dgemm.fitted() && m.add.fitted() && m.copy.fitted() && m.pack.fitted();
  return m;
}

std::string kernel_model_csv(const KernelTimings& t, const KernelTimeModel& model) {
  std::string csv = "kind,m,n,k,bytes,seconds,fitted_s\n";
  for (const DgemmSample& d : t.dgemm)
    csv +=
        fmt::format("dgemm,{},{},{},,{:.9g},{:.9g}\n", static_cast<long long>(d.m), static_cast<long long>(d.n),
                    static_cast<long long>(d.k), d.seconds, model.dgemm.seconds(double(d.m), double(d.n), double(d.k)));
  const std::pair<const char*, const std::vector<PassSample>*> passes[] = {
      {"add", &t.add}, {"copy", &t.copy}, {"pack", &t.pack}};
  const BytesTimeFit* fits[] = {&model.add, &model.copy, &model.pack};
  for (int i = 0; i < 3; ++i)
    for (const PassSample& p : *passes[i].second)
      csv +=
          fmt::format("{},,,,{:.0f},{:.9g},{:.9g}\n", passes[i].first, p.bytes, p.seconds, fits[i]->seconds(p.bytes));
  return csv;
}

}  // namespace mmbench::tuner
