#include "tuner/tuner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "core/blas.hpp"
#include "core/comm.hpp"
#include "core/csv_file.hpp"
#include "core/mpi_check.hpp"
#include "core/simulation.hpp"
#include "core/sysinfo.hpp"
#include "core/timing.hpp"
#include "local/packed_gemm.hpp"
#include "tuner/add_bandwidth.hpp"
#include "tuner/dgemm_profile.hpp"
#include "core/lb_in_force.hpp"
#include "tuner/lb_check.hpp"
#include "tuner/lb_rule.hpp"
#include "tuner/local_crossover.hpp"
#include "tuner/machine_check.hpp"
#include "tuner/blas_kernel_probe.hpp"
#include "tuner/network_calibration.hpp"
#include "tuner/core_layout.hpp"
#include "tuner/packed_ladder.hpp"
#include "tuner/threaded_dgemm.hpp"

namespace mmbench::tuner {

namespace {


void fail(const std::string& what) { throw std::invalid_argument("tune: " + what); }

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// The raw DGEMM profile, columns as in docs/csv-columns.md ("DGEMM profile"):
// the columns of earlier versions first (reps = passes, t_median and mflops
// the medians over the passes, mflops_max the best pass, lb the profile's
// final lb), then the robust rule's columns.
std::string profile_csv(const RobustLb& rule, const std::map<std::int64_t, std::vector<DgemmTiming>>& timings,
                        double x, std::int64_t lb) {
  std::string csv =
      "m,n,k,reps,t_median,mflops,mflops_max,papi_tot_cyc,papi_l2_tcm,x,lb,"
      "mflops_ci_lo,mflops_ci_hi,mflops_smooth,rule_lb\n";
  for (const RobustPoint& pt : rule.points) {
    const std::vector<DgemmTiming>& ts = timings.at(pt.k);
    std::vector<double> secs, cyc, l2;
    for (const DgemmTiming& t : ts) {
      secs.push_back(t.t_median);
      if (t.has_counters) {
        cyc.push_back(static_cast<double>(t.papi_tot_cyc));
        l2.push_back(static_cast<double>(t.papi_l2_tcm));
      }
    }
    const std::string cyc_text = cyc.empty() ? "" : fmt::format("{:.0f}", summarize(cyc).median);
    const std::string l2_text = l2.empty() ? "" : fmt::format("{:.0f}", summarize(l2).median);
    csv += fmt::format("{},{},{},{},{:.9g},{:.3f},{:.3f},{},{},{:.6g},{},{:.3f},{:.3f},{:.3f},{}\n",
                       static_cast<long long>(ts.front().m), static_cast<long long>(ts.front().n),
                       static_cast<long long>(pt.k), pt.passes, summarize(secs).median, pt.median, pt.best, cyc_text,
                       l2_text, x, static_cast<long long>(lb), pt.lo, pt.hi, pt.smooth,
                       static_cast<long long>(rule.lb));
  }
  return csv;
}

// The PDGEMM check, columns as in docs/csv-columns.md ("lb check").
std::string lb_check_csv(const LbCheckRecord& c, int pr, int pc, std::int64_t rule_lb, std::int64_t lb) {
  std::string csv =
      "n,pr,pc,nb,lb,rounds,mflops_median,ratio_median,ratio_ci_lo,ratio_ci_hi,coverage,reference_lb,rule_lb,"
      "chosen\n";
  for (const LbCheckCandidate& cd : c.candidates)
    csv += fmt::format("{},{},{},{},{},{},{:.3f},{:.5f},{:.5f},{:.5f},{:.4f},{},{},{}\n", static_cast<long long>(c.n),
                       pr, pc, c.nb, static_cast<long long>(cd.lb), c.rounds, cd.mflops_median, cd.ratio_median,
                       cd.ratio_ci_lo, cd.ratio_ci_hi, c.coverage, static_cast<long long>(c.reference_lb),
                       static_cast<long long>(rule_lb), cd.lb == lb ? 1 : 0);
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
  if (o.passes < 1) fail(fmt::format("passes = {} must be >= 1", o.passes));
  if (o.reps < 1) fail(fmt::format("reps = {} must be >= 1", o.reps));
  if (o.warmup < 0) fail(fmt::format("warmup = {} must be >= 0", o.warmup));
  if (o.lb_check_rounds < 1) fail(fmt::format("lb check rounds = {} must be >= 1", o.lb_check_rounds));
  if (o.lb_check_nb < 1) fail(fmt::format("lb check nb = {} must be >= 1", o.lb_check_nb));
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

  // 0. The CPU's peak and the BLAS's one-thread DGEMM against it, on rank 0
  // alone (tuner/machine_check.hpp; DGEMM at the threaded step's size).
  const PeakRecord cpu_peak = check_machine({{}, threaded_dgemm_size(options.n)}, comm);
  say(describe_peak_record(cpu_peak));

  // 1. DGEMM profile and the rule's lb.
  const double t_start = MPI_Wtime();
  const std::vector<std::int64_t> ks =
      options.exhaustive ? even_grid(options.kmin, kmax) : coarse_grid(options.kmin, kmax, kProfileGridRatio);
  DgemmProfiler profiler(m_local, n_local, kmax, 1, 0, comm);
  if (!profiler.counters_available()) {
    say(profiler.counters_message());
    note(profiler.counters_message());
  }
  if (const std::string core = blas_core_note(); !core.empty()) {
    say(core);
    note(core);
  }
  say(fmt::format("dgemm profile m={} n={} k={}..{} ({} {} k, {} passes in shuffled order)",
                  static_cast<long long>(m_local), static_cast<long long>(n_local),
                  static_cast<long long>(ks.front()), static_cast<long long>(ks.back()), ks.size(),
                  options.exhaustive ? "even" : "geometric", options.passes));
  for (int w = 0; w < options.warmup; ++w) profiler.measure(ks.back());
  std::map<std::int64_t, std::vector<DgemmTiming>> timings;
  constexpr std::uint64_t kPassSeed = 0x70726f66696c65ULL;  // "profile"
  const std::vector<ProfileSamples> samples = measure_in_passes(
      ks, options.passes, kPassSeed,
      [&](std::int64_t k, int) {
        const DgemmTiming t = profiler.measure(k);
        timings[k].push_back(t);
        return t.mflops;
      },
      [&](int pass) {
        say(fmt::format("dgemm profile pass {}/{} done ({:.1f} s)", pass + 1, options.passes, MPI_Wtime() - t_start));
      });
  const RobustLb rule = choose_lb_robust(samples, options.x);
  const auto best = std::max_element(rule.points.begin(), rule.points.end(),
                                     [](const RobustPoint& a, const RobustPoint& b) { return a.median < b.median; });
  const double t_dgemm = MPI_Wtime() - t_start;
  say(fmt::format("dgemm profile: rule lb = {} (smoothed max {:.0f} MFLOPS at k = {}, threshold {:.0f}{}; "
                  "{} k x {} passes in {:.1f} s)",
                  static_cast<long long>(rule.lb), rule.max_smooth, static_cast<long long>(rule.k_at_max),
                  rule.threshold, rule.fallback ? ", no k beyond the noise: the maximum's k" : "", ks.size(),
                  options.passes, t_dgemm));
  note(fmt::format("DGEMM profile: {} grid, {} k, {} passes, warmup {}; rule lb {} (eq. 2.26 on the running median "
                   "of 3, a k counts when its median's lower confidence bound reaches x max too{})",
                   options.exhaustive ? "every even k" : "geometric (ratio 1.2)", ks.size(), options.passes,
                   options.warmup, static_cast<long long>(rule.lb), rule.fallback ? "; none did: argmax" : ""));

  // 2. PDGEMM check of lb candidates around the rule's.
  LbCheckOutcome check;
  check.lb = rule.lb;
  double t_check = 0;
  if (options.lb_check) {
    const double t0 = MPI_Wtime();
    // Up to the cap at the tuning problem (core/lb_in_force.hpp): the lb
    // chosen here is then the one `--lb auto` runs at this size, and the
    // cap scales it to others.
    const std::int64_t width = lb_cap(options.n, options.pr, options.pc, options.lb_check_nb);
    const std::vector<std::int64_t> lbs = lb_ladder(rule.lb, std::max<std::int64_t>(1, width));
    std::string list;
    for (std::int64_t v : lbs) {
      if (!list.empty()) list += ',';
      list += std::to_string(v);
    }
    say(fmt::format("lb check: PDGEMM n={} grid {}x{} nb={}, lb {} ({} rounds)", static_cast<long long>(options.n),
                    options.pr, options.pc, options.lb_check_nb, list, options.lb_check_rounds));
    LbCheckOptions co;
    co.n = options.n;
    co.pr = options.pr;
    co.pc = options.pc;
    co.nb = options.lb_check_nb;
    co.rounds = options.lb_check_rounds;
    co.warmup = std::max(1, options.warmup);
    check = check_lb_with_pdgemm(co, lbs, rule.lb, comm, say);
    t_check = MPI_Wtime() - t0;
    if (check.done) {
      auto speed = [&](std::int64_t lb) {
        for (const LbCheckCandidate& c : check.record.candidates)
          if (c.lb == lb) return c.ratio_median;
        return 0.0;
      };
      const std::int64_t rule_cand = rule_candidate(check.record, rule.lb);
      say(fmt::format("lb check: lb = {} ({:.3f}x the speed of lb = 32; the rule's lb = {} as checked, {}: {:.3f}x) in "
                      "{:.1f} s",
                      static_cast<long long>(check.lb), speed(check.lb), static_cast<long long>(rule.lb),
                      static_cast<long long>(rule_cand), speed(rule_cand), t_check));
      note(fmt::format("lb: PDGEMM check at n = {} ({} candidates, {} rounds, nb {}): lb = {}, the rule's {}",
                       static_cast<long long>(options.n), lbs.size(), options.lb_check_rounds, options.lb_check_nb,
                       static_cast<long long>(check.lb), static_cast<long long>(rule.lb)));
    } else {
      say("lb check not done: " + check.reason + "; lb = the rule's");
      note("lb check not done: " + check.reason + "; lb = the rule's");
    }
  } else {
    note("lb check skipped (--no-lb-check): lb = the rule's");
  }
  const std::int64_t lb = check.done ? check.lb : rule.lb;

  // 3. Network.
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

  // 4. Memory bandwidth of an addition.
  const double t_add0 = MPI_Wtime();
  const AddBandwidth add = measure_add_bandwidth(options.add_n, options.reps, options.warmup, comm, cpu_cores());
  const double t_add = MPI_Wtime() - t_add0;
  say(fmt::format("add bandwidth: n={}, {:.3g} GB/s per rank{} ({:.1f} s)", static_cast<long long>(add.n),
                  add.bytes_per_s / 1e9,
                  add.threads >= 2 ? fmt::format(", {} threads on rank 0 {:.3g} GB/s ({:.2f}x)", add.threads,
                                                 add.threaded_bytes_per_s / 1e9,
                                                 add.threaded_bytes_per_s / add.bytes_per_s)
                                   : std::string(),
                  t_add));

  // 5. Local Strassen-Winograd crossover (sizes up to the typical local
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

  // 6. Multi-thread DGEMM against one thread per rank.
  const double t_thr0 = MPI_Wtime();
  const int blas_threads_per_rank = blas_threads();
  const ThreadedDgemm thr =
      measure_threaded_dgemm(threaded_dgemm_size(options.n), cpu_cores(), options.reps, options.warmup, comm);
  const double t_thr = MPI_Wtime() - t_thr0;
  say(fmt::format("threaded DGEMM n={}: {} threads on rank 0 {:.0f} MFLOPS, one thread per rank {:.0f} MFLOPS, "
                  "efficiency {:.2f} ({:.1f} s)",
                  static_cast<long long>(thr.n), thr.threads, thr.threaded_mflops, thr.single_mflops, thr.efficiency(),
                  t_thr));
  const CoreLayoutRecord layout = core_layout_of(thr, ranks);
  if (layout.measured) say("cores: " + describe(layout));

  // 6b. The packed GEMM's blockings and the leaf that pays.
  PackedTuneRecord packed;
  double t_packed = 0;
  if (options.packed_tune) {
    const double t0 = MPI_Wtime();
    const std::int64_t pn = packed_ladder_size(options.n);
    say(fmt::format("packed GEMM: {} kernel, {} blockings and DGEMM at n={}, one thread ({} rounds)",
                    local::to_string(local::packed_isa()), packed_ladder(local::packed_isa()).size(),
                    static_cast<long long>(pn), options.reps));
    packed = measure_packed_ladder(pn, options.reps, std::min(options.warmup, 1), comm, say);
    t_packed = MPI_Wtime() - t0;
    say(fmt::format("packed GEMM: best blocking {} at {:.0f} MFLOPS, DGEMM {:.0f} MFLOPS: leaf {} ({:.1f} s)",
                    local::to_string(packed.best), packed.packed_mflops, packed.blas_mflops,
                    local::to_string(packed.leaf), t_packed));
  }

  // 7a. OpenBLAS's cores, each in a child process of rank 0 while the other
  // ranks wait (tuner/blas_kernel_probe.hpp). Not under SMPI: the simulated
  // ranks share one process and one OpenBLAS.
  BlasKernelRecord kernels;
  double t_probe = 0;
  if (options.blas_probe && !sim::simulated()) {
    const double t0 = MPI_Wtime();
    if (rank == 0) {
      ProbeOptions po;
      po.executable = options.executable;
      kernels.probed = true;
      kernels.n = po.n;
      kernels.probes = probe_blas_kernels(po);
      const char* pin = std::getenv("OPENBLAS_CORETYPE");
      kernels.choice = choose_kernel(kernels.probes, blas_core_name(blas_config()), pin != nullptr && *pin != '\0');
      for (const KernelProbe& k : kernels.probes)
        say(k.verified ? fmt::format("BLAS core {} (ran {}): {:.0f} MFLOPS, verified", k.asked.empty() ? "detected" : k.asked,
                                     k.ran, k.mflops)
                       : fmt::format("BLAS core {}: rejected, {}", k.asked.empty() ? "detected" : k.asked, k.reason));
    }
    MMBENCH_MPI(MPI_Barrier(comm));
    t_probe = MPI_Wtime() - t0;
  }

  note(fmt::format("BLAS threads per rank: {}", blas_threads_per_rank));
  note(fmt::format("durations: DGEMM profile {:.1f} s, lb check {:.1f} s, network {:.1f} s, add {:.1f} s, local "
                   "Strassen {:.1f} s, threaded DGEMM {:.1f} s, packed GEMM {:.1f} s, BLAS cores {:.1f} s",
                   t_dgemm, t_check, t_net, t_add, t_cross, t_thr, t_packed, t_probe));

  // 7. Assemble on rank 0 (the host facts are rank 0's), write, broadcast.
  std::string text, error;
  if (rank == 0) {
    try {
      MachineProfile p;
      p.host = host_name();
      p.cpu_model = cpu_model();
      p.cores = cpu_cores();
      p.date = utc_timestamp();
      p.libraries.mpi = mpi_library_version();
      p.libraries.blas = trim(blas_config());
      p.libraries.scalapack = options.scalapack_version;
      p.problem = {options.n, options.pr, options.pc, options.kmin, kmax, options.x, options.exhaustive};
      p.lb = lb;
      p.rule_lb = rule.lb;
      p.lb_at_max = best->k;
      p.peak_dgemm_mflops = best->median;
      // The models' flop time is DGEMM's rate at the chosen panel width
      // (that is what PDGEMM's local updates run at after tuning): the
      // median of the profile point nearest to lb in log k (the checked lb
      // need not lie on the grid).
      const auto at_lb = std::min_element(rule.points.begin(), rule.points.end(), [&](const auto& a, const auto& b) {
        const double la = std::abs(std::log(static_cast<double>(a.k) / static_cast<double>(lb)));
        const double lbd = std::abs(std::log(static_cast<double>(b.k) / static_cast<double>(lb)));
        return la < lbd;
      });
      p.t_op_s = 1.0 / (at_lb->median * 1e6);
      if (check.done) {
        p.lb_check = check.record;
        p.lb_check.csv = options.lb_check_csv_path;
      }
      p.dgemm_threads = thr.threads;
      p.dgemm_threaded_n = thr.n;
      p.dgemm_threaded_mflops = thr.threaded_mflops;
      p.dgemm_single_mflops = thr.single_mflops;
      p.network_measured = net.measured;
      p.latency_s = net.latency_s;
      p.tau_pingpong = net.tau_pingpong;
      p.tau_alltoall = net.tau_alltoall;
      p.tau_model = TauModel::alltoall;  // the thesis' choice (docs/method.md §8.2)
      p.two_regime = {net.two_regime.eager.latency_s, net.two_regime.eager.tau,
                      net.two_regime.rendezvous.latency_s, net.two_regime.rendezvous.tau,
                      net.two_regime.break_bytes};
      p.add_bytes_per_s = add.bytes_per_s;
      p.add_threads = add.threads;
      p.add_threaded_bytes_per_s = add.threaded_bytes_per_s;
      p.strassen_l1_n = cross.l1_n;
      p.strassen_l2_n = cross.l2_n;
      p.strassen_tried_n = cross.points.empty() ? 0 : cross.points.back().n;
      p.cpu_peak = cpu_peak;
      p.notes = notes;
      for (const RobustPoint& pt : rule.points) p.dgemm_profile.push_back({m_local, n_local, pt.k, pt.median});
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
      p.blas_kernels = kernels;
      p.packed = packed;
      p.core_layout = layout;

      if (!options.profile_csv_path.empty()) {
        write_file_atomically(options.profile_csv_path, profile_csv(rule, timings, options.x, lb));
        say("wrote " + options.profile_csv_path);
      }
      if (check.done && !options.lb_check_csv_path.empty()) {
        write_file_atomically(options.lb_check_csv_path,
                              lb_check_csv(check.record, options.pr, options.pc, rule.lb, lb));
        say("wrote " + options.lb_check_csv_path);
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
