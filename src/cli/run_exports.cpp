#include "cli/run_exports.hpp"

#include <fmt/format.h>

#include <csignal>
#include <stdexcept>

#include "results/results_json.hpp"
#include "core/csv_file.hpp"
#include "core/simulation.hpp"
#include "core/machine/sysinfo.hpp"

namespace mmbench::cli {

using results::kResultsJsonSchema;
using results::ResultRow;
using results::row_json;
using results::table_cells;
using results::table_titles;

nlohmann::ordered_json run_metadata(const RunArgs& a, const MachineFacts& machine, std::uint64_t order_seed,
                                    const std::string& started) {
  nlohmann::ordered_json m;
  m["command"] = a.command_line;
  // "0.1.0+1a2b3c4" (-dirty when the build had uncommitted changes).
  const std::string v = machine.mmbench;
  const auto plus = v.find('+');
  m["mmbench"] = {{"version", v.substr(0, plus)}, {"commit", plus == std::string::npos ? "" : v.substr(plus + 1)}};
  m["date"] = started.substr(0, 10);
  m["started"] = started;
  m["finished"] = nullptr;
  m["complete"] = false;
  m["interrupted_by"] = nullptr;
  m["machine"] = to_json(machine);
  m["seed"] = a.seed;
  m["order_seed"] = order_seed;
  m["reps"] = a.reps;
  m["warmup"] = a.warmup;
  m["precision"] = a.precision;
  m["budget_s"] = a.budget;
  if (sim::simulated()) {
    m["simulated"] = {{"platform", sim::platform()},
                      {"platform_sha256", sim::platform_sha256()},
                      {"compute", sim::compute_mode()},
                      {"pricing", sim::compute_pricing()}};
    if (sim::compute_pricing() == "fitted+noise") m["simulated"]["noise_seed"] = sim::noise_seed();
  }
  return m;
}

namespace {

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string markdown_line(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& c : cells) line += " " + markdown_cell(c) + " |";
  return line + "\n";
}

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return fmt::format("signal {}", signal);
}

}  // namespace

std::string markdown_table(const std::vector<ResultRow>& rows, const std::string& command_line,
                           const MachineFacts& machine) {
  std::string md = fmt::format("`{}`: {}, {} ({} cores), {} MPI ranks, BLAS {}, mmbench {}\n\n", command_line,
                               machine.host, machine.machine.cpu.model, machine.machine.cpu.cores, machine.ranks,
                               machine.machine.blas_core.empty() ? machine.machine.blas : machine.machine.blas_core,
                               machine.mmbench);
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
                       MachineFacts machine)
    : json_path_(std::move(json_path)),
      markdown_path_(std::move(markdown_path)),
      metadata_(std::move(metadata)),
      machine_(std::move(machine)) {
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
      write_file_atomically(markdown_path_, markdown_table(rows_, metadata_.value("command", ""), machine_));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(std::string("--markdown: ") + e.what());
    }
}

void RunExports::finish(int signal) {
  metadata_["finished"] = utc_timestamp();
  metadata_["complete"] = signal == 0;
  metadata_["interrupted_by"] = signal == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(signal_name(signal));
  write();
}

}  // namespace mmbench::cli
