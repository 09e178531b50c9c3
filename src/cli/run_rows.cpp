#include "cli/run_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "cli/ranking_table.hpp"
#include "cli/round_statistics.hpp"
#include "cli/value_lists.hpp"
#include "core/paired_stats.hpp"
#include "core/simulation.hpp"
#include "core/sysinfo.hpp"
#include "core/timing.hpp"
#include "model/selection.hpp"

namespace mmbench::cli {

using algos::Options;

std::string fmt_sig(double v) { return fmt::format("{:.6g}", v); }

// The options as the plan used them (Plan::as_run), so "max" and "auto" are
// priced at what the algorithm really chose.
std::optional<Predicted> predict_as_ran(const Config& c, const Measured& m, const Machine& machine) {
  algos::AsRun used = m.as_run.value();  // set by the first round
  // lb 0 (library default) stays 0: the paper prices it with its own rate.
  if (c.opt.lb == 0) used.opt.lb = 0;
  model::Prediction paper, refined;
  try {
    model::predict_configuration(*c.algo, c.pb, used.opt, used.ranks, machine.params, paper, refined);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // a model that does not cover this configuration
  }
  return Predicted{paper.total(), refined.total()};
}

void add_predictions(Row& row, const Predicted& pr, const Measured& m) {
  row["pred_paper"] = fmt_sig(pr.paper);
  row["pred_refined"] = fmt_sig(pr.refined);
  if (m.times.empty()) return;
  const double t = summarize(m.times).median;
  if (t > 0) {
    row["err_paper"] = fmt::format("{:.4f}", pr.error_paper(t));
    row["err_refined"] = fmt::format("{:.4f}", pr.error_refined(t));
  }
}

std::map<std::string, std::string> identity_row(const Config& c, const RunArgs& a, int p, std::uint64_t order_seed) {
  std::map<std::string, std::string> row;
  row["timestamp"] = utc_timestamp();
  row["host"] = host_name();
  row["simulated"] = sim::platform();  // empty for real runs
  row["p"] = std::to_string(p);
  row["threads"] = std::to_string(c.opt.threads);
  row["algo"] = std::string(c.algo->name());
  row["m"] = std::to_string(c.pb.m);
  row["n"] = std::to_string(c.pb.n);
  row["k"] = std::to_string(c.pb.k);
  row["warmup"] = std::to_string(a.warmup);
  row["reps_asked"] = a.reps;
  row["order_seed"] = std::to_string(order_seed);
  row["local_levels"] = c.local_label.empty() ? std::to_string(c.opt.local_levels) : c.local_label;
  row["selected_by"] = c.selected_by;
  if (!c.runner_up.empty()) row["runner_up"] = c.runner_up;
  return row;
}

void add_measurement(std::map<std::string, std::string>& row, const Config& c, const Measured& m) {
  for (auto& [k, v] : m.described) row[k] = v;
  // Per processor = per core used: ranks x BLAS threads as the plan ran
  // (the dgemm peer: its one rank with all the job's cores as threads), so
  // rows with different thread counts compare fairly.
  const algos::AsRun& used = m.as_run.value();  // set by the first round
  row["p"] = std::to_string(used.ranks);
  row["threads"] = std::to_string(used.opt.threads);
  const MedianInterval t = median_interval(m.times);
  const Stats st = summarize(m.times);
  row["reps"] = std::to_string(m.times.size());
  row["t_min"] = fmt_sig(st.min);
  row["t_median"] = fmt_sig(st.median);
  row["t_max"] = fmt_sig(st.max);
  row["t_median_lo"] = fmt_sig(t.lo);
  row["t_median_hi"] = fmt_sig(t.hi);
  row["ci_coverage"] = fmt::format("{:.3f}", t.coverage);
  const double cv = coefficient_of_variation(m.times);
  row["cv"] = fmt::format("{:.4f}", cv);
  row["noisy"] = cv > kNoisyCoefficientOfVariation ? "yes" : "no";
  row["peak_mem_mb"] = fmt::format("{:.1f}", m.peak_mem_mb);
  row["mflops_per_proc"] = fmt::format("{:.1f}", mflops_per_proc(c.pb, st.median, used.ranks, used.opt.threads));
  row["gflops_total"] = fmt::format("{:.3f}", c.pb.flops() / st.median / 1e9);
  bool failed = false;
  if (m.residual < 0) {
    row["verified"] = "skipped";
    if (sim::charged()) row["reason"] = "simulated with charged computation: no result to verify";
  } else {
    row["residual"] = fmt::format("{:.3g}", m.residual);
    row["residual_limit"] = fmt::format("{:.3g}", m.residual_limit);
    failed = !(m.residual <= m.residual_limit);
    row["verified"] = failed ? "no" : "yes";
  }
  row["status"] = failed ? "failed" : "ok";
  if (failed) row["reason"] = "residual above limit";
}

void add_peer_ratio(std::map<std::string, std::string>& row, const Measured& peer, const Measured& m) {
  const MedianInterval r = paired_speed_ratio(peer.times, m.times);
  row["peer_ratio"] = fmt::format("{:.4f}", r.median);
  row["peer_ratio_lo"] = fmt::format("{:.4f}", r.lo);
  row["peer_ratio_hi"] = fmt::format("{:.4f}", r.hi);
}

void print_header() {
  fmt::print("{:<20} {:>3} {:>3} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5} {:>2} {:>4} {:>10} {:>10} {:>9} {:>14} {:>9}  {}\n", "algo",
             "p", "thr", "m", "n", "k", "grid", "nb", "lb", "r", "L", "t_med[s]", "MFLOPS/p", "GFLOP/s", "vs peer",
             "residual", "status");
}

namespace {

// "0.98 ±0.02": the median ratio to the peer and its interval's half-width
// (the larger side; the CSV has both bounds).
std::string ratio_cell(const std::map<std::string, std::string>& r) {
  auto it = r.find("peer_ratio");
  if (it == r.end() || it->second.empty()) return "";
  const double med = std::stod(it->second), lo = std::stod(r.at("peer_ratio_lo")), hi = std::stod(r.at("peer_ratio_hi"));
  return fmt::format("{:.3f} ±{:.3f}", med, std::max(med - lo, hi - med));
}

}  // namespace

void print_row(const std::map<std::string, std::string>& r) {
  auto g = [&](const char* k) {
    auto it = r.find(k);
    return it == r.end() ? std::string() : it->second;
  };
  std::string status = g("status");
  if (status != "ok") status += " (" + g("reason") + ")";
  if (g("noisy") == "yes") status += fmt::format(" noisy (cv {:.0f} %)", 100 * std::stod(g("cv")));
  fmt::print("{:<20} {:>3} {:>3} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5} {:>2} {:>4} {:>10} {:>10} {:>9} {:>14} {:>9}  {}\n",
             g("algo"), g("p"), g("threads"), g("m"), g("n"), g("k"), g("grid"), g("nb"), g("lb"), g("recursions"),
             g("local_levels"), g("t_median"), g("mflops_per_proc"), g("gflops_total"), ratio_cell(r), g("residual"),
             status);
  std::fflush(stdout);
}

}  // namespace mmbench::cli
