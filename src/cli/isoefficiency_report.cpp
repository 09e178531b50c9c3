#include "cli/isoefficiency_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "results/ranking_table.hpp"
#include "core/byte_size.hpp"

namespace mmbench::cli {

using results::memory_json;
using results::mflops_per_proc;

const std::vector<std::string>& isoefficiency_columns() {
  static const std::vector<std::string> cols = {
      "isoefficiency", "model",   "threads",         "p",           "algo",          "reached",     "n_iso",
      "n",             "efficiency", "t_pred",       "mflops_per_proc", "mem_pred_mb", "best_member", "n_max",
      "note"};
  return cols;
}

void print_isoefficiency_header(const IsoHeader& h) {
  fmt::print("isoefficiency E = {}, {} model: efficiency = T_dgemm(n x n x n, one rank, one thread) / (p x {} "
             "thread{}) / T(best member at p, n); n searched from 16 up to {}\n",
             h.target, model::to_string(h.model), h.threads, h.threads == 1 ? "" : "s", h.n_max);
  fmt::print("  {:<20} {:>7} {:>10} {:>10} {:>11} {:>10}  {}\n", "algorithm", "p", "n_E", "efficiency", "t_pred[s]",
             "mem/rank", "best member at (p, n_E)");
}

void print_isoefficiency_point(const ranking::IsoPoint& pt, const IsoHeader& h) {
  const std::string name(pt.algo ? pt.algo->name() : "?");
  if (pt.reached) {
    fmt::print("  {:<20} {:>7} {:>10} {:>10.3f} {:>11.4g} {:>10}  {}\n", name, pt.p, pt.n, pt.efficiency,
               pt.best.time(h.model), format_bytes(pt.best.memory.bytes()), pt.best.label());
  } else {
    fmt::print("  {:<20} {:>7} {:>10}  {}\n", name, pt.p, "-", pt.why_not);
  }
  std::fflush(stdout);
}

void print_isoefficiency_summary(const std::vector<ranking::IsoPoint>& points) {
  std::vector<int> ps;
  for (const ranking::IsoPoint& pt : points)
    if (std::find(ps.begin(), ps.end(), pt.p) == ps.end()) ps.push_back(pt.p);
  fmt::print("smallest n_E at each p (the algorithm that keeps the efficiency with the least growth of n):\n");
  for (int p : ps) {
    const ranking::IsoPoint* best = nullptr;
    for (const ranking::IsoPoint& pt : points)
      if (pt.p == p && pt.reached && (!best || pt.n < best->n)) best = &pt;
    if (best)
      fmt::print("  p = {:<7} {} (n = {}, {})\n", p, best->algo->name(), best->n, best->best.label());
    else
      fmt::print("  p = {:<7} none reaches it\n", p);
  }
}

std::map<std::string, std::string> isoefficiency_row(const ranking::IsoPoint& pt, const IsoHeader& h) {
  std::map<std::string, std::string> r = {
      {"isoefficiency", fmt::format("{}", h.target)},
      {"model", model::to_string(h.model)},
      {"threads", std::to_string(h.threads)},
      {"p", std::to_string(pt.p)},
      {"algo", pt.algo ? std::string(pt.algo->name()) : ""},
      {"reached", pt.reached ? "yes" : "no"},
      {"n_max", std::to_string(h.n_max)},
      {"note", pt.why_not},
  };
  if (pt.reached) r["n_iso"] = std::to_string(pt.n);
  if (pt.n > 0) {
    r["n"] = std::to_string(pt.n);
    r["efficiency"] = fmt::format("{:.4f}", pt.efficiency);
  }
  if (pt.best.algo) {
    const double t = pt.best.time(h.model);
    r["t_pred"] = fmt::format("{:.6g}", t);
    r["mflops_per_proc"] = fmt::format("{:.1f}", mflops_per_proc(algos::Problem{pt.n, pt.n, pt.n}, t, pt.p, h.threads));
    r["mem_pred_mb"] = fmt::format("{:.1f}", pt.best.memory.bytes() / (1 << 20));
    r["best_member"] = pt.best.label();
  }
  return r;
}

nlohmann::json isoefficiency_json(const std::vector<ranking::IsoPoint>& points, const IsoHeader& h,
                                  const std::string& machine) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ranking::IsoPoint& pt : points) {
    nlohmann::json r = {{"algo", pt.algo ? std::string(pt.algo->name()) : ""},
                        {"p", pt.p},
                        {"reached", pt.reached},
                        {"n", pt.n},
                        {"efficiency", pt.efficiency},
                        {"note", pt.why_not}};
    if (pt.best.algo) {
      r["best_member"] = pt.best.label();
      r["t_pred"] = pt.best.time(h.model);
      r["memory"] = memory_json(pt.best.memory);
    }
    rows.push_back(std::move(r));
  }
  return {{"schema", "mmbench-isoefficiency/1"},
          {"machine", machine},
          {"isoefficiency", h.target},
          {"model", model::to_string(h.model)},
          {"threads", h.threads},
          {"n_max", h.n_max},
          {"points", std::move(rows)}};
}

}  // namespace mmbench::cli
