#include "tuner/tune_steps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "core/machine/blas.hpp"
#include "core/mpi/comm.hpp"
#include "core/lb_in_force.hpp"
#include "core/simulation.hpp"
#include "core/machine/sysinfo.hpp"
#include "local/packed_gemm.hpp"
#include "profile/profile_facts.hpp"
#include "tuner/blas_kernel_probe.hpp"
#include "tuner/kernel_timings.hpp"
#include "tuner/machine_check.hpp"
#include "tuner/packed_ladder.hpp"

namespace mmbench::tuner::steps {

namespace {

std::string bytes_text(std::int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return fmt::format("{} MiB", static_cast<long long>(b >> 20));
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", static_cast<long long>(b >> 10));
  return fmt::format("{} B", static_cast<long long>(b));
}

}  // namespace

profile::PeakRecord measure_peak(Session& s) {
  const profile::PeakRecord cpu_peak = check_machine({{}, threaded_dgemm_size(s.options.n)}, s.comm);
  s.say(describe_peak_record(cpu_peak));
  return cpu_peak;
}

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

namespace {
// One PDGEMM check at size n (lb_candidates, check_lb_with_pdgemm), said
// as it goes.
LbCheckOutcome check_lb_at(Session& s, const RobustLb& rule, std::int64_t n, int rounds) {
  const TuneOptions& options = s.options;
  const std::vector<std::int64_t> lbs = lb_candidates(rule.lb, n, options.pr, options.pc, options.lb_check_nb);
  std::string list;
  for (std::int64_t v : lbs) {
    if (!list.empty()) list += ',';
    list += std::to_string(v);
  }
  s.say(fmt::format("lb check: PDGEMM n={} grid {}x{} nb={}, lb {} ({} rounds)", static_cast<long long>(n), options.pr,
                    options.pc, options.lb_check_nb, list, rounds));
  LbCheckOptions co;
  co.n = n;
  co.pr = options.pr;
  co.pc = options.pc;
  co.nb = options.lb_check_nb;
  co.rounds = rounds;
  co.warmup = std::max(1, options.warmup);
  const double t0 = MPI_Wtime();
  LbCheckOutcome check = check_lb_with_pdgemm(co, lbs, rule.lb, s.comm, s.say);
  if (!check.done) {
    s.say_and_note(fmt::format("lb check at n = {} not done: {}", static_cast<long long>(n), check.reason));
    return check;
  }
  auto speed = [&](std::int64_t lb) {
    for (const profile::LbCheckCandidate& c : check.record.candidates)
      if (c.lb == lb) return c.ratio_median;
    return 0.0;
  };
  const std::int64_t rule_cand = rule_candidate(check.record, rule.lb);
  s.say(fmt::format(
      "lb check: n = {}: lb = {} ({:.3f}x the speed of lb = 32; the rule's lb = {} as checked, {}: "
      "{:.3f}x) in {:.1f} s",
      static_cast<long long>(n), static_cast<long long>(check.lb), speed(check.lb), static_cast<long long>(rule.lb),
      static_cast<long long>(rule_cand), speed(rule_cand), MPI_Wtime() - t0));
  s.note(fmt::format("lb: PDGEMM check at n = {} ({} candidates, {} rounds, nb {}): lb = {}, the rule's {}",
                     static_cast<long long>(n), lbs.size(), rounds, options.lb_check_nb,
                     static_cast<long long>(check.lb), static_cast<long long>(rule.lb)));
  return check;
}
}  // namespace

Timed<LbChecks> check_lb(Session& s, const RobustLb& rule) {
  const TuneOptions& options = s.options;
  Timed<LbChecks> out;
  out.value.at_n.lb = rule.lb;
  if (!options.lb_check) {
    s.note("lb check skipped (--no-lb-check): lb = the rule's");
    return out;
  }
  const double t0 = MPI_Wtime();
  // The tuning size first (the profile's lb_check), then the smaller sizes
  // of the curve, each with more rounds: a call there costs an eighth or a
  // 64th of one at n, and its times are noisier.
  out.value.at_n = check_lb_at(s, rule, options.n, options.lb_check_rounds);
  if (out.value.at_n.done)
    for (std::int64_t n : lb_curve_sizes(options.n)) {
      if (n == options.n) continue;
      const int rounds = options.lb_check_rounds * static_cast<int>(std::min<std::int64_t>(4, options.n / n));
      LbCheckOutcome c = check_lb_at(s, rule, n, rounds);
      if (c.done) out.value.smaller.push_back(std::move(c));
    }
  out.seconds = MPI_Wtime() - t0;
  return out;
}

RecordedLb record_lb(Session& s, const LbChecks& checks, const RobustLb& rule) {
  if (!checks.at_n.done) return {rule.lb, kLbPanelsPerProcess, {}};
  const TuneOptions& options = s.options;
  std::vector<LbCheckOutcome> all = checks.smaller;
  all.push_back(checks.at_n);
  RecordedLb out;
  out.lb = checks.at_n.lb;
  out.curve = lb_curve_from_checks(all, options.pr, options.pc);
  out.panels = lb_panels_without_curve(out.lb, options.n / std::max({1, options.pr, options.pc}));
  const LbCurve curve = profile::curve_of(out.curve, rule.lb);
  const LbCap cap = LbCap::measured(curve, out.panels);
  s.say_and_note(fmt::format(
      "lb: the curve from {} size(s), ceiling {}; lb at n = {}", out.curve.points.size(),
      static_cast<long long>(curve.ceiling),
      profile::lb_by_size({static_cast<int>(out.lb), cap}, options.n, options.pr, options.pc, options.lb_check_nb)));
  return out;
}

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
    if (net.other_partner >= 0)
      s.say(fmt::format("network: ranks 0 and {} ({}): latency {:.3g} us, {:.3g} GB/s", net.other_partner,
                        net.pingpong_same_node ? "two nodes" : "one node", net.other_latency_s * 1e6,
                        net.other_tau * 8 / 1e9));
    if (net.nodes >= 2)
      s.say(fmt::format("network: node link {:.3g} GB/s over {} flows ({}), backbone {:.3g} GB/s over {} flows ({})",
                        net.link_sum_tau * 8 / 1e9, net.link_flows, net.node_link_tau > 0 ? "limited" : "unlimited",
                        net.backbone_sum_tau * 8 / 1e9, net.backbone_flows,
                        net.backbone_tau > 0 ? "limited" : "unlimited"));
  } else {
    s.say("network: " + net.note);
  }
  if (!net.note.empty()) s.note("network: " + net.note);
  if (!net.remeasured.empty()) s.say_and_note("network: " + net.remeasured);
  // Into the profile's notes; tune's summary prints it from the profile.
  const std::string both_ways = both_ways_warning(net.tau_pingpong, net.tau_alltoall, net.nodes, net.ranks_per_node);
  if (!both_ways.empty()) s.note("network: " + both_ways);
  return out;
}

Timed<ShiftOverlap> measure_overlap(Session& s, const NetworkCalibration& net) {
  Timed<ShiftOverlap> out;
  if (s.ranks < 2) return out;
  const double t0 = MPI_Wtime();
  // Ranks 0 and 1 are the inter-node pair unless they share a node; then
  // the other level's partner is (calibrate_network found it).
  int partner = 1;
  if (net.nodes >= 2 && net.pingpong_same_node && net.other_partner > 0) partner = net.other_partner;
  const bool across = net.nodes >= 2 && !(partner == 1 && net.pingpong_same_node);
  // A difference of two sums of noisy times: more rounds than the ping-pong's.
  out.value = measure_shift_overlap(s.comm, partner, across, std::max(9, s.options.network_reps),
                                    {std::begin(kOverlapSizes), std::end(kOverlapSizes)});
  out.seconds = MPI_Wtime() - t0;
  const profile::ShiftOverlapRecord& o = out.value.record;
  std::string sizes;
  for (std::size_t i = 0; i < o.points.size(); ++i) {
    const profile::ShiftOverlapPoint& pt = o.points[i];
    sizes += fmt::format(
        "{}{} MiB each way: alone {:.3g} s, 4 chunks of {} DGEMMs alone {:.3g} s, together {:.3g} s: "
        "{:.2f} of the shorter hidden",
        i == 0 ? "" : "; ", pt.bytes >> 20, pt.exchange_s, out.value.chunk_dgemms[i], pt.compute_s, pt.both_s,
        pt.fraction);
  }
  s.say(fmt::format("overlap: ranks 0 and {} ({}), {} ({:.1f} s)", partner, across ? "two nodes" : "one node", sizes,
                    out.seconds));
  return out;
}

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


ThreadsStep measure_threads(Session& s) {
  ThreadsStep out;
  const double t0 = MPI_Wtime();
  out.blas_threads_per_rank = blas_threads();
  // The CPUs of rank 0's node as its cpuset allows (a Slurm job's, a node
  // of a cluster): on a one-CPU node a second thread has nowhere to run.
  const int node_cpus = static_cast<int>(Comm::view(s.comm).max(static_cast<long long>(s.rank == 0 ? cpu_cores() : 0)));
  if (node_cpus < 2) {
    s.say_and_note("threaded DGEMM: not measured, rank 0's node has 1 CPU");
    return out;
  }
  out.dgemm = measure_threaded_dgemm(threaded_dgemm_size(s.options.n), node_cpus, s.options.reps,
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

Timed<profile::PackedTuneRecord> tune_packed(Session& s) {
  Timed<profile::PackedTuneRecord> out;
  if (!s.options.packed_tune) return out;
  const double t0 = MPI_Wtime();
  const std::int64_t pn = packed_ladder_size(s.options.n);
  s.say(fmt::format("packed GEMM: {} kernel, {} blockings and DGEMM at n={}, one thread ({} rounds)",
                    local::to_string(local::packed_isa()), packed_ladder(local::packed_isa()).size(),
                    static_cast<long long>(pn), s.options.reps));
  out.value = measure_packed_ladder(pn, s.options.reps, std::min(s.options.warmup, 1), s.comm, s.say);
  out.seconds = MPI_Wtime() - t0;
  const profile::PackedTuneRecord& packed = out.value;
  s.say(
      fmt::format("packed GEMM: best blocking {} at {:.0f} MFLOPS, DGEMM {:.0f} MFLOPS, round by round "
                  "{:.3f}x [{:.3f}, {:.3f}]: leaf {} (packed only where it won every round; {:.1f} s)",
                  local::to_string(packed.best), packed.packed_mflops, packed.blas_mflops, packed.speedup.median,
                  packed.speedup.lo, packed.speedup.hi, local::to_string(packed.leaf), out.seconds));
  return out;
}

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

Timed<profile::BlasKernelRecord> probe_kernels(Session& s) {
  Timed<profile::BlasKernelRecord> out;
  if (!s.options.blas_probe || sim::simulated()) return out;
  const double t0 = MPI_Wtime();
  if (s.rank == 0) {
    profile::BlasKernelRecord& kernels = out.value;
    ProbeOptions po;
    po.executable = s.options.executable;
    kernels.probed = true;
    kernels.n = po.n;
    kernels.probes = probe_blas_kernels(po);
    kernels.choice = choose_kernel(kernels.probes, blas_core_name(blas_config()), !pinned_blas_core().empty());
    for (const profile::KernelProbe& k : kernels.probes)
      s.say(k.verified ? fmt::format("BLAS core {} (ran {}): {:.0f} MFLOPS, verified",
                                     k.asked.empty() ? "detected" : k.asked, k.ran, k.mflops)
                       : fmt::format("BLAS core {}: rejected, {}", k.asked.empty() ? "detected" : k.asked, k.reason));
  }
  MMBENCH_MPI(MPI_Barrier(s.comm));
  out.seconds = MPI_Wtime() - t0;
  return out;
}

}  // namespace mmbench::tuner::steps
