#include "tuner/tuner.hpp"

#include <cblas.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "core/comm.hpp"
#include "core/csv_file.hpp"
#include "core/mpi_check.hpp"
#include "core/sysinfo.hpp"
#include "tuner/add_bandwidth.hpp"
#include "tuner/dgemm_profile.hpp"
#include "tuner/lb_rule.hpp"
#include "tuner/local_crossover.hpp"
#include "tuner/network_calibration.hpp"

namespace mmbench::tuner {

namespace {


void fail(const std::string& what) { throw std::invalid_argument("tune: " + what); }

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// The raw DGEMM profile, columns as in docs/csv-columns.md ("DGEMM profile").
std::string profile_csv(const std::map<std::int64_t, DgemmTiming>& timings, double x, std::int64_t lb) {
  std::string csv = "m,n,k,reps,t_median,mflops,mflops_max,papi_tot_cyc,papi_l2_tcm,x,lb\n";
  for (const auto& [k, t] : timings) {
    const std::string cyc = t.has_counters ? std::to_string(t.papi_tot_cyc) : "";
    const std::string l2 = t.has_counters ? std::to_string(t.papi_l2_tcm) : "";
    csv += fmt::format("{},{},{},{},{:.9g},{:.3f},{:.3f},{},{},{:.6g},{}\n", static_cast<long long>(t.m),
                  static_cast<long long>(t.n), static_cast<long long>(k), t.reps, t.t_median, t.mflops,
                  t.mflops_max, cyc.c_str(), l2.c_str(), x, static_cast<long long>(lb));
  }
  return csv;
}

std::string bytes_text(std::int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return fmt::format("{} MiB", static_cast<long long>(b >> 20));
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", static_cast<long long>(b >> 10));
  return fmt::format("{} B", static_cast<long long>(b));
}

}  // namespace

std::int64_t effective_kmax(const TuneOptions& o) {
  if (o.kmax > 0) return o.kmax;
  return o.pr > o.pc ? o.n / o.pr : o.n / o.pc;
}

void validate(const TuneOptions& o, int ranks) {
  if (o.n < 1) fail(fmt::format("n = {} must be >= 1", static_cast<long long>(o.n)));
  if (o.pr < 1 || o.pc < 1) fail(fmt::format("grid {}x{}: pr and pc must be >= 1", o.pr, o.pc));
  if (static_cast<long long>(o.pr) * o.pc != ranks) {
    fail(fmt::format("grid {}x{} has {} ranks, but the communicator has {} (pr * pc must equal it)",
                o.pr, o.pc, static_cast<long long>(o.pr) * o.pc, ranks));
  }
  if (o.n < o.pr || o.n < o.pc) {
    fail(fmt::format("n = {} is smaller than the grid {}x{} (n must be >= pr and >= pc)",
                static_cast<long long>(o.n), o.pr, o.pc));
  }
  if (!(o.x > 0.0 && o.x <= 1.0)) fail(fmt::format("x = {:g} is outside the allowed range (0, 1]", o.x));
  if (o.kmin < 2) fail(fmt::format("kmin = {} is below the allowed minimum 2", static_cast<long long>(o.kmin)));
  const std::int64_t kmax = effective_kmax(o);
  if (o.kmin > kmax) {
    fail(fmt::format("kmin = {} exceeds kmax = {}{}", static_cast<long long>(o.kmin),
                static_cast<long long>(kmax), o.kmax > 0 ? "" : " (the default n/pc, or n/pr if pr > pc)"));
  }
  if (even_grid(o.kmin, kmax).empty()) {
    fail(fmt::format("[kmin, kmax] = [{}, {}] contains no even k", static_cast<long long>(o.kmin),
                static_cast<long long>(kmax)));
  }
  if (o.reps < 1) fail(fmt::format("reps = {} must be >= 1", o.reps));
  if (o.warmup < 0) fail(fmt::format("warmup = {} must be >= 0", o.warmup));
  if (!(o.search_tolerance >= 0.0 && o.search_tolerance < 1.0)) {
    fail(fmt::format("search_tolerance = {:g} is outside the allowed range [0, 1)", o.search_tolerance));
  }
  if (o.add_n < 1) fail(fmt::format("add_n = {} must be >= 1", static_cast<long long>(o.add_n)));
  if (o.network_reps < 1) fail(fmt::format("network_reps = {} must be >= 1", o.network_reps));
}

MachineProfile run_tuner(const TuneOptions& options, MPI_Comm comm,
                         const std::function<void(const std::string&)>& progress) {
  int rank = 0, ranks = 1;
  MMBENCH_MPI(MPI_Comm_rank(comm, &rank));
  MMBENCH_MPI(MPI_Comm_size(comm, &ranks));
  validate(options, ranks);
  auto say = [&](const std::string& line) {
    if (rank == 0 && progress) progress(line);
  };

  const std::int64_t m_local = options.n / options.pr;
  const std::int64_t n_local = options.n / options.pc;
  const std::int64_t kmax = effective_kmax(options);
  std::string notes;
  auto note = [&](const std::string& text) {
    if (!notes.empty()) notes += "; ";
    notes += text;
  };

  // 1. DGEMM profile and lb.
  const double t_start = MPI_Wtime();
  DgemmProfiler profiler(m_local, n_local, kmax, options.reps, options.warmup, comm);
  if (!profiler.counters_available()) {
    say(profiler.counters_message());
    note(profiler.counters_message());
  }
  const std::size_t planned = options.exhaustive ? even_grid(options.kmin, kmax).size()
                                                 : coarse_grid(options.kmin, kmax).size();
  say(fmt::format("dgemm profile m={} n={} k={}..{} ({}, {} {} points)",
             static_cast<long long>(m_local), static_cast<long long>(n_local),
             static_cast<long long>(options.kmin), static_cast<long long>(kmax),
             options.exhaustive ? "exhaustive" : "smart search", planned,
             options.exhaustive ? "even" : "coarse"));
  std::map<std::int64_t, DgemmTiming> timings;
  auto measure = [&](std::int64_t k) {
    const DgemmTiming t = profiler.measure(k);
    timings[k] = t;
    const std::size_t i = timings.size();
    if (i <= planned) {
      say(fmt::format("dgemm profile k={} ({}/{}{}) {:.0f} MFLOPS", static_cast<long long>(k), i, planned,
                 options.exhaustive ? "" : " coarse", t.mflops));
    } else {
      say(fmt::format("dgemm profile k={} (refine #{}) {:.0f} MFLOPS", static_cast<long long>(k), i - planned,
                 t.mflops));
    }
    return t.mflops;
  };
  const LbSearchResult search = search_lb(options.kmin, kmax, options.x, measure, options.exhaustive,
                                           options.search_tolerance);
  const auto best = std::max_element(search.measured.begin(), search.measured.end(),
                                     [](const auto& a, const auto& b) { return a.mflops < b.mflops; });
  const double t_dgemm = MPI_Wtime() - t_start;
  say(fmt::format("dgemm profile: lb = {} (max {:.0f} MFLOPS at k = {}, threshold {:.0f}; {} of {} even k "
             "measured in {:.1f} s)",
             static_cast<long long>(search.lb), best->mflops, static_cast<long long>(best->k),
             options.x * best->mflops, search.measured.size(), even_grid(options.kmin, kmax).size(),
             t_dgemm));
  note(fmt::format("DGEMM profile: {}, {} of {} even k measured, reps {}, warmup {}",
              options.exhaustive ? "exhaustive" : "smart search", search.measured.size(),
              even_grid(options.kmin, kmax).size(), options.reps, options.warmup));

  // 2. Network.
  const double t_net0 = MPI_Wtime();
  NetworkOptions net_options;
  net_options.reps = options.network_reps;
  if (ranks > 1) {
    const auto sizes = default_pingpong_sizes();
    say("network: ping-pong " + bytes_text(sizes.front()) + " .. " + bytes_text(sizes.back()) +
        " between ranks 0 and 1, all-to-all over " + std::to_string(ranks) + " ranks");
  }
  const NetworkCalibration net = calibrate_network(comm, net_options);
  const double t_net = MPI_Wtime() - t_net0;
  if (net.measured) {
    say(fmt::format("network: latency {:.3g} us, tau ping-pong {:.3g} GB/s, all-to-all {:.3g} GB/s per rank, "
               "eager/rendezvous break {} B ({:.1f} s)",
               net.latency_s * 1e6, net.tau_pingpong * 8 / 1e9, net.tau_alltoall * 8 / 1e9,
               static_cast<long long>(net.two_regime.break_bytes), t_net));
  } else {
    say("network: " + net.note);
  }
  if (!net.note.empty()) note("network: " + net.note);

  // 3. Memory bandwidth of an addition.
  const double t_add0 = MPI_Wtime();
  const AddBandwidth add = measure_add_bandwidth(options.add_n, options.reps, options.warmup, comm);
  const double t_add = MPI_Wtime() - t_add0;
  say(fmt::format("add bandwidth: n={}, {:.3g} GB/s per rank ({:.1f} s)", static_cast<long long>(add.n),
             add.bytes_per_s / 1e9, t_add));

  // 4. Local Strassen-Winograd crossover (sizes up to the typical local
  // block, at most 3072 so the step stays within seconds).
  LocalCrossover cross;
  double t_cross = 0;
  if (options.local_crossover) {
    const double t0 = MPI_Wtime();
    std::vector<std::int64_t> sizes;
    for (std::int64_t s : {256, 512, 768, 1024, 1536, 2048, 3072})
      if (s <= std::max<std::int64_t>(512, std::max(m_local, n_local))) sizes.push_back(s);
    cross = measure_local_crossover(sizes, options.reps, options.warmup, comm, say);
    t_cross = MPI_Wtime() - t0;
    say(fmt::format("local Strassen: L=1 pays from n={}, L=2 from n={} (0 = not within the sizes tried)",
               static_cast<long long>(cross.l1_n), static_cast<long long>(cross.l2_n)));
  }

  note(fmt::format("BLAS threads per rank: {}", openblas_get_num_threads()));
  note(fmt::format("durations: DGEMM profile {:.1f} s, network {:.1f} s, add {:.1f} s, local Strassen {:.1f} s", t_dgemm, t_net,
              t_add, t_cross));

  // 5. Assemble on rank 0 (the host facts are rank 0's), write, broadcast.
  std::string text, error;
  if (rank == 0) {
    try {
      MachineProfile p;
      p.host = host_name();
      p.cpu_model = cpu_model();
      p.cores = cpu_cores();
      p.date = utc_timestamp();
      p.libraries.mpi = mpi_library_version();
      p.libraries.blas = trim(openblas_get_config());
      p.libraries.scalapack = options.scalapack_version;
      p.problem = {options.n, options.pr, options.pc, options.kmin, kmax, options.x, options.exhaustive};
      p.lb = search.lb;
      p.lb_at_max = best->k;
      p.peak_dgemm_mflops = best->mflops;
      // The models' flop time is DGEMM's rate at the chosen panel width:
      // that is what PDGEMM's local updates run at after tuning.
      p.t_op_s = 1.0 / (timings.at(search.lb).mflops * 1e6);
      p.network_measured = net.measured;
      p.latency_s = net.latency_s;
      p.tau_pingpong = net.tau_pingpong;
      p.tau_alltoall = net.tau_alltoall;
      p.tau_model = TauModel::alltoall;  // the thesis' choice (docs/method.md §8.2)
      p.two_regime = {net.two_regime.eager.latency_s, net.two_regime.eager.tau,
                      net.two_regime.rendezvous.latency_s, net.two_regime.rendezvous.tau,
                      net.two_regime.break_bytes};
      p.add_bytes_per_s = add.bytes_per_s;
      p.strassen_l1_n = cross.l1_n;
      p.strassen_l2_n = cross.l2_n;
      p.strassen_tried_n = cross.points.empty() ? 0 : cross.points.back().n;
      p.notes = notes;
      for (const auto& [k, t] : timings) p.dgemm_profile.push_back({t.m, t.n, k, t.mflops});
      // The crossover step's square DGEMMs are profile points too: the
      // refined model prices local Strassen's square sub-products, which
      // the panel shapes above (m x n x k with k <= kmax) do not cover.
      for (const CrossoverPoint& pt : cross.points)
        if (pt.t_dgemm > 0) {
          const double n = static_cast<double>(pt.n);
          p.dgemm_profile.push_back({pt.n, pt.n, pt.n, 2.0 * n * n * n / pt.t_dgemm / 1e6});
        }
      std::stable_sort(p.dgemm_profile.begin(), p.dgemm_profile.end(),
                       [](const model::DgemmPoint& a, const model::DgemmPoint& b) { return a.k < b.k; });
      p.dgemm_profile_csv = options.profile_csv_path;

      if (!options.profile_csv_path.empty()) {
        write_file_atomically(options.profile_csv_path, profile_csv(timings, options.x, search.lb));
        say("wrote " + options.profile_csv_path);
      }
      text = profile_to_json(p, options.profile_path.empty() ? "<profile>" : options.profile_path);
      if (!options.profile_path.empty()) {
        write_profile(p, options.profile_path);
        say("wrote " + options.profile_path);
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  const Comm all = Comm::view(comm);
  error = all.bcast_string(error, 0);
  if (!error.empty()) throw std::runtime_error("tune: rank 0 failed: " + error);
  text = all.bcast_string(text, 0);
  return parse_profile(text, "<profile from rank 0>");
}

}  // namespace mmbench::tuner
