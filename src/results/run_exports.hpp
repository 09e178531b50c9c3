// The exports of `mmbench run` beside its CSV: --json FILE (the rows typed,
// with a metadata block; schema mmbench-results/2, docs/json-schema.md) and
// --markdown FILE (the table run prints, as a Markdown table).
//
// Rows are never lost: both files are written when the exports are opened
// (so an unwritable path fails before anything is measured), then
// rewritten atomically (core/csv_file.hpp write_file_atomically) after each
// problem size with every row so far, and a last time when the run ends or
// is interrupted. A reader sees either the previous whole file or the new
// one; after a crash the files hold what the CSV holds.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "results/result_row.hpp"

namespace mmbench::results {

// The table as Markdown: `heading` (one line: the command and the
// machine), a blank line, then the header row, the separator and one line
// per row ('|' in a cell escaped).
std::string markdown_table(const std::vector<ResultRow>& rows, const std::string& heading);

class RunExports {
 public:
  // Empty paths: that export is not written. `metadata`: the JSON's block
  // (its "finished", "complete" and "interrupted_by" are set by finish());
  // `markdown_heading`: the Markdown's first line. Throws
  // std::runtime_error naming the path when a file cannot be written.
  RunExports(std::string json_path, std::string markdown_path, nlohmann::ordered_json metadata,
             std::string markdown_heading);
  bool any() const { return !json_path_.empty() || !markdown_path_.empty(); }
  void add(const ResultRow& row) { rows_.push_back(row); }
  // Rewrites both files with the rows so far.
  void write();
  // The last write: finished time, and complete or the signal that stopped the run.
  void finish(int signal);

 private:
  std::string json_path_, markdown_path_;
  nlohmann::ordered_json metadata_;
  std::string markdown_heading_;
  std::vector<ResultRow> rows_;
};

}  // namespace mmbench::results
