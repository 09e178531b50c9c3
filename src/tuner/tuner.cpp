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
#include "tuner/kernel_timings.hpp"
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

namespace {

// What every step reads: the options, the communicator, the typical local
// shape, where the progress lines go (rank 0) and the profile's notes.
struct Session {
  // whole_tune = false: a step run alone (add_kernel_model), which needs
  // no grid, so the tune's checks of it do not apply.
  Session(const TuneOptions& o, MPI_Comm c, const std::function<void(const std::string&)>& progress,
          bool whole_tune = true)
      : options(o), comm(c) {
    MMBENCH_MPI(MPI_Comm_rank(comm, &rank));
    MMBENCH_MPI(MPI_Comm_size(comm, &ranks));
    if (whole_tune) {
      validate(options, ranks);
      m_local = options.n / options.pr;
      n_local = options.n / options.pc;
      kmax = effective_kmax(options);
    }
    say = [this, progress](const std::string& line) {
      if (rank == 0 && progress) progress(line);
    };
  }
  void note(const std::string& text) {
    if (!notes.empty()) notes += "; ";
    notes += text;
  }
  // The line goes to the progress and into the notes.
  void say_and_note(const std::string& text) {
    say(text);
    note(text);
  }

  const TuneOptions& options;
  MPI_Comm comm;
  int rank = 0, ranks = 1;
  std::int64_t m_local = 0, n_local = 0, kmax = 0;
  std::function<void(const std::string&)> say;
  std::string notes;
};

// A step's result and the seconds it took.
template <class T>
struct Timed {
  T value{};
  double seconds = 0;
};

// Step 0: the CPU's peak and the BLAS's one-thread DGEMM against it, on rank 0
// alone (tuner/machine_check.hpp; DGEMM at the threaded step's size).
PeakRecord measure_peak(Session& s) {
  const PeakRecord cpu_peak = check_machine({{}, threaded_dgemm_size(s.options.n)}, s.comm);
  s.say(describe_peak_record(cpu_peak));
  return cpu_peak;
}

// Step 1: the DGEMM profile and the rule's lb.
struct DgemmProfileStep {
  std::map<std::int64_t, std::vector<DgemmTiming>> timings;  // every timed call, by k
  RobustLb rule;
  RobustPoint best;  // the point of the highest median
  double seconds = 0;
};

DgemmProfileStep profile_dgemm(Session& s) {
  const TuneOptions& options = s.options;
  DgemmProfileStep out;
  const double t_start = MPI_Wtime();
  const std::vector<std::int64_t> ks = options.exhaustive ? even_grid(options.kmin, s.kmax)
                                                          : coarse_grid(options.kmin, s.kmax, kProfileGridRatio);
  DgemmProfiler profiler(s.m_local, s.n_local, s.kmax, 1, 0, s.comm);
  if (!profiler.counters_available()) s.say_and_note(profiler.counters_message());
  if (const std::string core = blas_core_note(); !core.empty()) s.say_and_note(core);
  s.say(fmt::format("dgemm profile m={} n={} k={}..{} ({} {} k, {} passes in shuffled order)",
                    static_cast<long long>(s.m_local), static_cast<long long>(s.n_local),
                    static_cast<long long>(ks.front()), static_cast<long long>(ks.back()), ks.size(),
                    options.exhaustive ? "even" : "geometric", options.passes));
  for (int w = 0; w < options.warmup; ++w) profiler.measure(ks.back());
  constexpr std::uint64_t kPassSeed = 0x70726f66696c65ULL;  // "profile"
  const std::vector<ProfileSamples> samples = measure_in_passes(
      ks, options.passes, kPassSeed,
      [&](std::int64_t k, int) {
        const DgemmTiming t = profiler.measure(k);
        out.timings[k].push_back(t);
        return t.mflops;
      },
      [&](int pass) {
        s.say(fmt::format("dgemm profile pass {}/{} done ({:.1f} s)", pass + 1, options.passes,
                          MPI_Wtime() - t_start));
      });
  out.rule = choose_lb_robust(samples, options.x);
  const RobustLb& rule = out.rule;
  out.best = *std::max_element(rule.points.begin(), rule.points.end(),
                               [](const RobustPoint& a, const RobustPoint& b) { return a.median < b.median; });
  out.seconds = MPI_Wtime() - t_start;
  s.say(fmt::format("dgemm profile: rule lb = {} (smoothed max {:.0f} MFLOPS at k = {}, threshold {:.0f}{}; "
                    "{} k x {} passes in {:.1f} s)",
                    static_cast<long long>(rule.lb), rule.max_smooth, static_cast<long long>(rule.k_at_max),
                    rule.threshold, rule.fallback ? ", no k beyond the noise: the maximum's k" : "", ks.size(),
                    options.passes, out.seconds));
  s.note(fmt::format("DGEMM profile: {} grid, {} k, {} passes, warmup {}; rule lb {} (eq. 2.26 on the running "
                     "median of 3, a k counts when its median's lower confidence bound reaches x max too{})",
                     options.exhaustive ? "every even k" : "geometric (ratio 1.2)", ks.size(), options.passes,
                     options.warmup, static_cast<long long>(rule.lb), rule.fallback ? "; none did: argmax" : ""));
  return out;
}

// Step 2: PDGEMM check of lb candidates around the rule's (unless
// --no-lb-check); check.lb is the rule's where it was not done.
Timed<LbCheckOutcome> check_lb(Session& s, const RobustLb& rule) {
  const TuneOptions& options = s.options;
  Timed<LbCheckOutcome> out;
  LbCheckOutcome& check = out.value;
  check.lb = rule.lb;
  if (!options.lb_check) {
    s.note("lb check skipped (--no-lb-check): lb = the rule's");
    return out;
  }
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
  s.say(fmt::format("lb check: PDGEMM n={} grid {}x{} nb={}, lb {} ({} rounds)", static_cast<long long>(options.n),
                    options.pr, options.pc, options.lb_check_nb, list, options.lb_check_rounds));
  LbCheckOptions co;
  co.n = options.n;
  co.pr = options.pr;
  co.pc = options.pc;
  co.nb = options.lb_check_nb;
  co.rounds = options.lb_check_rounds;
  co.warmup = std::max(1, options.warmup);
  check = check_lb_with_pdgemm(co, lbs, rule.lb, s.comm, s.say);
  out.seconds = MPI_Wtime() - t0;
  if (!check.done) {
    s.say_and_note("lb check not done: " + check.reason + "; lb = the rule's");
    return out;
  }
  auto speed = [&](std::int64_t lb) {
    for (const LbCheckCandidate& c : check.record.candidates)
      if (c.lb == lb) return c.ratio_median;
    return 0.0;
  };
  const std::int64_t rule_cand = rule_candidate(check.record, rule.lb);
  s.say(fmt::format("lb check: lb = {} ({:.3f}x the speed of lb = 32; the rule's lb = {} as checked, {}: {:.3f}x) in "
                    "{:.1f} s",
                    static_cast<long long>(check.lb), speed(check.lb), static_cast<long long>(rule.lb),
                    static_cast<long long>(rule_cand), speed(rule_cand), out.seconds));
  s.note(fmt::format("lb: PDGEMM check at n = {} ({} candidates, {} rounds, nb {}): lb = {}, the rule's {}",
                     static_cast<long long>(options.n), lbs.size(), options.lb_check_rounds, options.lb_check_nb,
                     static_cast<long long>(check.lb), static_cast<long long>(rule.lb)));
  return out;
}

// Step 3: the network.
Timed<NetworkCalibration> calibrate(Session& s) {
  Timed<NetworkCalibration> out;
  const double t0 = MPI_Wtime();
  NetworkOptions net_options;
  net_options.reps = s.options.network_reps;
  if (s.ranks > 1) {
    const auto sizes = default_pingpong_sizes();
    s.say("network: ping-pong " + bytes_text(sizes.front()) + " .. " + bytes_text(sizes.back()) +
          " between ranks 0 and 1, all-to-all over " + std::to_string(s.ranks) + " ranks");
  }
  out.value = calibrate_network(s.comm, net_options);
  out.seconds = MPI_Wtime() - t0;
  const NetworkCalibration& net = out.value;
  if (net.measured) {
    s.say(fmt::format("network: latency {:.3g} us, tau ping-pong {:.3g} GB/s, all-to-all {:.3g} GB/s per rank, "
                      "eager/rendezvous break {} B ({:.1f} s)",
                      net.latency_s * 1e6, net.tau_pingpong * 8 / 1e9, net.tau_alltoall * 8 / 1e9,
                      static_cast<long long>(net.two_regime.break_bytes), out.seconds));
    s.say(fmt::format("network: {} ranks on rank 0's node, {} node{}; ranks 0 and 1 on {}; every rank of a node at "
                      "once: {}",
                      net.ranks_per_node, net.nodes, net.nodes == 1 ? "" : "s",
                      net.pingpong_same_node ? "one node" : "two nodes",
                      net.tau_node_concurrent > 0 ? fmt::format("{:.3g} GB/s per rank", net.tau_node_concurrent * 8 / 1e9)
                                                  : std::string("not measured (one rank per node)")));
  } else {
    s.say("network: " + net.note);
  }
  if (!net.note.empty()) s.note("network: " + net.note);
  return out;
}

// The two-level section from what this job saw: the ping-pong is the
// level its pair crossed, the node exchange the intra-node throughput at
// once; the other level stays 0 (not known: the models keep pricing one
// level until a platform or a hand adds it), and so do the capacities
// shared between nodes, which one node cannot see.
NetworkLevelsRecord network_levels_of(const NetworkCalibration& net) {
  NetworkLevelsRecord r;
  r.present = true;
  r.nodes = net.nodes;
  r.levels.ranks_per_node = net.ranks_per_node;
  const model::NetworkLevel pingpong{net.latency_s, net.tau_pingpong};
  (net.pingpong_same_node ? r.levels.intra : r.levels.inter) = pingpong;
  r.levels.intra_tau_concurrent = net.tau_node_concurrent;
  r.source = fmt::format("tune: {} ranks on rank 0's node, {} node{}; the ping-pong of ranks 0 and 1 ({}) is the {} "
                         "one-flow value; {}; the other level, node link and backbone not measured",
                         net.ranks_per_node, net.nodes, net.nodes == 1 ? "" : "s",
                         net.pingpong_same_node ? "one node" : "two nodes",
                         net.pingpong_same_node ? "intra-node" : "inter-node",
                         net.tau_node_concurrent > 0 ? "intra-node at once: every rank of a node sends to the next "
                                                       "rank of its node at the same time"
                                                     : "no node holds two ranks: no intra-node exchange at once");
  return r;
}

// Step 4: the memory bandwidth of an addition.
Timed<AddBandwidth> measure_add(Session& s) {
  Timed<AddBandwidth> out;
  const double t0 = MPI_Wtime();
  out.value = measure_add_bandwidth(s.options.add_n, s.options.reps, s.options.warmup, s.comm, cpu_cores());
  out.seconds = MPI_Wtime() - t0;
  const AddBandwidth& add = out.value;
  s.say(fmt::format("add bandwidth: n={}, {:.3g} GB/s per rank{} ({:.1f} s)", static_cast<long long>(add.n),
                    add.bytes_per_s / 1e9,
                    add.threads >= 2 ? fmt::format(", {} threads on rank 0 {:.3g} GB/s ({:.2f}x)", add.threads,
                                                   add.threaded_bytes_per_s / 1e9,
                                                   add.threaded_bytes_per_s / add.bytes_per_s)
                                     : std::string(),
                    out.seconds));
  return out;
}

// Step 5: the local Strassen-Winograd crossover (unless turned off; sizes up
// to the typical local block, at most 3072 so the step stays within seconds).
Timed<LocalCrossover> measure_crossover(Session& s) {
  Timed<LocalCrossover> out;
  if (!s.options.local_crossover) return out;
  const double t0 = MPI_Wtime();
  std::vector<std::int64_t> sizes;
  for (std::int64_t n : {256, 512, 768, 1024, 1536, 2048, 3072})
    if (n <= std::max<std::int64_t>(512, std::max(s.m_local, s.n_local))) sizes.push_back(n);
  out.value = measure_local_crossover(sizes, s.options.reps, s.options.warmup, s.comm, s.say);
  out.seconds = MPI_Wtime() - t0;
  s.say(fmt::format("local Strassen: L=1 pays from n={}, L=2 from n={} (0 = not within the sizes tried)",
                    static_cast<long long>(out.value.l1_n), static_cast<long long>(out.value.l2_n)));
  return out;
}

// Step 6: multi-thread DGEMM against one thread per rank, and from it the
// better layout of the cores.
struct ThreadsStep {
  ThreadedDgemm dgemm;
  CoreLayoutRecord layout;
  int blas_threads_per_rank = 0;  // as the caller set it
  double seconds = 0;
};

ThreadsStep measure_threads(Session& s) {
  ThreadsStep out;
  const double t0 = MPI_Wtime();
  out.blas_threads_per_rank = blas_threads();
  out.dgemm = measure_threaded_dgemm(threaded_dgemm_size(s.options.n), cpu_cores(), s.options.reps,
                                     s.options.warmup, s.comm);
  out.seconds = MPI_Wtime() - t0;
  const ThreadedDgemm& thr = out.dgemm;
  s.say(fmt::format("threaded DGEMM n={}: {} threads on rank 0 {:.0f} MFLOPS, one thread per rank {:.0f} MFLOPS, "
                    "efficiency {:.2f} ({:.1f} s)",
                    static_cast<long long>(thr.n), thr.threads, thr.threaded_mflops, thr.single_mflops,
                    thr.efficiency(), out.seconds));
  out.layout = core_layout_of(thr, s.ranks);
  if (out.layout.measured) s.say("cores: " + describe(out.layout));
  return out;
}

// Step 6b: the packed GEMM's blockings and the leaf that pays (unless turned off).
Timed<PackedTuneRecord> tune_packed(Session& s) {
  Timed<PackedTuneRecord> out;
  if (!s.options.packed_tune) return out;
  const double t0 = MPI_Wtime();
  const std::int64_t pn = packed_ladder_size(s.options.n);
  s.say(fmt::format("packed GEMM: {} kernel, {} blockings and DGEMM at n={}, one thread ({} rounds)",
                    local::to_string(local::packed_isa()), packed_ladder(local::packed_isa()).size(),
                    static_cast<long long>(pn), s.options.reps));
  out.value = measure_packed_ladder(pn, s.options.reps, std::min(s.options.warmup, 1), s.comm, s.say);
  out.seconds = MPI_Wtime() - t0;
  const PackedTuneRecord& packed = out.value;
  s.say(fmt::format("packed GEMM: best blocking {} at {:.0f} MFLOPS, DGEMM {:.0f} MFLOPS: leaf {} ({:.1f} s)",
                    local::to_string(packed.best), packed.packed_mflops, packed.blas_mflops,
                    local::to_string(packed.leaf), out.seconds));
  return out;
}

// The kernel model's raw timings, one row per timed call: kind (dgemm, add,
// copy, pack), the DGEMM's shape or the pass's bytes, the time and the
// model's price of it (docs/csv-columns.md, "Kernel model timings").
std::string kernel_model_csv(const KernelTimings& t, const KernelTimeModel& model) {
  std::string csv = "kind,m,n,k,bytes,seconds,fitted_s\n";
  for (const DgemmSample& d : t.dgemm)
    csv += fmt::format("dgemm,{},{},{},,{:.9g},{:.9g}\n", static_cast<long long>(d.m), static_cast<long long>(d.n),
                       static_cast<long long>(d.k), d.seconds,
                       model.dgemm.seconds(double(d.m), double(d.n), double(d.k)));
  const std::pair<const char*, const std::vector<PassSample>*> passes[] = {{"add", &t.add}, {"copy", &t.copy}, {"pack", &t.pack}};
  const BytesTimeFit* fits[] = {&model.add, &model.copy, &model.pack};
  for (int i = 0; i < 3; ++i)
    for (const PassSample& p : *passes[i].second)
      csv += fmt::format("{},,,,{:.0f},{:.9g},{:.9g}\n", passes[i].first, p.bytes, p.seconds, fits[i]->seconds(p.bytes));
  return csv;
}

// Step 6c: the kernel model; its fit on rank 0, which alone holds the
// timings (unless turned off, or the fit fails: then a note and no model).
struct KernelModelStep {
  KernelTimeModel model;
  std::string csv;  // the timings' CSV text (rank 0; empty: no model)
  double seconds = 0;
};

KernelModelStep measure_kernel_model(Session& s) {
  KernelModelStep out;
  if (!s.options.kernel_model) return out;
  const double t0 = MPI_Wtime();
  const std::int64_t size = kernel_model_size(s.options.n);
  s.say(fmt::format("kernel model: {} DGEMM shapes and {} passes up to N = {}, one thread per rank, {} rounds",
                    kernel_model_shapes(s.options.n).size(), 3 * kernel_model_pass_sizes(s.options.n).size(),
                    static_cast<long long>(size), s.options.reps));
  const KernelTimings timings = time_kernels(s.options.n, s.options.reps, s.options.warmup, s.comm, s.say);
  out.seconds = MPI_Wtime() - t0;
  if (s.rank != 0) return out;
  try {
    out.model = fit_kernel_model(timings);
  } catch (const std::invalid_argument& e) {
    s.say_and_note(std::string("kernel model not fitted: ") + e.what());
    out.model = {};
    return out;
  }
  if (!out.model.measured) {
    s.say_and_note("kernel model not fitted: a fit has no positive flop or byte term");
    return out;
  }
  out.csv = kernel_model_csv(timings, out.model);
  const KernelTimeModel& m = out.model;
  s.say(fmt::format("kernel model: DGEMM {:.3g} GFLOP/s asymptotic, {:.3g} us per call, spread {:.3f} (repeat "
                    "{:.3f}); add {:.3g} GB/s, copy {:.3g} GB/s, pack {:.3g} GB/s ({:.1f} s)",
                    2.0 / m.dgemm.b_s_per_mnk / 1e9, m.dgemm.a_s * 1e6, m.dgemm.log_sd, m.dgemm.repeat_log_sd,
                    1.0 / m.add.b_s_per_byte / 1e9, 1.0 / m.copy.b_s_per_byte / 1e9, 1.0 / m.pack.b_s_per_byte / 1e9,
                    out.seconds));
  s.note(fmt::format("kernel model: {} shapes, {} passes up to N = {}, {} rounds on {} ranks",
                     m.dgemm.shapes, m.add.sizes + m.copy.sizes + m.pack.sizes, static_cast<long long>(m.max_dim),
                     m.rounds, m.ranks));
  return out;
}

// Step 7a: OpenBLAS's cores, each in a child process of rank 0 while the
// other ranks wait (tuner/blas_kernel_probe.hpp). Not under SMPI: the
// simulated ranks share one process and one OpenBLAS.
Timed<BlasKernelRecord> probe_kernels(Session& s) {
  Timed<BlasKernelRecord> out;
  if (!s.options.blas_probe || sim::simulated()) return out;
  const double t0 = MPI_Wtime();
  if (s.rank == 0) {
    BlasKernelRecord& kernels = out.value;
    ProbeOptions po;
    po.executable = s.options.executable;
    kernels.probed = true;
    kernels.n = po.n;
    kernels.probes = probe_blas_kernels(po);
    const char* pin = std::getenv("OPENBLAS_CORETYPE");
    kernels.choice = choose_kernel(kernels.probes, blas_core_name(blas_config()), pin != nullptr && *pin != '\0');
    for (const KernelProbe& k : kernels.probes)
      s.say(k.verified ? fmt::format("BLAS core {} (ran {}): {:.0f} MFLOPS, verified",
                                     k.asked.empty() ? "detected" : k.asked, k.ran, k.mflops)
                       : fmt::format("BLAS core {}: rejected, {}", k.asked.empty() ? "detected" : k.asked, k.reason));
  }
  MMBENCH_MPI(MPI_Barrier(s.comm));
  out.seconds = MPI_Wtime() - t0;
  return out;
}

// Everything the steps measured.
struct Measurements {
  PeakRecord cpu_peak;
  DgemmProfileStep dgemm;
  Timed<LbCheckOutcome> check;
  std::int64_t lb = 0;  // the lb in force: the check's, or the rule's
  Timed<NetworkCalibration> net;
  Timed<AddBandwidth> add;
  Timed<LocalCrossover> cross;
  ThreadsStep threads;
  Timed<PackedTuneRecord> packed;
  Timed<BlasKernelRecord> kernels;
  KernelModelStep kernel_model;
};

// The machine profile from the measurements (rank 0: the host facts are its own).
MachineProfile assemble_profile(const Session& s, const Measurements& m) {
  const TuneOptions& options = s.options;
  const RobustLb& rule = m.dgemm.rule;
  const std::int64_t lb = m.lb;
  const LbCheckOutcome& check = m.check.value;
  const NetworkCalibration& net = m.net.value;
  const AddBandwidth& add = m.add.value;
  const LocalCrossover& cross = m.cross.value;
  const ThreadedDgemm& thr = m.threads.dgemm;
  MachineProfile p;
  p.host = host_name();
  p.cpu_model = cpu_model();
  p.cores = cpu_cores();
  // A rank per core: the node's memory over its cores.
  if (p.cores > 0) p.memory_per_rank_bytes = total_memory_bytes() / p.cores;
  p.date = utc_timestamp();
  p.libraries.mpi = mpi_library_version();
  p.libraries.blas = trim(blas_config());
  p.libraries.scalapack = options.scalapack_version;
  p.problem = {options.n, options.pr, options.pc, options.kmin, s.kmax, options.x, options.exhaustive};
  p.lb = lb;
  p.rule_lb = rule.lb;
  p.lb_at_max = m.dgemm.best.k;
  p.peak_dgemm_mflops = m.dgemm.best.median;
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
  if (net.measured) p.network_levels = network_levels_of(net);
  p.add_bytes_per_s = add.bytes_per_s;
  p.add_threads = add.threads;
  p.add_threaded_bytes_per_s = add.threaded_bytes_per_s;
  p.strassen_l1_n = cross.l1_n;
  p.strassen_l2_n = cross.l2_n;
  p.strassen_tried_n = cross.points.empty() ? 0 : cross.points.back().n;
  p.cpu_peak = m.cpu_peak;
  p.notes = s.notes;
  for (const RobustPoint& pt : rule.points) p.dgemm_profile.push_back({s.m_local, s.n_local, pt.k, pt.median});
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
  p.blas_kernels = m.kernels.value;
  p.packed = m.packed.value;
  p.core_layout = m.threads.layout;
  p.kernel_model = m.kernel_model.model;
  if (p.kernel_model.measured) p.kernel_model_csv = options.kernel_model_csv_path;
  return p;
}

// Step 7: rank 0 writes the raw profile CSV, the lb check CSV and the
// profile JSON; returns the profile as JSON text.
std::string write_outputs(const Session& s, const Measurements& m, const MachineProfile& p) {
  const TuneOptions& options = s.options;
  if (!options.profile_csv_path.empty()) {
    write_file_atomically(options.profile_csv_path, profile_csv(m.dgemm.rule, m.dgemm.timings, options.x, m.lb));
    s.say("wrote " + options.profile_csv_path);
  }
  if (m.check.value.done && !options.lb_check_csv_path.empty()) {
    write_file_atomically(options.lb_check_csv_path,
                          lb_check_csv(m.check.value.record, options.pr, options.pc, m.dgemm.rule.lb, m.lb));
    s.say("wrote " + options.lb_check_csv_path);
  }
  if (!m.kernel_model.csv.empty() && !options.kernel_model_csv_path.empty()) {
    write_file_atomically(options.kernel_model_csv_path, m.kernel_model.csv);
    s.say("wrote " + options.kernel_model_csv_path);
  }
  std::string text = profile_to_json(p, options.profile_path.empty() ? "<profile>" : options.profile_path);
  if (!options.profile_path.empty()) {
    write_profile(p, options.profile_path);
    s.say("wrote " + options.profile_path);
  }
  return text;
}

}  // namespace

namespace {

// The profile as rank 0 builds (and writes) it, on every rank: build() runs
// on rank 0 alone and returns the profile's JSON text; its error, if any,
// stops every rank with the same message.
MachineProfile profile_from_rank0(const Session& s, MPI_Comm comm, const std::function<std::string()>& build) {
  std::string text, error;
  if (s.rank == 0) {
    try {
      text = build();
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

}  // namespace

MachineProfile run_tuner(const TuneOptions& options, MPI_Comm comm,
                         const std::function<void(const std::string&)>& progress) {
  Session s(options, comm, progress);
  Measurements m;
  m.cpu_peak = measure_peak(s);
  m.dgemm = profile_dgemm(s);
  m.check = check_lb(s, m.dgemm.rule);
  m.lb = m.check.value.done ? m.check.value.lb : m.dgemm.rule.lb;
  m.net = calibrate(s);
  m.add = measure_add(s);
  m.cross = measure_crossover(s);
  m.threads = measure_threads(s);
  m.packed = tune_packed(s);
  m.kernel_model = measure_kernel_model(s);
  m.kernels = probe_kernels(s);
  s.note(fmt::format("BLAS threads per rank: {}", m.threads.blas_threads_per_rank));
  s.note(fmt::format("durations: DGEMM profile {:.1f} s, lb check {:.1f} s, network {:.1f} s, add {:.1f} s, local "
                     "Strassen {:.1f} s, threaded DGEMM {:.1f} s, packed GEMM {:.1f} s, kernel model {:.1f} s, BLAS cores {:.1f} s",
                     m.dgemm.seconds, m.check.seconds, m.net.seconds, m.add.seconds, m.cross.seconds,
                     m.threads.seconds, m.packed.seconds, m.kernel_model.seconds, m.kernels.seconds));

  // Assembled and written on rank 0, broadcast to every rank.
  return profile_from_rank0(s, comm, [&] { return write_outputs(s, m, assemble_profile(s, m)); });
}

MachineProfile add_kernel_model(const TuneOptions& options, const MachineProfile& existing, MPI_Comm comm,
                                const std::function<void(const std::string&)>& progress) {
  if (options.n < 1) fail(fmt::format("n = {} must be >= 1", static_cast<long long>(options.n)));
  if (options.reps < 1) fail(fmt::format("reps = {} must be >= 1", options.reps));
  if (options.warmup < 0) fail(fmt::format("warmup = {} must be >= 0", options.warmup));
  TuneOptions o = options;
  o.kernel_model = true;
  Session s(o, comm, progress, false);
  const KernelModelStep step = measure_kernel_model(s);
  return profile_from_rank0(s, comm, [&] {
    if (!step.model.measured) throw std::runtime_error(s.notes.empty() ? "the kernel model was not fitted" : s.notes);
    MachineProfile p = existing;
    p.kernel_model = step.model;
    p.kernel_model_csv = o.kernel_model_csv_path;
    if (!p.notes.empty()) p.notes += "; ";
    p.notes += fmt::format("kernel model measured alone at {} ({:.1f} s, tune --kernel-model-only)", utc_timestamp(),
                           step.seconds);
    if (!o.kernel_model_csv_path.empty()) {
      write_file_atomically(o.kernel_model_csv_path, step.csv);
      s.say("wrote " + o.kernel_model_csv_path);
    }
    std::string text = profile_to_json(p, o.profile_path.empty() ? "<profile>" : o.profile_path);
    if (!o.profile_path.empty()) {
      write_profile(p, o.profile_path);
      s.say("wrote " + o.profile_path);
    }
    return text;
  });
}

}  // namespace mmbench::tuner
