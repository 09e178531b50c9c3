#include "results/validation_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "results/results_schema.hpp"
#include "run/round_statistics.hpp"
#include "results/result_row.hpp"
#include "core/byte_size.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::results {

using run::Config;
using run::Measured;
using run::paired_speed_ratio;

using algos::Problem;

namespace {

// The p-th quantile (0..1) of v by linear interpolation; v not empty.
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * (v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - lo) * (v[hi] - v[lo]);
}

}  // namespace

std::string validation_stem(const std::string& csv_path) {
  return csv_path.size() > 4 && csv_path.ends_with(".csv") ? csv_path.substr(0, csv_path.size() - 4) : csv_path;
}

void write_validation(CsvFile& out, const std::string& stem, const std::vector<Config>& configs,
                      const std::vector<CandidateResult>& results, model::ModelKind kind, int ranks) {
  std::string text = fmt::format("validation of the {} model on p = {} ({} configurations)\n", model::to_string(kind),
                                 ranks, configs.size());
  std::vector<double> regrets, all_paper, all_refined;
  int groups = 0;
  for (const Config& c : configs) groups = std::max(groups, c.group + 1);
  for (int g = 0; g < groups; ++g) {
    std::vector<double> ep, er;
    double max_mem_err = -1;  // |predicted own buffers - measured| / measured, the worst candidate
    int pick = -1, best = -1, candidates = 0, measured_count = 0;
    double t_best = 0;
    for (std::size_t i = 0; i < configs.size(); ++i)
      if (configs[i].group == g && configs[i].model_pick) pick = static_cast<int>(i);
    const int cores = pick >= 0 ? configs[static_cast<std::size_t>(pick)].cores(ranks) : 0;
    Problem pb{};
    for (std::size_t i = 0; i < configs.size(); ++i) {
      if (configs[i].group != g || configs[i].cores(ranks) != cores) continue;
      ++candidates;
      pb = configs[i].pb;
      const CandidateResult& res = results[i];
      if (!res.verified || !res.measured || res.measured->times.empty()) continue;
      ++measured_count;
      if (res.measured->mem_hwm_mb > 0) {
        const double pred = 8.0 * configs[i].algo->memory(configs[i].pb, configs[i].opt, ranks).own() / (1 << 20);
        max_mem_err = std::max(max_mem_err, std::abs(pred - res.measured->mem_hwm_mb) / res.measured->mem_hwm_mb);
      }
      const double t = summarize(res.measured->times).median;
      if (best < 0 || t < t_best) {
        t_best = t;
        best = static_cast<int>(i);
      }
      if (res.predicted && t > 0) {
        ep.push_back(std::abs(res.predicted->error_paper(t)));
        er.push_back(std::abs(res.predicted->error_refined(t)));
      }
    }
    all_paper.insert(all_paper.end(), ep.begin(), ep.end());
    all_refined.insert(all_refined.end(), er.begin(), er.end());
    auto label = [&](int i) {
      if (i < 0) return std::string();
      const Config& c = configs[static_cast<std::size_t>(i)];
      return ranking::Candidate{c.algo, c.opt, {}, {}, {}}.label();
    };
    std::map<std::string, std::string> r = {{"p", std::to_string(ranks)},
                                            {"cores", std::to_string(cores)},
                                            {"m", std::to_string(pb.m)},
                                            {"n", std::to_string(pb.n)},
                                            {"k", std::to_string(pb.k)},
                                            {"candidates", std::to_string(candidates)},
                                            {"measured", std::to_string(measured_count)},
                                            {"best", label(best)},
                                            {"pick", label(pick)},
                                            {"model", model::to_string(kind)}};
    if (best >= 0) r["t_best"] = fmt_sig(t_best);
    std::string regret = "-";
    const CandidateResult* rp = pick >= 0 ? &results[static_cast<std::size_t>(pick)] : nullptr;
    const Measured* mp = rp && rp->verified ? rp->measured : nullptr;
    if (mp && !mp->times.empty() && best >= 0) {
      const Measured& mb = *results[static_cast<std::size_t>(best)].measured;
      // t_pick / t_best per round: the speed of best relative to the pick.
      const MedianInterval reg = paired_speed_ratio(mp->times, mb.times);
      r["t_pick"] = fmt_sig(summarize(mp->times).median);
      r["rounds"] = std::to_string(reg.n);
      r["regret"] = fmt::format("{:.3f}", reg.median);
      r["regret_ci_lo"] = fmt::format("{:.3f}", reg.lo);
      r["regret_ci_hi"] = fmt::format("{:.3f}", reg.hi);
      // The interval's coverage follows from the rounds (3: [min, max], 75 %).
      regret = fmt::format("{} [{}, {}] ({} interval, {} rounds)", r["regret"], r["regret_ci_lo"], r["regret_ci_hi"],
                           coverage_label(reg.coverage), reg.n);
      regrets.push_back(reg.median);
    }
    auto q = [](const std::vector<double>& v, double x) {
      return v.empty() ? std::string() : fmt::format("{:.3f}", quantile(v, x));
    };
    r["median_abs_err_paper"] = q(ep, 0.5);
    r["p90_abs_err_paper"] = q(ep, 0.9);
    r["median_abs_err_refined"] = q(er, 0.5);
    r["p90_abs_err_refined"] = q(er, 0.9);
    // The pick's memory per rank, predicted (all parts) and measured (the
    // high-water mark of mmbench's buffers), and the worst memory error.
    std::string memory = "-";
    if (pick >= 0) {
      const Config& c = configs[static_cast<std::size_t>(pick)];
      if (c.runner_up_ratio > 0) r["runner_up_ratio"] = fmt::format("{:.4f}", c.runner_up_ratio);
      const double pred = c.algo->memory(c.pb, c.opt, ranks).bytes();
      r["mem_pred_pick_mb"] = fmt::format("{:.4g}", pred / (1 << 20));
      memory = "predicted " + format_bytes(pred);
      if (mp && mp->mem_hwm_mb > 0) {
        r["mem_hwm_pick_mb"] = fmt::format("{:.4g}", mp->mem_hwm_mb);
        memory += ", measured " + format_bytes(mp->mem_hwm_mb * (1 << 20));
      }
    }
    if (max_mem_err >= 0) {
      r["max_abs_mem_err"] = fmt::format("{:.4f}", max_mem_err);
      memory += fmt::format(" (largest |error| over the candidates {:.1f} %)", 100 * max_mem_err);
    }
    out.append(r);
    text += fmt::format(
        "m={} n={} k={} on {} cores: best {} ({} s), pick {} ({} s), regret {}; |err| median/p90 paper {}/{}, refined "
        "{}/{}; "
        "memory per rank of the pick {}\n",
        pb.m, pb.n, pb.k, cores, best < 0 ? "-" : r["best"], r["t_best"], r["pick"],
        r["t_pick"].empty() ? "-" : r["t_pick"], regret, r["median_abs_err_paper"], r["p90_abs_err_paper"],
        r["median_abs_err_refined"], r["p90_abs_err_refined"], memory);
  }
  if (!regrets.empty())
    text +=
        fmt::format("overall: regret median {:.3f}, max {:.3f} over {} problems; |err| median paper {}, refined {}\n",
                    quantile(regrets, 0.5), *std::max_element(regrets.begin(), regrets.end()), regrets.size(),
                    all_paper.empty() ? "-" : fmt::format("{:.3f}", quantile(all_paper, 0.5)),
                    all_refined.empty() ? "-" : fmt::format("{:.3f}", quantile(all_refined, 0.5)));
  // Appended like the CSV, so runs at several p collect in one summary.
  std::ofstream txt(stem + "-validate.txt", std::ios::app);
  txt << text;
  if (!txt) fmt::print(stderr, "mmbench: warning: cannot append to {}-validate.txt\n", stem);
  fmt::print("{}validation written to {}-validate.csv and {}-validate.txt\n", text, stem, stem);
}

}  // namespace mmbench::results
