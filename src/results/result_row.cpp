#include "results/result_row.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "results/ranking_table.hpp"
#include "run/round_statistics.hpp"
#include "core/value_lists.hpp"
#include "core/simulation.hpp"
#include "core/machine/sysinfo.hpp"
#include "ranking/selection.hpp"

namespace mmbench::results {

using run::Config;
using run::Measured;
using run::paired_speed_ratio;

std::string fmt_sig(double v) { return fmt::format("{:.6g}", v); }

// The options as the plan used them (Plan::as_run), so "max" and "auto" are
// priced at what the algorithm really chose.
std::optional<Predicted> predict_as_ran(const Config& c, const Measured& m, const model::MachineParams& machine) {
  algos::AsRun used = m.as_run.value();  // set by the first round
  // lb 0 (library default) stays 0: the paper prices it with its own rate.
  if (c.opt.lb == 0) used.opt.lb = 0;
  model::Prediction paper, refined;
  try {
    ranking::predict_configuration(*c.algo, c.pb, used.opt, used.ranks, machine, paper, refined);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // a model that does not cover this configuration
  }
  return Predicted{paper.total(), refined.total()};
}

bool ResultRow::Timing::noisy() const { return cv > kNoisyCoefficientOfVariation; }

ResultRow identity_row(const Config& c, int warmup, const std::string& reps_asked, int p, std::uint64_t order_seed) {
  ResultRow row;
  row.timestamp = utc_timestamp();
  row.host = host_name();
  row.simulated = sim::platform();  // empty for real runs
  row.p = p;
  row.threads = c.opt.threads;
  row.hybrid = c.opt.hybrid;
  row.algo = std::string(c.algo->name());
  row.pb = c.pb;
  row.warmup = warmup;
  row.reps_asked = reps_asked;
  row.order_seed = order_seed;
  const auto asked_levels = c.asked.find("local_levels");
  row.local_levels = asked_levels == c.asked.end() ? std::to_string(c.opt.local.levels) : asked_levels->second;
  // Also on rows that never ran (not applicable), whose plan wrote nothing.
  if (c.algo->uses().local_levels) row.local_gemm = std::string(local::to_string(c.opt.local.gemm));
  row.selected_by = c.selected_by;
  row.runner_up = c.runner_up;
  row.runner_up_ratio = c.runner_up_ratio;
  if (c.algo->check(c.pb, c.opt, p).ok()) row.memory = c.algo->memory(c.pb, c.opt, p);
  return row;
}

void add_measurement(ResultRow& row, const Config& c, const Measured& m) {
  row.described = m.described;
  // Per processor = per core used: ranks x BLAS threads as the plan ran
  // (the dgemm peer: its one rank with all the job's cores as threads), so
  // rows with different thread counts compare fairly.
  const algos::AsRun& used = m.as_run.value();  // set by the first round
  row.p = used.ranks;
  row.threads = used.opt.threads;
  row.reps = static_cast<int>(m.times.size());
  ResultRow::Timing t;
  t.times = summarize(m.times);
  t.rounds = m.times;
  t.interval = median_interval(m.times);
  t.cv = coefficient_of_variation(m.times);
  t.peak_mem_mb = m.peak_mem_mb;
  t.mem_hwm_mb = m.mem_hwm_mb;
  if (m.mem_rss_mb >= 0) t.mem_rss_mb = m.mem_rss_mb;
  t.mflops_per_proc = mflops_per_proc(c.pb, t.times.median, used.ranks, used.opt.threads);
  t.gflops_total = c.pb.flops() / t.times.median / 1e9;
  row.timing = t;
  if (m.residual < 0) {  // not verified
    if (sim::charged()) row.reason = "simulated with charged computation: no result to verify";
    return;
  }
  row.verification = ResultRow::Verification{m.residual, m.residual_limit, m.relative_residual};
  if (!row.verification->passed()) {
    row.status = ResultRow::Status::failed;
    row.reason = m.residual <= m.residual_limit ? fmt::format("relative residual {:.3g} above {:.0e} (a wrong result)",
                                                              m.relative_residual, kRelativeResidualLimit)
                                                : "residual above limit";
  }
}

void add_peer_ratio(ResultRow& row, const Measured& peer, const Measured& m) {
  row.peer_ratio = paired_speed_ratio(peer.times, m.times);
}

void add_peak_fraction(ResultRow& row, const profile::PeakRecord& peak) {
  if (row.timing) row.peak_fraction = profile::peak_fraction(row.timing->mflops_per_proc, peak, row.p * row.threads);
}

namespace {

std::string status_name(ResultRow::Status s) {
  switch (s) {
    case ResultRow::Status::ok:
      return "ok";
    case ResultRow::Status::failed:
      return "failed";
    case ResultRow::Status::not_applicable:
      return "not-applicable";
  }
  return "";
}

std::string fixed(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }

}  // namespace

std::map<std::string, std::string> ResultRow::cells() const {
  std::map<std::string, std::string> c = described;
  c["timestamp"] = timestamp;
  c["host"] = host;
  c["simulated"] = simulated;
  c["p"] = std::to_string(p);
  c["threads"] = std::to_string(threads);
  c["hybrid"] = std::to_string(hybrid);
  c["algo"] = algo;
  c["m"] = std::to_string(pb.m);
  c["n"] = std::to_string(pb.n);
  c["k"] = std::to_string(pb.k);
  c["warmup"] = std::to_string(warmup);
  c["reps_asked"] = reps_asked;
  c["order_seed"] = std::to_string(order_seed);
  c["local_levels"] = local_levels;
  if (!local_gemm.empty()) c["local_gemm"] = local_gemm;
  c["selected_by"] = selected_by;
  c["runner_up"] = runner_up;
  if (!runner_up.empty() && runner_up_ratio > 0) c["runner_up_ratio"] = fixed(runner_up_ratio, 4);
  c["status"] = status_name(status);
  c["reason"] = reason;
  if (reps) c["reps"] = std::to_string(*reps);
  if (timing) {
    const Timing& t = *timing;
    c["t_min"] = fmt_sig(t.times.min);
    c["t_median"] = fmt_sig(t.times.median);
    c["t_max"] = fmt_sig(t.times.max);
    c["t_median_lo"] = fmt_sig(t.interval.lo);
    c["t_median_hi"] = fmt_sig(t.interval.hi);
    c["ci_coverage"] = coverage_text(t.interval.coverage);
    c["cv"] = fixed(t.cv, 4);
    c["noisy"] = t.noisy() ? "yes" : "no";
    c["peak_mem_mb"] = fixed(t.peak_mem_mb, 1);
    c["mem_hwm_mb"] = fmt::format("{:.4g}", t.mem_hwm_mb);
    if (t.mem_rss_mb) c["mem_rss_mb"] = fmt::format("{:.4g}", *t.mem_rss_mb);
    // The prediction of mmbench's own buffers (the library estimate left
    // out: the count cannot see it) against the count.
    if (memory && t.mem_hwm_mb > 0)
      c["mem_err"] = fixed((8.0 * memory->own() / (1 << 20) - t.mem_hwm_mb) / t.mem_hwm_mb, 4);
    c["mflops_per_proc"] = fixed(t.mflops_per_proc, 1);
    c["gflops_total"] = fixed(t.gflops_total, 3);
    if (peak_fraction) c["peak_fraction"] = fixed(*peak_fraction, 4);
    std::string rounds;
    for (std::size_t r = 0; r < t.rounds.size(); ++r) {
      if (r) rounds += ';';
      rounds += fmt_sig(t.rounds[r]);
    }
    c["t_rounds"] = rounds;
    if (verification) {
      c["residual"] = fmt::format("{:.3g}", verification->residual);
      c["residual_limit"] = fmt::format("{:.3g}", verification->limit);
      c["verified"] = verification->passed() ? "yes" : "no";
    } else {
      c["verified"] = "skipped";
    }
  }
  if (memory) {
    c["mem_pred_mb"] = fmt::format("{:.4g}", memory->bytes() / (1 << 20));
    c["mem_pred_parts"] = algos::parts_text(*memory);
  }
  if (peer_ratio) {
    c["peer_ratio"] = fixed(peer_ratio->median, 4);
    c["peer_ratio_lo"] = fixed(peer_ratio->lo, 4);
    c["peer_ratio_hi"] = fixed(peer_ratio->hi, 4);
  }
  if (predicted) {
    c["pred_paper"] = fmt_sig(predicted->paper);
    c["pred_refined"] = fmt_sig(predicted->refined);
    if (timing && timing->times.median > 0) {
      c["err_paper"] = fixed(predicted->error_paper(timing->times.median), 4);
      c["err_refined"] = fixed(predicted->error_refined(timing->times.median), 4);
    }
  }
  return c;
}

// The table's line, header and rows alike (L is 8 wide for "auto", "2+packed").
constexpr char kTableLine[] =
    "{:<20} {:>3} {:>3} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5} {:>2} {:>8} {:>10} {:>10} {:>9} {:>5} {:>19} {:>9}  {}\n";

const std::vector<std::string>& table_titles() {
  static const std::vector<std::string> titles = {
      "algo",     "p",     "thr", "m",        "n",        "k",       "grid", "nb",
      "lb",       "r",     "L",   "t_med[s]", "MFLOPS/p", "GFLOP/s", "peak", "vs peer [coverage]",
      "residual", "status"};
  return titles;
}

std::vector<std::string> table_cells(const ResultRow& r) {
  const std::map<std::string, std::string> c = r.cells();  // the same text as the CSV
  auto g = [&](const char* k) {
    auto it = c.find(k);
    return it == c.end() ? std::string() : it->second;
  };
  std::string status = g("status");
  if (r.status != ResultRow::Status::ok) status += " (" + r.reason + ")";
  if (r.timing && r.timing->noisy()) status += fmt::format(" noisy (cv {:.0f} %)", 100 * r.timing->cv);
  // "0.980 ±0.020 75%": the median ratio to the peer, its interval's
  // half-width (the larger side; the CSV has both bounds) and what that
  // interval covers with this row's rounds (3 rounds: [min, max], 75 %).
  std::string vs_peer;
  if (r.peer_ratio) {
    const MedianInterval& q = *r.peer_ratio;
    std::string cover = coverage_label(q.coverage);
    cover.erase(cover.find(' '), 1);  // "75%": the column is narrow
    vs_peer = fmt::format("{:.3f} ±{:.3f} {}", q.median, std::max(q.median - q.lo, q.hi - q.median), cover);
  }
  // L: the local levels, with what is not the default under them ("2+packed"
  // for the packed GEMM, "+strassen" for the classic variant, "+none" or
  // "+deepest" for the fusion schedule, "+streaming" for streaming stores), so
  // rows of one sweep differ.
  std::string levels = g("local_levels");
  if (g("local_gemm") == "packed") levels += "+packed";
  if (levels != "0" && !levels.empty()) {
    if (g("local_variant") == "strassen") levels += "+strassen";
    const std::string fusion = g("local_fusion");
    if (!fusion.empty() && fusion != "all") levels += "+" + fusion;
    if (g("local_stores") == "streaming") levels += "+streaming";
  }
  return {g("algo"),
          g("p"),
          g("threads"),
          g("m"),
          g("n"),
          g("k"),
          g("grid"),
          g("nb"),
          g("lb"),
          g("recursions"),
          levels,
          g("t_median"),
          g("mflops_per_proc"),
          g("gflops_total"),
          r.peak_fraction ? fmt::format("{:.2f}", *r.peak_fraction) : "",
          vs_peer,
          g("residual"),
          status};
}

namespace {
void print_table_line(const std::vector<std::string>& v) {
  fmt::print(kTableLine, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14],
             v[15], v[16], v[17]);
}
}  // namespace

void print_header() { print_table_line(table_titles()); }

void print_row(const ResultRow& r) {
  print_table_line(table_cells(r));
  std::fflush(stdout);
}

}  // namespace mmbench::results
