#include "tuner/peak.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "core/affinity.hpp"
#include "core/comm.hpp"
#include "core/mpi_check.hpp"
#include "core/sysinfo.hpp"
#include "core/timing.hpp"
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

// The iteration count that runs about `seconds`: grow a short run until it
// is long enough to time (5 ms), then scale.
std::int64_t calibrate(local::PeakLoop loop, double seconds) {
  std::int64_t iterations = 1 << 14;
  double t = time_loop(loop, iterations);
  while (t < 5e-3 && iterations < (std::int64_t{1} << 40)) {
    iterations *= 4;
    t = time_loop(loop, iterations);
  }
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(iterations) * seconds / t));
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

PeakMeasurement measure_peak(const PeakOptions& o, const std::vector<int>& cpus_given) {
  if (!(o.seconds > 0) || o.repeats < 1)
    throw std::invalid_argument(
        fmt::format("peak: seconds = {:g}, repeats = {}: needs seconds > 0 and repeats >= 1", o.seconds, o.repeats));
  const std::vector<int> cpus = cpus_given.empty() ? allowed_cpus() : cpus_given;
  PeakMeasurement m;
  m.threads = o.all_cores ? static_cast<int>(cpus.size()) : 0;
  for (VectorIsa isa : vector_isas(detect_cpu().flags)) {
    const local::PeakLoop loop = local::peak_loop(isa);
    if (loop == nullptr) continue;  // not built for this ISA
    const double flops = static_cast<double>(local::peak_flops_per_iteration(isa));
    const std::int64_t iterations = calibrate(loop, o.seconds);
    IsaPeak p;
    p.isa = isa;
    for (int r = 0; r < o.repeats; ++r)
      p.one_core_gflops =
          std::max(p.one_core_gflops, flops * static_cast<double>(iterations) / time_loop(loop, iterations) / 1e9);
    if (o.all_cores && !cpus.empty())
      for (int r = 0; r < o.repeats; ++r)
        p.all_cores_gflops_per_core =
            std::max(p.all_cores_gflops_per_core, all_cores_pass(loop, iterations, flops, cpus, m.pinned));
    m.isas.push_back(p);
  }
  return m;
}

PeakMeasurement measure_peak_on_rank0(const PeakOptions& o, MPI_Comm comm_handle) {
  const Comm comm = Comm::view(comm_handle);
  const bool root = comm.rank() == 0;
  record_node_cpus(comm);
  // Flattened for the broadcast: count, threads, pinned, then isa, one
  // core, all cores per ISA (at most 3 ISAs).
  std::vector<double> flat(3 + 3 * 3, 0.0);
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
          flat[0] = static_cast<double>(m.isas.size());
          flat[1] = m.threads;
          flat[2] = m.pinned ? 1 : 0;
          for (std::size_t i = 0; i < m.isas.size() && i < 3; ++i) {
            flat[3 + 3 * i] = static_cast<double>(m.isas[i].isa);
            flat[4 + 3 * i] = m.isas[i].one_core_gflops;
            flat[5 + 3 * i] = m.isas[i].all_cores_gflops_per_core;
          }
        } catch (const std::exception& e) {
          error = e.what();
        }
      },
      root);
  error = comm.bcast_string(error, 0);
  if (!error.empty()) throw std::runtime_error("peak: rank 0: " + error);
  MMBENCH_MPI(MPI_Bcast(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, 0, comm.get()));
  PeakMeasurement m;
  m.threads = static_cast<int>(flat[1]);
  m.pinned = flat[2] != 0;
  for (int i = 0; i < static_cast<int>(flat[0]) && i < 3; ++i)
    m.isas.push_back({static_cast<VectorIsa>(static_cast<int>(flat[3 + 3 * i])), flat[4 + 3 * i], flat[5 + 3 * i]});
  return m;
}

std::string describe_isa_peak(const IsaPeak& p, int threads) {
  std::string s = fmt::format("{} {:.1f} GFLOP/s one core", isa_name(p.isa), p.one_core_gflops);
  if (p.all_cores_gflops_per_core > 0)
    s += fmt::format(", {:.1f} per core on {} cores at once", p.all_cores_gflops_per_core, threads);
  return s;
}

std::string describe_peak(const PeakMeasurement& m) {
  std::string s;
  for (const IsaPeak& p : m.isas) s += (s.empty() ? "" : "; ") + describe_isa_peak(p, m.threads);
  return s.empty() ? "not measured (no vector ISA mmbench has a loop for)" : s;
}

}  // namespace mmbench::tuner
