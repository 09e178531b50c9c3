// `mmbench predict --isoefficiency E`: the isoefficiency curves of every
// algorithm (ranking/isoefficiency.hpp) over the --p values, as a table on
// stdout, rows of a CSV (--csv, docs/csv-columns.md) and a JSON document
// (--json, schema mmbench-isoefficiency/1). plots/mmbench_plot.py draws the
// CSV (log p against n).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ranking/isoefficiency.hpp"

namespace mmbench::cli {

// The columns of the isoefficiency CSV, in order.
const std::vector<std::string>& isoefficiency_columns();

struct IsoHeader {
  double target = 0;
  ranking::ModelKind model = ranking::ModelKind::refined;
  std::int64_t n_max = 0;
  int threads = 1;
};

// The title lines of the table.
void print_isoefficiency_header(const IsoHeader& h);
// One table line per point (the points of one algorithm in p order).
void print_isoefficiency_point(const ranking::IsoPoint& pt, const IsoHeader& h);
// After all points: the algorithm reaching E at the smallest n at each p.
void print_isoefficiency_summary(const std::vector<ranking::IsoPoint>& points);

std::map<std::string, std::string> isoefficiency_row(const ranking::IsoPoint& pt, const IsoHeader& h);
nlohmann::json isoefficiency_json(const std::vector<ranking::IsoPoint>& points, const IsoHeader& h,
                                  const std::string& machine);

}  // namespace mmbench::cli
