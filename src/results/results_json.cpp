#include "results/results_json.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "results/results_schema.hpp"

namespace mmbench::results {

ColumnKind column_kind(const std::string& column) {
  // Declared once: docs/results.schema.json gives each the same type (a
  // unit test holds the two together).
  static const std::map<std::string, ColumnKind> kinds = {
      {"p", ColumnKind::integer},
      {"threads", ColumnKind::integer},
      {"hybrid", ColumnKind::integer},
      {"ring_chunks", ColumnKind::integer},
      {"recursions", ColumnKind::integer},
      {"nb", ColumnKind::integer},
      {"lb", ColumnKind::integer},
      {"local_levels_applied", ColumnKind::integer},
      {"local_cutoff", ColumnKind::integer},
      {"replicas", ColumnKind::integer},
      {"m", ColumnKind::integer},
      {"n", ColumnKind::integer},
      {"k", ColumnKind::integer},
      {"warmup", ColumnKind::integer},
      {"reps", ColumnKind::integer},
      {"order_seed", ColumnKind::integer},
      {"exchanges_total", ColumnKind::integer},
      {"exchanges_node_local", ColumnKind::integer},
      {"local_add_share", ColumnKind::number},
      {"t_min", ColumnKind::number},
      {"t_median", ColumnKind::number},
      {"t_max", ColumnKind::number},
      {"t_median_lo", ColumnKind::number},
      {"t_median_hi", ColumnKind::number},
      {"ci_coverage", ColumnKind::number},
      {"cv", ColumnKind::number},
      {"peer_ratio", ColumnKind::number},
      {"peer_ratio_lo", ColumnKind::number},
      {"peer_ratio_hi", ColumnKind::number},
      {"mflops_per_proc", ColumnKind::number},
      {"gflops_total", ColumnKind::number},
      {"pred_paper", ColumnKind::number},
      {"pred_refined", ColumnKind::number},
      {"err_paper", ColumnKind::number},
      {"err_refined", ColumnKind::number},
      {"residual", ColumnKind::number},
      {"residual_limit", ColumnKind::number},
      {"peak_mem_mb", ColumnKind::number},
      {"local_add_share_by_level", ColumnKind::number_list},
      {"local_passes_by_level", ColumnKind::number_list},
      {"t_rounds", ColumnKind::number_list},
      {"peak_fraction", ColumnKind::number},
      {"runner_up_ratio", ColumnKind::number},
      {"mem_pred_mb", ColumnKind::number},
      {"mem_hwm_mb", ColumnKind::number},
      {"mem_err", ColumnKind::number},
      {"mem_rss_mb", ColumnKind::number},
  };
  auto it = kinds.find(column);
  return it == kinds.end() ? ColumnKind::text : it->second;
}

namespace {

std::optional<std::int64_t> read_integer(const std::string& s) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// strtod, not from_chars: it also reads "nan" and "inf" (the residual of
// a broken run), which then become null in the JSON text.
std::optional<double> read_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

nlohmann::ordered_json typed(const std::string& text, ColumnKind kind) {
  if (text.empty()) return nullptr;
  switch (kind) {
    case ColumnKind::text:
      return text;
    case ColumnKind::integer:
      if (auto v = read_integer(text)) return *v;
      return text;
    case ColumnKind::number:
      if (auto v = read_number(text)) return *v;
      return text;
    case ColumnKind::number_list: {
      nlohmann::ordered_json a = nlohmann::ordered_json::array();
      std::size_t start = 0;
      while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        const auto v = read_number(text.substr(start, end - start));
        if (!v) return text;
        a.push_back(*v);
        start = end + 1;
      }
      return a;
    }
  }
  return text;
}

std::string number_text(const nlohmann::json& v) {
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  return fmt::format("{}", v.get<double>());  // shortest text that reads back exactly
}

}  // namespace

nlohmann::ordered_json row_json(const std::map<std::string, std::string>& cells) {
  nlohmann::ordered_json row = nlohmann::ordered_json::object();
  for (const std::string& col : results_columns()) {
    auto it = cells.find(col);
    row[col] = typed(it == cells.end() ? std::string() : it->second, column_kind(col));
  }
  return row;
}

std::map<std::string, std::string> row_cells(const nlohmann::json& row) {
  std::map<std::string, std::string> cells;
  for (const auto& [key, v] : row.items()) {
    if (v.is_null())
      cells[key] = "";
    else if (v.is_string())
      cells[key] = v.get<std::string>();
    else if (v.is_number())
      cells[key] = number_text(v);
    else if (v.is_boolean())
      cells[key] = v.get<bool>() ? "yes" : "no";
    else if (v.is_array()) {
      std::string s;
      for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ";" : "") + (v[i].is_number() ? number_text(v[i]) : v[i].dump());
      cells[key] = s;
    } else {
      cells[key] = v.dump();
    }
  }
  return cells;
}

}  // namespace mmbench::results
