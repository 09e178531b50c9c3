#include "results/result_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "results/results_json.hpp"
#include "core/usage_error.hpp"
#include "core/csv_file.hpp"

namespace mmbench::results {

const std::vector<std::string>& required_result_columns() {
  static const std::vector<std::string> cols = {"algo", "p", "m", "n", "k", "status", "t_median"};
  return cols;
}

namespace {

[[noreturn]] void bad(const std::string& path, const std::string& problem) { throw UsageError(path + ": " + problem); }

bool is_integer(const std::string& s) {
  long long v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

bool is_number(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(v);
}

// The numbers compare reads, checked where the row is named (`where`).
void check_row(const std::string& path, const std::string& where, const std::map<std::string, std::string>& r) {
  auto cell = [&](const std::string& c) {
    auto it = r.find(c);
    return it == r.end() ? std::string() : it->second;
  };
  for (const char* c : {"p", "m", "n", "k"})
    if (!is_integer(cell(c))) bad(path, fmt::format("{}: {} '{}' is not a whole number", where, c, cell(c)));
  if (cell("status") != "ok") return;
  const std::string t = cell("t_median");
  if (!is_number(t) || std::strtod(t.c_str(), nullptr) <= 0)
    bad(path, fmt::format("{}: t_median '{}' is not a time > 0", where, t));
  for (const char* c : {"t_min", "t_max", "t_median_lo", "t_median_hi", "gflops_total"})
    if (!cell(c).empty() && !is_number(cell(c)))
      bad(path, fmt::format("{}: {} '{}' is not a number", where, c, cell(c)));
  const std::string rounds = cell("t_rounds");
  if (rounds.empty()) return;
  std::stringstream ss(rounds);
  std::string item;
  while (std::getline(ss, item, ';'))
    if (!is_number(item) || std::strtod(item.c_str(), nullptr) <= 0)
      bad(path, fmt::format("{}: t_rounds '{}' has '{}', not a time > 0", where, rounds, item));
}

void check_columns(const std::string& path, const std::vector<std::string>& have, const std::string& what) {
  std::vector<std::string> missing;
  for (const std::string& c : required_result_columns())
    if (std::find(have.begin(), have.end(), c) == have.end()) missing.push_back(c);
  if (missing.size() == required_result_columns().size())
    bad(path, fmt::format("not a results {} of mmbench run (none of the columns {})", what,
                          fmt::join(required_result_columns(), ", ")));
  if (!missing.empty())
    bad(path, fmt::format("{} lacks the column{} {}", what, missing.size() > 1 ? "s" : "", fmt::join(missing, ", ")));
}

std::string run_name(const nlohmann::json& run) {
  if (!run.is_object() || !run.contains("order_seed") || !run["order_seed"].is_number_integer()) return "";
  const std::string host = run.contains("host") && run["host"].is_string() ? run["host"].get<std::string>() : "";
  const std::string started =
      run.contains("started") && run["started"].is_string() ? run["started"].get<std::string>() : "";
  if (started.empty()) return "";
  return fmt::format("{} {} {}", host, run["order_seed"].get<std::uint64_t>(), started);
}

// order_seed -> run, keeping only seeds that name one run (a replay with
// the same --order-seed is another run that must not be paired).
void add_run(ResultFile& f, std::map<std::string, int>& seen, const nlohmann::json& seed, const std::string& name) {
  if (name.empty() || !seed.is_number_integer()) return;
  const std::string key = std::to_string(seed.get<std::uint64_t>());
  if (++seen[key] == 1)
    f.run_of_seed[key] = name;
  else
    f.run_of_seed.erase(key);
}

void read_sidecar(ResultFile& f) {
  std::ifstream in(f.path + ".json");
  if (!in) return;  // no sidecar: the rows can still be compared, not paired
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("runs") || !doc["runs"].is_array()) return;
  std::map<std::string, int> seen;
  for (const nlohmann::json& run : doc["runs"])
    if (run.is_object() && run.contains("order_seed")) add_run(f, seen, run["order_seed"], run_name(run));
}

ResultFile read_csv(const std::string& path, std::istream& in) {
  ResultFile f;
  f.path = path;
  f.format = "csv";
  std::string line;
  if (!std::getline(in, line) || line.empty()) bad(path, "empty file, not a results CSV");
  const std::vector<std::string> header = CsvFile::split(line);
  check_columns(path, header, "CSV");
  int number = 1;
  while (std::getline(in, line)) {
    ++number;
    const int first = number;
    // A quoted field may hold a newline: join lines until the quotes close.
    while (std::count(line.begin(), line.end(), '"') % 2 == 1) {
      std::string more;
      if (!std::getline(in, more)) bad(path, fmt::format("line {}: a quoted field is not closed", first));
      line += "\n" + more;
      ++number;
    }
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> cells = CsvFile::split(line);
    if (cells.size() != header.size())
      bad(path, fmt::format("line {}: {} fields, the header has {}", first, cells.size(), header.size()));
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = cells[i];
    check_row(path, fmt::format("line {}", first), row);
    f.rows.push_back(std::move(row));
  }
  read_sidecar(f);
  return f;
}

ResultFile read_json(const std::string& path, std::istream& in) {
  ResultFile f;
  f.path = path;
  f.format = "json";
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded()) bad(path, "not valid JSON, not a results CSV or JSON");
  const std::string schema =
      doc.is_object() && doc.contains("schema") && doc["schema"].is_string() ? doc["schema"].get<std::string>() : "";
  if (schema != kResultsJsonSchema)
    bad(path, fmt::format("not a results JSON of mmbench run --json (schema '{}', expected '{}')", schema,
                          kResultsJsonSchema));
  if (!doc.contains("rows") || !doc["rows"].is_array()) bad(path, "has no \"rows\" array");
  std::size_t index = 0;
  for (const nlohmann::json& r : doc["rows"]) {
    const std::string where = fmt::format("row {}", index++);
    if (!r.is_object()) bad(path, where + ": not an object");
    std::map<std::string, std::string> row = row_cells(r);
    std::vector<std::string> have;
    for (const auto& [k, v] : row) have.push_back(k);
    check_columns(path, have, where);
    check_row(path, where, row);
    f.rows.push_back(std::move(row));
  }
  if (doc.contains("metadata") && doc["metadata"].is_object()) {
    const nlohmann::json& m = doc["metadata"];
    nlohmann::json run = {
        {"order_seed", m.value("order_seed", nlohmann::json())},
        {"started", m.value("started", nlohmann::json())},
        {"host", m.contains("machine") && m["machine"].is_object() ? m["machine"].value("host", nlohmann::json())
                                                                   : nlohmann::json()}};
    std::map<std::string, int> seen;
    add_run(f, seen, run["order_seed"], run_name(run));
  }
  return f;
}

}  // namespace

ResultFile read_result_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) bad(path, "is a folder, not a results file");
  std::ifstream in(path, std::ios::binary);
  if (!in) bad(path, fmt::format("cannot open ({})", std::strerror(errno)));
  // A JSON document starts with '{' (after blanks); anything else is read as CSV.
  char c = 0;
  while (in.get(c) && std::isspace(static_cast<unsigned char>(c))) {
  }
  const bool json = in && c == '{';
  in.clear();
  in.seekg(0);
  return json ? read_json(path, in) : read_csv(path, in);
}

}  // namespace mmbench::results
