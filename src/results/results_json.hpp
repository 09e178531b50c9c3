// The rows of a results CSV as typed JSON values: the row objects of the
// `run --json` export (schema mmbench-results/2, docs/json-schema.md and
// docs/results.schema.json) and the way back to the CSV's text, so one
// reader (compare) takes either file.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace mmbench::results {

inline constexpr char kResultsJsonSchema[] = "mmbench-results/2";

// How a column's text is typed in JSON. Every column not named in the
// table (results_json.cpp) is text; an empty cell is null whatever its kind.
enum class ColumnKind {
  text,         // a string ("auto", "2x4", "yes")
  integer,      // a whole number
  number,       // a floating-point number
  number_list,  // ';'-separated numbers -> an array ("0.0161;0.0247" -> [0.0161, 0.0247])
};
ColumnKind column_kind(const std::string& column);

// One row object: every column of results_columns() in order, typed by its kind.
// A cell whose text does not read as its kind (never written by mmbench)
// stays a string rather than losing its content.
nlohmann::ordered_json row_json(const std::map<std::string, std::string>& cells);

// Back to CSV text: null -> "", a number -> its shortest exact text, an
// array -> its items joined by ';'. Unknown keys are kept.
std::map<std::string, std::string> row_cells(const nlohmann::json& row);

}  // namespace mmbench::results
