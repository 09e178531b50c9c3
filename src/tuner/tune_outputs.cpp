#include "tuner/tune_outputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/machine/blas.hpp"
#include "core/csv_file.hpp"
#include "core/machine/sysinfo.hpp"
#include "core/stats/timing.hpp"
#include "profile/network_levels_record.hpp"

namespace mmbench::tuner::steps {

namespace {

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

// The PDGEMM checks, smaller sizes first, columns as in docs/csv-columns.md
// ("lb check"); chosen marks each size's best.
std::string lb_check_csv(const LbChecks& checks, int pr, int pc, std::int64_t rule_lb) {
  std::string csv =
      "n,pr,pc,nb,lb,rounds,mflops_median,ratio_median,ratio_ci_lo,ratio_ci_hi,coverage,reference_lb,rule_lb,"
      "chosen\n";
  std::vector<const LbCheckOutcome*> all;
  for (const LbCheckOutcome& c : checks.smaller) all.push_back(&c);
  all.push_back(&checks.at_n);
  for (const LbCheckOutcome* check : all) {
    if (!check->done) continue;
    const profile::LbCheckRecord& c = check->record;
    for (const profile::LbCheckCandidate& cd : c.candidates)
      csv += fmt::format("{},{},{},{},{},{},{:.3f},{:.5f},{:.5f},{:.5f},{:.4f},{},{},{}\n", static_cast<long long>(c.n),
                         pr, pc, c.nb, static_cast<long long>(cd.lb), c.rounds, cd.mflops_median, cd.ratio_median,
                         cd.ratio_ci_lo, cd.ratio_ci_hi, c.coverage, static_cast<long long>(c.reference_lb),
                         static_cast<long long>(rule_lb), cd.lb == check->lb ? 1 : 0);
  }
  return csv;
}

}  // namespace

profile::NetworkLevelsRecord network_levels_of(const NetworkCalibration& net) {
  profile::NetworkLevelsRecord r;
  r.present = true;
  r.nodes = net.nodes;
  r.levels.ranks_per_node = net.ranks_per_node;
  const model::NetworkLevel pingpong{net.latency_s, net.tau_pingpong};
  (net.pingpong_same_node ? r.levels.intra : r.levels.inter) = pingpong;
  if (net.other_partner >= 0)
    (net.pingpong_same_node ? r.levels.inter : r.levels.intra) = model::NetworkLevel{net.other_latency_s, net.other_tau};
  r.levels.intra_tau_concurrent = net.tau_node_concurrent;
  r.levels.node_link_tau = net.node_link_tau;
  r.levels.backbone_tau = net.backbone_tau;
  const char* first = net.pingpong_same_node ? "intra-node" : "inter-node";
  const char* second = net.pingpong_same_node ? "inter-node" : "intra-node";
  std::string capacities = "node link and backbone not measured (one node)";
  if (net.nodes >= 2)
    capacities = fmt::format(
        "node link: {} flows from rank 0's node to the next at once carried {:.3g} MB/s ({}); backbone: {} flows, "
        "every node to the next at once, carried {:.3g} MB/s ({})",
        net.link_flows, net.link_sum_tau * 8 / 1e6, net.node_link_tau > 0 ? "less than alone: the link's capacity" : "as much as alone: unlimited",
        net.backbone_flows, net.backbone_sum_tau * 8 / 1e6,
        net.backbone_tau > 0 ? "less than the links allow: the backbone's capacity" : "as much as the links allow: unlimited");
  r.source = fmt::format(
      "tune (measured): {} ranks on rank 0's node, {} node{}; {} level: the ping-pong sweep of ranks 0 and 1; {} level: {}; "
      "{}; {}",
      net.ranks_per_node, net.nodes, net.nodes == 1 ? "" : "s", first, second,
      net.other_partner >= 0 ? fmt::format("ranks 0 and {}, 8 B .. 4 MiB", net.other_partner)
                             : std::string("not measured (no such pair in this job)"),
      net.tau_node_concurrent > 0 ? "intra-node at once: every rank of a node sends to the next rank of its node at the same time"
                                  : "no node holds two ranks: no intra-node exchange at once",
      capacities);
  return r;
}

profile::MachineProfile assemble_profile(const Session& s, const Measurements& m) {
  const TuneOptions& options = s.options;
  const RobustLb& rule = m.dgemm.rule;
  const std::int64_t lb = m.lb.lb;
  const LbCheckOutcome& check = m.check.value.at_n;
  const NetworkCalibration& net = m.net.value;
  const AddBandwidth& add = m.add.value;
  const LocalCrossover& cross = m.cross.value;
  const ThreadedDgemm& thr = m.threads.dgemm;
  profile::MachineProfile p;
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
  p.lb_panels = m.lb.panels;
  p.lb_curve = m.lb.curve;
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
  p.tau_model = profile::TauModel::alltoall;  // the thesis' choice (docs/method.md §8.2)
  p.two_regime = {net.two_regime.eager.latency_s, net.two_regime.eager.tau,
                  net.two_regime.rendezvous.latency_s, net.two_regime.rendezvous.tau,
                  net.two_regime.break_bytes};
  if (net.measured) p.network_levels = network_levels_of(net);
  p.shift_overlap = m.overlap.value.record;
  p.add_bytes_per_s = add.bytes_per_s;
  p.add_threads = add.threads;
  p.add_threaded_bytes_per_s = add.threaded_bytes_per_s;
  p.first_touch_bytes_per_s = add.first_touch_bytes_per_s;
  p.strassen_l1_n = cross.l1_n;
  p.strassen_l2_n = cross.l2_n;
  p.strassen_tried_n = cross.points.empty() ? 0 : cross.points.back().n;
  p.cpu_peak = m.cpu_peak;
  p.notes = s.notes;
  for (const RobustPoint& pt : rule.points) p.dgemm_profile.push_back({s.m_local, s.n_local, pt.k, pt.median});
  p.dgemm_profile_noise = relative_noise(rule.points);
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

void write_text(const Session& s, const std::string& path, const std::string& text) {
  if (path.empty()) return;
  write_file_atomically(path, text);
  s.say("wrote " + path);
}

std::string write_profile_json(const Session& s, const profile::MachineProfile& p) {
  const std::string& path = s.options.profile_path;
  std::string text = profile::profile_to_json(p, path.empty() ? "<profile>" : path);
  if (!path.empty()) {
    profile::write_profile(p, path);
    s.say("wrote " + path);
  }
  return text;
}

std::string write_outputs(const Session& s, const Measurements& m, const profile::MachineProfile& p) {
  const TuneOptions& options = s.options;
  // The profile CSV's lb column is the profile's lb, as in the profile.
  write_text(s, options.profile_csv_path, profile_csv(m.dgemm.rule, m.dgemm.timings, options.x, m.lb.lb));
  if (m.check.value.at_n.done)
    write_text(s, options.lb_check_csv_path, lb_check_csv(m.check.value, options.pr, options.pc, m.dgemm.rule.lb));
  if (!m.kernel_model.csv.empty()) write_text(s, options.kernel_model_csv_path, m.kernel_model.csv);
  return write_profile_json(s, p);
}

}  // namespace mmbench::tuner::steps
