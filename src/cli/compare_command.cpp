#include "cli/compare_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "results/comparison.hpp"
#include "results/result_file.hpp"
#include "core/usage_error.hpp"
#include "core/csv_file.hpp"
#include "core/stats/mann_whitney.hpp"

namespace mmbench::cli {

using results::compare_results;
using results::ComparedLine;
using results::CompareSettings;
using results::Comparison;
using results::Measurement;
using results::Method;
using results::read_result_file;
using results::ResultFile;

CLI::App* add_compare_command(CLI::App& app, CompareArgs& a) {
  CLI::App* c = app.add_subcommand(
      "compare", "Compare two results files (run CSV or --json export) configuration by configuration: B/A of "
                 "the times, its interval, significance, and flags beyond --threshold");
  c->add_option("A", a.a, "The reference results file (CSV of mmbench run, or its --json export)")->required();
  c->add_option("B", a.b, "The results file compared with it")->required();
  c->add_option("--threshold", a.threshold,
                "Flag a configuration when its time changed significantly by more than this (0.05 = 5 %)")
      ->capture_default_str();
  c->add_option("--alpha", a.alpha, "Significance level of the tests")->capture_default_str();
  c->add_flag("--fail-on-regression", a.fail_on_regression,
              "Exit 1 when a configuration is significantly slower in B beyond the threshold, or failed in B");
  c->add_option("--csv", a.csv, "Also write the compared lines to this CSV file");
  return c;
}

namespace {

const std::vector<std::string>& compare_columns() {
  static const std::vector<std::string> cols = {
      "configuration", "t_a", "t_b", "gflops_a", "gflops_b", "ratio", "ratio_lo", "ratio_hi", "coverage",
      "p_value", "method", "significant", "too_few_rounds", "flag"};
  return cols;
}

std::string flag_text(const ComparedLine& l) {
  using F = ComparedLine::Flag;
  switch (l.flag) {
    case F::none: return l.too_few_rounds && !l.significant ? "too few rounds to tell" : "";
    case F::slower: return fmt::format("SLOWER {:+.1f} %", 100 * (l.ratio - 1));
    case F::faster: return fmt::format("faster {:+.1f} %", 100 * (l.ratio - 1));
    case F::failed_in_b: return "FAILED in B: " + l.b->reason;
    case F::unmeasured: {
      auto side = [](const char* name, const Measurement& m) {
        return m.ok() ? std::string() : fmt::format("{} {}{} ", name, m.status, m.reason.empty() ? "" : " (" + m.reason + ")");
      };
      std::string s = "not measured: " + side("A", *l.a) + side("B", *l.b);
      return s.substr(0, s.size() - 1);
    }
    case F::only_a: return "only in A";
    case F::only_b: return "only in B";
  }
  return "";
}

std::string time_text(const std::optional<Measurement>& m) {
  return m && m->ok() ? fmt::format("{:.4g}", m->t_median) : "";
}
std::string rate_text(const std::optional<Measurement>& m) {
  return m && m->ok() && m->gflops ? fmt::format("{:.2f}", *m->gflops) : "";
}

void validate(const CompareArgs& a) {
  if (!(a.threshold >= 0 && a.threshold < 100))
    throw UsageError(fmt::format("--threshold: {} is out of range (0 <= threshold < 100; 0.05 = 5 %)", a.threshold));
  if (!(a.alpha > 0 && a.alpha < 0.5))
    throw UsageError(fmt::format("--alpha: {} is out of range (0 < alpha < 0.5)", a.alpha));
}

// compare's own output: replaced, not appended to; checked before anything
// is printed. Null without --csv.
std::unique_ptr<CsvFile> open_compare_csv(const CompareArgs& a) {
  if (a.csv.empty()) return nullptr;
  std::remove(a.csv.c_str());
  try {
    return std::make_unique<CsvFile>(a.csv, compare_columns());
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("--csv: ") + e.what());
  }
}

void print_compare_header(const CompareArgs& a, const ResultFile& fa, const ResultFile& fb) {
  fmt::print("A: {} ({}, {} rows)\nB: {} ({}, {} rows)\n", fa.path, fa.format, fa.rows.size(), fb.path, fb.format,
             fb.rows.size());
  fmt::print("B/A: B's time over A's (> 1: B slower). Flagged: significant at level {0:g} and beyond {1:g} %.\n"
             "Methods (docs/compare.md): paired = sign test on the per-round ratios (p < {0:g}), their median's "
             "interval at {2:g} %;\n"
             "  mann-whitney = U test (p < {0:g}), Hodges-Lehmann interval at {2:g} %; medians = the two median "
             "intervals\n  disjoint where that has probability <= {0:g} with no change (p: that probability).\n"
             "  'too few rounds to tell': no outcome of the method could reach {0:g}.\n\n",
             a.alpha, 100 * a.threshold, 100 * (1 - a.alpha));
}

// One compared configuration as a row of --csv.
std::map<std::string, std::string> compare_csv_row(const ComparedLine& l) {
  const bool timed = l.method != Method::none;
  return {{"configuration", l.label},
          {"t_a", time_text(l.a)},
          {"t_b", time_text(l.b)},
          {"gflops_a", rate_text(l.a)},
          {"gflops_b", rate_text(l.b)},
          {"ratio", timed ? fmt::format("{:.6g}", l.ratio) : ""},
          {"ratio_lo", timed ? fmt::format("{:.6g}", l.lo) : ""},
          {"ratio_hi", timed ? fmt::format("{:.6g}", l.hi) : ""},
          {"coverage", timed && l.coverage > 0 ? fmt::format("{:.3f}", l.coverage) : ""},
          {"p_value", l.p_value ? fmt::format("{:.6g}", *l.p_value) : ""},
          {"method", timed ? to_string(l.method) : ""},
          {"significant", timed ? (l.significant ? "yes" : "no") : ""},
          {"too_few_rounds", timed ? (l.too_few_rounds ? "yes" : "no") : ""},
          {"flag", flag_text(l)}};
}

// The counts of the summary lines.
struct CompareTally {
  int both = 0, slower = 0, faster = 0, failed = 0, unmeasured = 0, only_a = 0, only_b = 0, weak_tests = 0;
  std::map<Method, int> methods;

  void add(const ComparedLine& l) {
    using F = ComparedLine::Flag;
    const bool timed = l.method != Method::none;
    both += l.flag != F::only_a && l.flag != F::only_b;
    slower += l.flag == F::slower;
    faster += l.flag == F::faster;
    failed += l.flag == F::failed_in_b;
    unmeasured += l.flag == F::unmeasured;
    only_a += l.flag == F::only_a;
    only_b += l.flag == F::only_b;
    if (timed) ++methods[l.method];
    if (timed && l.too_few_rounds) ++weak_tests;
  }

  void print(const CompareArgs& a, const Comparison& cmp) const {
    const int same = both - slower - faster - failed - unmeasured;
    fmt::print(
        "\n{} configurations in both: {} slower, {} faster, {} unchanged (not significant or within {:g} %), "
        "{} failed in B, {} not measured; {} only in A, {} only in B\n",
        both, slower, faster, same, 100 * a.threshold, failed, unmeasured, only_a, only_b);
    std::string used;
    for (const auto& [m, count] : methods)
      used += fmt::format("{}{} {}", used.empty() ? "" : ", ", to_string(m), count);
    if (!used.empty()) fmt::print("methods: {}\n", used);
    if (weak_tests)
      fmt::print(
          "note: {} configuration{} had too few rounds for their method ever to reach {:g} (sign test: 5 pairs "
          "or fewer; U test: 3 against 3; disjoint 3-round intervals: 0.10); run with --reps 6 or more\n",
          weak_tests, weak_tests > 1 ? "s" : "", a.alpha);
    if (cmp.repeated_a || cmp.repeated_b)
      fmt::print("note: rows repeated for one configuration (A {}, B {}): the last row of each was compared\n",
                 cmp.repeated_a, cmp.repeated_b);
  }
};

int compare_on_root(const CompareArgs& a) {
  validate(a);
  const ResultFile fa = read_result_file(a.a), fb = read_result_file(a.b);
  CompareSettings s;
  s.threshold = a.threshold;
  s.alpha = a.alpha;
  const Comparison cmp = compare_results(fa, fb, s);
  const std::unique_ptr<CsvFile> out = open_compare_csv(a);

  print_compare_header(a, fa, fb);
  std::size_t width = std::string("configuration").size();
  for (const ComparedLine& l : cmp.lines) width = std::max(width, l.label.size());
  const std::string line_fmt =
      "{:<" + std::to_string(width) + "}  {:>10} {:>10} {:>8} {:>8} {:>7} {:>17} {:>8}  {:<12}  {}\n";
  fmt::print(fmt::runtime(line_fmt), "configuration", "t_A[s]", "t_B[s]", "GF/s A", "GF/s B", "B/A", "interval", "p",
             "method", "flag");
  CompareTally tally;
  for (const ComparedLine& l : cmp.lines) {
    const bool timed = l.method != Method::none;
    const std::string ratio = timed ? fmt::format("{:.3f}", l.ratio) : "";
    const std::string interval = timed ? fmt::format("[{:.3f}, {:.3f}]", l.lo, l.hi) : "";
    const std::string p = l.p_value ? fmt::format("{:.3g}", *l.p_value) : "";
    fmt::print(fmt::runtime(line_fmt), l.label, time_text(l.a), time_text(l.b), rate_text(l.a), rate_text(l.b), ratio,
               interval, p, timed ? to_string(l.method) : "", flag_text(l));
    tally.add(l);
    if (out) out->append(compare_csv_row(l));
  }
  tally.print(a, cmp);
  return a.fail_on_regression && (tally.slower + tally.failed) > 0 ? 1 : 0;
}

}  // namespace

int compare_command(const CompareArgs& a, const Comm& world) {
  int code = 0;
  if (world.rank() == 0) {
    try {
      code = compare_on_root(a);
    } catch (const UsageError& e) {
      fmt::print(stderr, "mmbench: {}\n", e.what());
      code = kExitUsage;
    }
    std::fflush(stdout);
  }
  // The others learn rank 0's code (they hold 0, codes are >= 0).
  return static_cast<int>(world.max(static_cast<double>(code)));
}

}  // namespace mmbench::cli
