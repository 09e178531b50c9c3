#include "tuner/peak.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "core/machine/affinity.hpp"
#include "core/mpi/comm.hpp"
#include "core/machine/cpu_topology.hpp"
#include "core/mpi/mpi_check.hpp"
#include "core/machine/sysinfo.hpp"
#include "core/stats/timing.hpp"
#include "local/peak_loop.hpp"

namespace mmbench::tuner {

namespace {

// Where the loops' results go, so that no loop is optimised away.
volatile double g_sink = 0;

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double time_loop(local::PeakLoop loop, std::int64_t iterations) {
  const double t0 = now_s();
  g_sink = g_sink + loop(iterations);
  return now_s() - t0;
}

// The count that runs about `seconds`: grow a short run of `first` until it
// is long enough to time (5 ms), then scale. `timed(count)` runs `count`
// iterations (or passes) of a loop and returns its seconds.
template <class Timed>
std::int64_t calibrate(Timed&& timed, std::int64_t first, double seconds) {
  std::int64_t count = first;
  double t = timed(count);
  while (t < 5e-3 && count < (std::int64_t{1} << 40)) {
    count *= 4;
    t = timed(count);
  }
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(count) * seconds / t));
}

// The best rate of `repeats` runs of `count`, each doing `flops_per_count`
// per unit of count.
template <class Timed>
double best_gflops(Timed&& timed, std::int64_t count, double flops_per_count, int repeats) {
  double best = 0;
  for (int r = 0; r < repeats; ++r)
    best = std::max(best, flops_per_count * static_cast<double>(count) / timed(count) / 1e9);
  return best;
}

// The GEMM-mix loop's rate on this thread: A's slivers (one in L1, or a
// kMixL2PanelBytes panel of them in L2) against one B sliver, operands in
// [0.5, 1]; passes calibrated like the peak loop's iterations, the best of
// `repeats`.
double gemm_mix_gflops(local::MixLoop loop, VectorIsa isa, bool l2, double seconds, int repeats) {
  const std::int64_t kc = l2 ? kMixL2Kc : kMixL1Kc;
  const std::int64_t sliver = 2 * doubles_per_vector(isa) * kc;
  const std::int64_t slivers =
      l2 ? std::max<std::int64_t>(2, kMixL2PanelBytes / (sliver * static_cast<std::int64_t>(sizeof(double)))) : 1;
  std::vector<double> a(static_cast<std::size_t>(sliver * slivers)),
      b(static_cast<std::size_t>(local::mix_columns(isa) * kc));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.5 + 0.5 * static_cast<double>(i % 7) / 7.0;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.5 + 0.5 * static_cast<double>(i % 5) / 5.0;
  const auto run = [&](std::int64_t passes) {
    const double t0 = now_s();
    g_sink = g_sink + loop(a.data(), slivers, b.data(), kc, passes);
    return now_s() - t0;
  };
  const double flops_per_pass = static_cast<double>(local::mix_flops_per_step(isa)) * static_cast<double>(kc * slivers);
  return best_gflops(run, calibrate(run, 16, seconds), flops_per_pass, repeats);
}

// The CPUs this process may run on.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// One pass of the loop on one thread per CPU, all started together; the
// rate per core is the total flops over the wall time from the first start
// to the last finish, divided by the threads.
double all_cores_pass(local::PeakLoop loop, std::int64_t iterations, double flops_per_iteration,
                      const std::vector<int>& cpus, bool& pinned) {
  const std::size_t n = cpus.size();
  std::atomic<std::size_t> ready{0};
  std::atomic<bool> go{false};
  std::vector<double> begin(n), end(n);
  std::vector<char> pin_ok(n, 0);
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (std::size_t t = 0; t < n; ++t)
    threads.emplace_back([&, t] {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpus[t], &set);
      pin_ok[t] = pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      begin[t] = now_s();
      const double r = loop(iterations);
      end[t] = now_s();
      g_sink = g_sink + r;
    });
  while (ready.load() < n) std::this_thread::yield();
  go.store(true, std::memory_order_release);
  for (std::thread& th : threads) th.join();
  for (char ok : pin_ok) pinned = pinned && ok;
  const double wall = *std::max_element(end.begin(), end.end()) - *std::min_element(begin.begin(), begin.end());
  return flops_per_iteration * static_cast<double>(iterations) / wall / 1e9;  // n threads' flops / n
}

}  // namespace

double PeakMeasurement::one_core_gflops() const {
  double best = 0;
  for (const IsaPeak& p : isas) best = std::max(best, p.one_core_gflops);
  return best;
}

double PeakMeasurement::all_cores_gflops_per_core() const {
  double best = 0;
  for (const IsaPeak& p : isas) best = std::max(best, p.all_cores_gflops_per_core);
  return best;
}

std::vector<int> busy_core_ladder(int cores) {
  std::vector<int> ladder;
  for (int c = 2; c < cores; c *= 2) ladder.push_back(c);
  if (cores >= 2) ladder.push_back(cores);
  return ladder;
}

PeakMeasurement measure_peak(const PeakOptions& o, const std::vector<int>& cpus_given) {
  if (!(o.seconds > 0) || o.repeats < 1)
    throw std::invalid_argument(
        fmt::format("peak: seconds = {:g}, repeats = {}: needs seconds > 0 and repeats >= 1", o.seconds, o.repeats));
  const std::vector<int> cpus = cpus_given.empty() ? allowed_cpus() : cpus_given;
  const std::vector<int> cores = one_cpu_per_core(read_cpu_places(cpus));
  PeakMeasurement m;
  m.threads = o.all_cores ? static_cast<int>(cores.size()) : 0;
  m.logical_cpus = o.all_cores ? static_cast<int>(cpus.size()) : 0;
  for (VectorIsa isa : vector_isas(detect_cpu().flags)) {
    const local::PeakLoop loop = local::peak_loop(isa);
    if (loop == nullptr) continue;  // not built for this ISA
    const double flops = static_cast<double>(local::peak_flops_per_iteration(isa));
    const auto timed = [loop](std::int64_t iterations) { return time_loop(loop, iterations); };
    const std::int64_t iterations = calibrate(timed, 1 << 14, o.seconds);
    IsaPeak p;
    p.isa = isa;
    p.one_core_gflops = best_gflops(timed, iterations, flops, o.repeats);
    if (const local::MixLoop mix = local::gemm_mix_loop(isa)) {
      p.gemm_mix_l1_gflops = gemm_mix_gflops(mix, isa, false, o.seconds, o.repeats);
      p.gemm_mix_l2_gflops = gemm_mix_gflops(mix, isa, true, o.seconds, o.repeats);
    }
    if (o.all_cores && !cores.empty()) {
      for (int busy : busy_core_ladder(static_cast<int>(cores.size()))) {
        const std::vector<int> first(cores.begin(), cores.begin() + busy);
        BusyCoresRate b{busy, 0};
        for (int r = 0; r < o.repeats; ++r)
          b.gflops_per_core = std::max(b.gflops_per_core, all_cores_pass(loop, iterations, flops, first, m.pinned));
        p.by_busy_cores.push_back(b);
      }
      p.all_cores_gflops_per_core = p.by_busy_cores.empty() ? p.one_core_gflops : p.by_busy_cores.back().gflops_per_core;
      if (cpus.size() > cores.size())
        for (int r = 0; r < o.repeats; ++r)
          p.all_threads_gflops_per_thread =
              std::max(p.all_threads_gflops_per_thread, all_cores_pass(loop, iterations, flops, cpus, m.pinned));
    }
    m.isas.push_back(p);
  }
  return m;
}

PeakMeasurement measure_peak_on_rank0(const PeakOptions& o, MPI_Comm comm_handle) {
  const Comm comm = Comm::view(comm_handle);
  const bool root = comm.rank() == 0;
  record_node_cpus(comm);
  // Flattened for the broadcast: ISA count, threads, logical CPUs, pinned,
  // then per ISA: isa, one core, all cores, all threads, the two GEMM-mix
  // rates, ladder length L, then L (cores, rate) pairs.
  std::vector<double> flat;
  std::string error;
  run_taking_part(
      comm,
      [&] {
        try {
          std::vector<int> cpus;
          {
            // mpirun may have bound rank 0 to one core: widen it to the
            // node's cores (or every online CPU) while the CPUs are listed.
            const ScopedWideAffinity wide(cpu_cores());
            cpus = allowed_cpus();
          }
          const PeakMeasurement m = measure_peak(o, cpus);
          flat = {static_cast<double>(m.isas.size()), static_cast<double>(m.threads),
                  static_cast<double>(m.logical_cpus), m.pinned ? 1.0 : 0.0};
          for (const IsaPeak& p : m.isas) {
            flat.insert(flat.end(), {static_cast<double>(p.isa), p.one_core_gflops, p.all_cores_gflops_per_core,
                                     p.all_threads_gflops_per_thread, p.gemm_mix_l1_gflops, p.gemm_mix_l2_gflops,
                                     static_cast<double>(p.by_busy_cores.size())});
            for (const BusyCoresRate& b : p.by_busy_cores)
              flat.insert(flat.end(), {static_cast<double>(b.cores), b.gflops_per_core});
          }
        } catch (const std::exception& e) {
          error = e.what();
        }
      },
      root);
  error = comm.bcast_string(error, 0);
  if (!error.empty()) throw std::runtime_error("peak: rank 0: " + error);
  int size = static_cast<int>(flat.size());
  MMBENCH_MPI(MPI_Bcast(&size, 1, MPI_INT, 0, comm.get()));
  flat.resize(static_cast<std::size_t>(size));
  MMBENCH_MPI(MPI_Bcast(flat.data(), size, MPI_DOUBLE, 0, comm.get()));
  PeakMeasurement m;
  m.threads = static_cast<int>(flat[1]);
  m.logical_cpus = static_cast<int>(flat[2]);
  m.pinned = flat[3] != 0;
  std::size_t at = 4;
  for (int i = 0; i < static_cast<int>(flat[0]); ++i) {
    IsaPeak p;
    p.isa = static_cast<VectorIsa>(static_cast<int>(flat[at]));
    p.one_core_gflops = flat[at + 1];
    p.all_cores_gflops_per_core = flat[at + 2];
    p.all_threads_gflops_per_thread = flat[at + 3];
    p.gemm_mix_l1_gflops = flat[at + 4];
    p.gemm_mix_l2_gflops = flat[at + 5];
    const int ladder = static_cast<int>(flat[at + 6]);
    at += 7;
    for (int j = 0; j < ladder; ++j, at += 2) p.by_busy_cores.push_back({static_cast<int>(flat[at]), flat[at + 1]});
    m.isas.push_back(std::move(p));
  }
  return m;
}

std::string describe_isa_peak(const IsaPeak& p, int threads) {
  std::string s = fmt::format("{} {:.1f} GFLOP/s one core", isa_name(p.isa), p.one_core_gflops);
  if (p.all_cores_gflops_per_core > 0)
    s += fmt::format(", {:.1f} per core on {} cores at once", p.all_cores_gflops_per_core, threads);
  if (p.all_threads_gflops_per_thread > 0)
    s += fmt::format(" ({:.1f} per thread with every SMT thread busy)", p.all_threads_gflops_per_thread);
  return s;
}

std::string describe_peak(const PeakMeasurement& m) {
  std::string s;
  for (const IsaPeak& p : m.isas) s += (s.empty() ? "" : "; ") + describe_isa_peak(p, m.threads);
  return s.empty() ? "not measured (no vector ISA mmbench has a loop for)" : s;
}

}  // namespace mmbench::tuner
