#include "results/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "core/stats/mann_whitney.hpp"
#include "core/stats/paired_stats.hpp"

namespace mmbench::results {

const std::vector<std::string>& comparison_key_columns() {
  static const std::vector<std::string> cols = {"algo",       "p",
                                                "threads",    "m",
                                                "n",          "k",
                                                "schema",     "recursions",
                                                "grid",       "nb",
                                                "lb",         "local_levels",
                                                "local_gemm", "local_variant",
                                                "q7_split",   "replicas"};
  return cols;
}

std::string to_string(Method m) {
  switch (m) {
    case Method::none:
      return "-";
    case Method::paired:
      return "paired";
    case Method::mann_whitney:
      return "mann-whitney";
    case Method::medians:
      return "medians";
  }
  return "";
}

namespace {

using Row = std::map<std::string, std::string>;

std::string cell(const Row& r, const std::string& c) {
  auto it = r.find(c);
  return it == r.end() ? std::string() : it->second;
}

// The key's value of a column. local_gemm: files from before the packed
// GEMM have no such column, and every local multiply then was BLAS's, so
// empty and "blas" are the same configuration.
std::string key_value(const Row& r, const std::string& c) {
  std::string v = cell(r, c);
  if (c == "local_gemm" && v.empty()) v = "blas";
  return v;
}

std::string key_of(const Row& r) {
  std::string k;
  for (const std::string& c : comparison_key_columns()) k += key_value(r, c) + '\x1f';
  return k;
}

// "pdgemm p=4 thr=1 n=1024 grid=2x2 nb=64 lb=32": the key, leaving out
// what is empty or the default (m and k equal to n, r = 0, L = 0, blas).
std::string label_of(const Row& r) {
  std::string s = cell(r, "algo") + " p=" + cell(r, "p") + " thr=" + cell(r, "threads");
  const std::string n = cell(r, "n");
  if (cell(r, "m") != n) s += " m=" + cell(r, "m");
  s += " n=" + n;
  if (cell(r, "k") != n) s += " k=" + cell(r, "k");
  auto add = [&](const char* col, const char* name, const char* skip = "") {
    const std::string v = cell(r, col);
    if (!v.empty() && v != skip) s += fmt::format(" {}={}", name, v);
  };
  add("schema", "schema");
  add("recursions", "r", "0");
  add("grid", "grid");
  add("nb", "nb");
  add("lb", "lb");
  add("local_levels", "L", "0");
  add("local_gemm", "gemm", "blas");
  add("local_variant", "variant");
  add("q7_split", "q7");
  add("replicas", "c");
  return s;
}

std::optional<double> number(const Row& r, const std::string& c) {
  const std::string v = cell(r, c);
  if (v.empty()) return std::nullopt;
  return std::strtod(v.c_str(), nullptr);  // read_result_file checked it
}

Measurement measurement(const Row& r, const ResultFile& f) {
  Measurement m;
  m.status = cell(r, "status");
  m.reason = cell(r, "reason");
  if (!m.ok()) return m;
  m.t_median = *number(r, "t_median");
  m.lo = number(r, "t_median_lo");
  m.hi = number(r, "t_median_hi");
  if (const auto reps = number(r, "reps"); reps && *reps >= 1) m.reps = static_cast<int>(*reps);
  if (m.lo && m.hi && m.reps > 0) m.interval_rank = interval_rank(m.reps);  // the 95 % interval run writes
  if (!m.lo || !m.hi) {
    m.lo = number(r, "t_min");
    m.hi = number(r, "t_max");
    m.interval_rank = 1;
  }
  if (!m.lo || !m.hi) m.lo = m.hi = std::nullopt;
  m.gflops = number(r, "gflops_total");
  std::stringstream ss(cell(r, "t_rounds"));
  std::string item;
  while (std::getline(ss, item, ';')) m.rounds.push_back(std::strtod(item.c_str(), nullptr));
  auto it = f.run_of_seed.find(cell(r, "order_seed"));
  if (it != f.run_of_seed.end()) m.run = it->second;
  return m;
}

void compare_times(ComparedLine& l, const CompareSettings& s) {
  const Measurement &a = *l.a, &b = *l.b;
  if (!a.rounds.empty() && !b.rounds.empty() && !a.run.empty() && a.run == b.run &&
      a.rounds.size() == b.rounds.size()) {
    // Round r of both ran in the same minute: one ratio per round.
    std::vector<double> ratios;
    int up = 0, down = 0;
    for (std::size_t r = 0; r < a.rounds.size(); ++r) {
      ratios.push_back(b.rounds[r] / a.rounds[r]);
      up += ratios.back() > 1;
      down += ratios.back() < 1;
    }
    const MedianInterval m = median_interval(ratios, 1 - s.alpha);
    l.method = Method::paired;
    l.ratio = m.median;
    l.lo = m.lo;
    l.hi = m.hi;
    l.coverage = m.coverage;
    // Sign test: under no change a round is as likely slower as faster
    // (rounds with equal times say nothing and are left out).
    l.p_value = up + down == 0 ? 1.0 : std::min(1.0, 2 * binomial_half_cdf(up + down, std::min(up, down)));
    l.significant = *l.p_value < s.alpha;
    // The smallest p the sign test can give: every round one way.
    const int pairs = static_cast<int>(ratios.size());
    l.too_few_rounds = 2 * binomial_half_cdf(pairs, 0) >= s.alpha;
  } else if (!a.rounds.empty() && !b.rounds.empty()) {
    const RankSumTest t = mann_whitney(a.rounds, b.rounds);
    const RatioInterval r = ratio_interval(a.rounds, b.rounds, 1 - s.alpha);
    l.method = Method::mann_whitney;
    l.ratio = r.ratio;
    l.lo = r.lo;
    l.hi = r.hi;
    l.coverage = r.coverage;
    l.p_value = t.p_value;
    l.significant = t.p_value < s.alpha;
    const int na = static_cast<int>(a.rounds.size()), nb = static_cast<int>(b.rounds.size());
    l.too_few_rounds = 2 * mann_whitney_cdf(na, nb, 0) >= s.alpha;
  } else {
    l.method = Method::medians;
    l.ratio = b.t_median / a.t_median;
    if (a.lo && a.hi && b.lo && b.hi) {
      l.lo = *b.lo / *a.hi;
      l.hi = *b.hi / *a.lo;
      const bool disjoint = *a.hi < *b.lo || *b.hi < *a.lo;
      if (a.reps > 0 && b.reps > 0 && a.interval_rank > 0 && b.interval_rank > 0) {
        // How often two such intervals are disjoint with no change at all.
        const double level = disjoint_probability(a.reps, a.interval_rank, b.reps, b.interval_rank);
        l.too_few_rounds = level > s.alpha;
        if (disjoint) l.p_value = level;
        l.significant = disjoint && level <= s.alpha;
      } else {
        l.too_few_rounds = true;  // rounds unknown: the level of disjointness is unknown
      }
    } else {
      l.lo = l.hi = l.ratio;  // nothing to judge the spread by: never significant
    }
  }
  if (l.significant && l.ratio > 1 + s.threshold)
    l.flag = ComparedLine::Flag::slower;
  else if (l.significant && l.ratio < 1 - s.threshold)
    l.flag = ComparedLine::Flag::faster;
}

// The last row of each configuration, in the order configurations first appear.
struct Latest {
  std::vector<std::string> order;
  std::map<std::string, const Row*> row;
  int repeated = 0;
};
Latest latest_rows(const ResultFile& f) {
  Latest l;
  for (const Row& r : f.rows) {
    const std::string k = key_of(r);
    auto [it, fresh] = l.row.emplace(k, &r);
    if (fresh)
      l.order.push_back(k);
    else {
      it->second = &r;
      ++l.repeated;
    }
  }
  return l;
}

}  // namespace

Comparison compare_results(const ResultFile& fa, const ResultFile& fb, const CompareSettings& s) {
  const Latest la = latest_rows(fa), lb = latest_rows(fb);
  Comparison out;
  out.repeated_a = la.repeated;
  out.repeated_b = lb.repeated;
  for (const std::string& k : la.order) {
    const Row& ra = *la.row.at(k);
    ComparedLine l;
    l.label = label_of(ra);
    l.a = measurement(ra, fa);
    auto it = lb.row.find(k);
    if (it == lb.row.end()) {
      l.flag = ComparedLine::Flag::only_a;
    } else {
      l.b = measurement(*it->second, fb);
      if (l.a->ok() && l.b->ok())
        compare_times(l, s);
      else if (l.a->ok() && l.b->status == "failed")
        l.flag = ComparedLine::Flag::failed_in_b;
      else
        l.flag = ComparedLine::Flag::unmeasured;
    }
    out.lines.push_back(std::move(l));
  }
  for (const std::string& k : lb.order) {
    if (la.row.count(k)) continue;
    ComparedLine l;
    l.label = label_of(*lb.row.at(k));
    l.b = measurement(*lb.row.at(k), fb);
    l.flag = ComparedLine::Flag::only_b;
    out.lines.push_back(std::move(l));
  }
  return out;
}

}  // namespace mmbench::results
