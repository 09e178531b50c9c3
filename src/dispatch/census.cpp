#include "dispatch/census.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

#include "core/csv_file.hpp"

namespace mmbench::dispatch {

namespace {

std::string num(double v) { return fmt::format("{:.6g}", v); }

double to_double(const std::string& s, const std::string& where) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    return v;
  } catch (const std::exception&) {
    throw std::runtime_error(where + ": '" + s + "' is not a number");
  }
}

}  // namespace

const std::vector<std::string>& census_columns() {
  static const std::vector<std::string> cols = {
      "call",       "transa", "transb",     "m",          "n",          "k",      "alpha",  "beta",
      "ia",         "ja",     "ib",         "jb",         "ic",         "jc",     "grid",   "blocking_a",
      "blocking_b", "blocking_c", "choice", "reason", "cached", "t_pred", "t_pred_scalapack", "t_measured",
      "t_prepare",  "t_convert", "t_decide", "t_plan", "t_matrices", "pooled_mib", "t_pred_prepare"};
  return cols;
}

std::map<std::string, std::string> census_cells(const CensusRecord& r) {
  return {{"call", std::to_string(r.call)},
          {"transa", std::string(1, r.transa)},
          {"transb", std::string(1, r.transb)},
          {"m", std::to_string(r.m)},
          {"n", std::to_string(r.n)},
          {"k", std::to_string(r.k)},
          {"alpha", num(r.alpha)},
          {"beta", num(r.beta)},
          {"ia", std::to_string(r.ia)},
          {"ja", std::to_string(r.ja)},
          {"ib", std::to_string(r.ib)},
          {"jb", std::to_string(r.jb)},
          {"ic", std::to_string(r.ic)},
          {"jc", std::to_string(r.jc)},
          {"grid", std::to_string(r.pr) + "x" + std::to_string(r.pc)},
          {"blocking_a", r.blocking_a},
          {"blocking_b", r.blocking_b},
          {"blocking_c", r.blocking_c},
          {"choice", r.choice},
          {"reason", r.reason},
          {"cached", r.cached ? "yes" : "no"},
          {"t_pred", r.t_pred > 0 ? num(r.t_pred) : ""},
          {"t_pred_scalapack", r.t_pred_scalapack > 0 ? num(r.t_pred_scalapack) : ""},
          {"t_measured", num(r.t_measured)},
          {"t_prepare", num(r.t_prepare)},
          {"t_convert", num(r.t_convert)},
          {"t_decide", num(r.t_decide)},
          {"t_plan", num(r.t_plan)},
          {"t_matrices", num(r.t_matrices)},
          {"pooled_mib", num(r.pooled_mib)},
          {"t_pred_prepare", r.t_pred_prepare > 0 ? num(r.t_pred_prepare) : ""}};
}

std::vector<CensusRecord> read_census(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open census " + path);
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty, not a census");
  const std::vector<std::string> header = CsvFile::split(line);
  // Columns are only ever added at the end: every header written so far is
  // a prefix of today's, from the first census's (through t_measured) on;
  // the columns an older file lacks read as empty.
  const std::vector<std::string>& now = census_columns();
  const auto first = std::find(now.begin(), now.end(), "t_measured") + 1;
  if (header.size() < static_cast<std::size_t>(first - now.begin()) || header.size() > now.size() ||
      !std::equal(header.begin(), header.end(), now.begin()))
    throw std::runtime_error(path + ": not an mmbench census (its header differs; MMBENCH_DISPATCH_LOG writes one)");
  std::vector<CensusRecord> out;
  for (int no = 2; std::getline(in, line); ++no) {
    if (line.empty()) continue;
    const std::vector<std::string> v = CsvFile::split(line);
    const std::string where = path + " line " + std::to_string(no);
    if (v.size() != header.size())
      throw std::runtime_error(where + ": " + std::to_string(v.size()) + " fields, expected " +
                               std::to_string(header.size()));
    std::map<std::string, std::string> f;
    for (std::size_t i = 0; i < v.size(); ++i) f[header[i]] = v[i];
    auto d = [&](const char* c) { return f[c].empty() ? 0.0 : to_double(f[c], where + " " + c); };
    auto i64 = [&](const char* c) { return static_cast<std::int64_t>(to_double(f[c], where + " " + c)); };
    CensusRecord r;
    r.call = static_cast<long>(i64("call"));
    r.transa = f["transa"].empty() ? 'N' : f["transa"][0];
    r.transb = f["transb"].empty() ? 'N' : f["transb"][0];
    r.m = i64("m");
    r.n = i64("n");
    r.k = i64("k");
    r.alpha = d("alpha");
    r.beta = d("beta");
    r.ia = i64("ia"), r.ja = i64("ja"), r.ib = i64("ib"), r.jb = i64("jb"), r.ic = i64("ic"), r.jc = i64("jc");
    const std::string grid = f["grid"];
    const std::size_t x = grid.find('x');
    if (x == std::string::npos) throw std::runtime_error(where + ": grid '" + grid + "' is not PRxPC");
    r.pr = static_cast<int>(to_double(grid.substr(0, x), where + " grid"));
    r.pc = static_cast<int>(to_double(grid.substr(x + 1), where + " grid"));
    r.blocking_a = f["blocking_a"], r.blocking_b = f["blocking_b"], r.blocking_c = f["blocking_c"];
    r.choice = f["choice"];
    r.reason = f["reason"];
    r.cached = f["cached"] == "yes";
    r.t_pred = d("t_pred");
    r.t_pred_scalapack = d("t_pred_scalapack");
    r.t_measured = d("t_measured");
    r.t_prepare = d("t_prepare");
    r.t_convert = d("t_convert");
    r.t_decide = d("t_decide");
    r.t_plan = d("t_plan");
    r.t_matrices = d("t_matrices");
    r.pooled_mib = d("pooled_mib");
    r.t_pred_prepare = d("t_pred_prepare");
    out.push_back(std::move(r));
  }
  return out;
}

std::string census_summary(const std::vector<CensusRecord>& records, int top) {
  double total = 0, dispatched = 0, dispatched_scalapack_pred = 0, prepare = 0, convert = 0;
  long n_dispatched = 0;
  struct Shape {
    long calls = 0;
    double t = 0, t_pred = 0;
    long predicted = 0;
    std::map<std::string, long> choices;
    std::map<std::string, long> reasons;
  };
  using Key = std::tuple<char, char, std::int64_t, std::int64_t, std::int64_t, int, int>;
  std::map<Key, Shape> shapes;
  for (const CensusRecord& r : records) {
    total += r.t_measured;
    const bool to_scalapack = r.choice.rfind("scalapack", 0) == 0;
    if (!to_scalapack) {
      dispatched += r.t_measured;
      dispatched_scalapack_pred += r.t_pred_scalapack;
      prepare += r.t_prepare;
      convert += r.t_convert;
      ++n_dispatched;
    }
    Shape& s = shapes[Key{r.transa, r.transb, r.m, r.n, r.k, r.pr, r.pc}];
    ++s.calls;
    s.t += r.t_measured;
    if (r.t_pred > 0) s.t_pred += r.t_pred, ++s.predicted;
    ++s.choices[r.choice];
    ++s.reasons[r.reason];
  }
  std::string out = fmt::format("{} PDGEMM calls, {:.4g} s in all; {} dispatched to mmbench members ({:.4g} s",
                                records.size(), total, n_dispatched, dispatched);
  if (n_dispatched > 0)
    out += fmt::format(", of which {:.4g} s preparing members and {:.4g} s converting operands", prepare, convert);
  if (dispatched_scalapack_pred > 0)
    out += fmt::format("; ScaLAPACK was predicted {:.4g} s for them", dispatched_scalapack_pred);
  out += ")\n";
  std::vector<std::pair<Key, Shape>> sorted(shapes.begin(), shapes.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.t > b.second.t; });
  out += fmt::format("  {:>2} {:>21} {:>6} {:>7} {:>10} {:>6} {:>11} {:>11}  {}\n", "op", "M x N x K", "grid",
                     "calls", "time[s]", "share", "pred/call", "meas/call", "choice");
  for (std::size_t i = 0; i < sorted.size() && static_cast<int>(i) < top; ++i) {
    const auto& [key, s] = sorted[i];
    const auto& [ta, tb, m, n, k, pr, pc] = key;
    std::string choice;
    for (const auto& [c, cnt] : s.choices)
      choice += (choice.empty() ? "" : "; ") + c + (s.choices.size() > 1 ? " (" + std::to_string(cnt) + ")" : "");
    // One reason for every call of the shape: say it (the census has each call's).
    if (s.reasons.size() == 1 && !s.reasons.begin()->first.empty()) choice += ": " + s.reasons.begin()->first;
    out += fmt::format("  {}{} {:>21} {:>6} {:>7} {:>10.4g} {:>5.1f}% {:>11} {:>11.4g}  {}\n", ta, tb,
                       fmt::format("{}x{}x{}", m, n, k), fmt::format("{}x{}", pr, pc), s.calls, s.t,
                       total > 0 ? 100 * s.t / total : 0.0,
                       s.predicted > 0 ? fmt::format("{:.4g}", s.t_pred / s.predicted) : std::string("-"),
                       s.t / s.calls, choice);
  }
  if (static_cast<int>(sorted.size()) > top)
    out += fmt::format("  ... {} more shapes\n", sorted.size() - static_cast<std::size_t>(top));
  return out;
}

}  // namespace mmbench::dispatch
