// A results file read back for `mmbench compare`: the CSV `mmbench run`
// appends to (with its sidecar <csv>.json when there is one), or its
// `--json` export (schema mmbench-results/2). Both become rows of CSV text
// by column name, so everything after reading is one code path; columns
// are looked up by name, so files written before a column existed still
// read (the column is then empty).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mmbench::results {

struct ResultFile {
  std::string path;
  std::string format;  // "csv" or "json"
  std::vector<std::map<std::string, std::string>> rows;
  // The run that wrote the rows of an order_seed, as "host order_seed
  // started", where the file's metadata (the CSV's sidecar, the JSON's
  // metadata block) names exactly one run with that seed. Two rows can
  // be compared round by round only when they share a run.
  std::map<std::string, std::string> run_of_seed;
};

// The columns a file must have: what names a configuration at the least,
// its status and its median time.
const std::vector<std::string>& required_result_columns();

// Reads and checks a file: it must exist, be a results CSV (its header has
// the required columns) or an mmbench-results/2 JSON, every row must have
// as many fields as the header, and the numbers compare reads (p, m, n, k,
// and of an `ok` row t_median > 0 and, where present, t_min, t_max,
// t_median_lo, t_median_hi, gflops_total, t_rounds) must read as numbers.
// Throws UsageError "<path>: <problem>" (with the line or row where one
// is at fault).
ResultFile read_result_file(const std::string& path);

}  // namespace mmbench::results
