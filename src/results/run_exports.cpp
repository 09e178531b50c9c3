#include "results/run_exports.hpp"

#include <stdexcept>

#include "core/csv_file.hpp"
#include "core/mpi/interrupt.hpp"
#include "core/machine/sysinfo.hpp"
#include "results/results_json.hpp"

namespace mmbench::results {

namespace {

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string markdown_line(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& c : cells) {
    line += ' ';
    line += markdown_cell(c);
    line += " |";
  }
  return line + "\n";
}

}  // namespace

std::string markdown_table(const std::vector<ResultRow>& rows, const std::string& heading) {
  std::string md = heading + "\n\n";
  const std::vector<std::string>& titles = table_titles();
  md += markdown_line(titles);
  // Text columns left-aligned, numbers right-aligned (as on the terminal).
  std::string sep = "|";
  for (std::size_t i = 0; i < titles.size(); ++i) {
    const bool text = titles[i] == "algo" || titles[i] == "grid" || titles[i] == "status" || titles[i] == "L";
    sep += text ? "---|" : "---:|";
  }
  md += sep + "\n";
  for (const ResultRow& r : rows) md += markdown_line(table_cells(r));
  return md;
}

RunExports::RunExports(std::string json_path, std::string markdown_path, nlohmann::ordered_json metadata,
                       std::string markdown_heading)
    : json_path_(std::move(json_path)),
      markdown_path_(std::move(markdown_path)),
      metadata_(std::move(metadata)),
      markdown_heading_(std::move(markdown_heading)) {
  write();
}

void RunExports::write() {
  if (!json_path_.empty()) {
    nlohmann::ordered_json doc;
    doc["schema"] = kResultsJsonSchema;
    doc["metadata"] = metadata_;
    doc["rows"] = nlohmann::ordered_json::array();
    for (const ResultRow& r : rows_) doc["rows"].push_back(row_json(r.cells()));
    try {
      write_file_atomically(json_path_, doc.dump(2) + "\n");
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(std::string("--json: ") + e.what());
    }
  }
  if (!markdown_path_.empty()) try {
      write_file_atomically(markdown_path_, markdown_table(rows_, markdown_heading_));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(std::string("--markdown: ") + e.what());
    }
}

void RunExports::finish(int signal) {
  metadata_["finished"] = utc_timestamp();
  metadata_["complete"] = signal == 0;
  metadata_["interrupted_by"] =
      signal == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(signal_name(signal));
  write();
}

}  // namespace mmbench::results
