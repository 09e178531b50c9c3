// The typed rows of `run --json` against the published schema
// (docs/results.schema.json): every results column has a declared type
// there equal to its kind here, and a row goes to JSON and back unchanged.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "results/results_json.hpp"
#include "results/results_schema.hpp"

using namespace mmbench::results;

namespace {
nlohmann::json schema_file() {
  std::ifstream in(std::string(MMBENCH_SOURCE_DIR) + "/docs/results.schema.json");
  EXPECT_TRUE(in) << "docs/results.schema.json missing";
  return nlohmann::json::parse(in);
}

// The JSON types a column may take per the schema ("type" or an "enum" of strings).
std::set<std::string> schema_types(const nlohmann::json& prop) {
  std::set<std::string> t;
  if (prop.contains("enum")) return {"string"};
  if (prop["type"].is_string()) t.insert(prop["type"].get<std::string>());
  else
    for (const auto& x : prop["type"]) t.insert(x.get<std::string>());
  t.erase("null");
  return t;
}
}  // namespace

TEST(ResultsJson, SchemaDeclaresEveryColumnWithItsKind) {
  const nlohmann::json s = schema_file();
  EXPECT_EQ(s["properties"]["schema"]["const"], kResultsJsonSchema);
  const nlohmann::json& items = s["properties"]["rows"]["items"];
  const auto& required = items["required"];
  for (const std::string& c : results_columns()) {
    SCOPED_TRACE(c);
    EXPECT_NE(std::find(required.begin(), required.end(), c), required.end()) << "not required in the schema";
    ASSERT_TRUE(items["properties"].contains(c)) << "column missing from docs/results.schema.json";
    const std::set<std::string> t = schema_types(items["properties"][c]);
    switch (column_kind(c)) {
      case ColumnKind::text: EXPECT_EQ(t, std::set<std::string>{"string"}); break;
      case ColumnKind::integer: EXPECT_EQ(t, std::set<std::string>{"integer"}); break;
      case ColumnKind::number: EXPECT_EQ(t, std::set<std::string>{"number"}); break;
      case ColumnKind::number_list: EXPECT_EQ(t, std::set<std::string>{"array"}); break;
    }
  }
  // And nothing in the schema that the CSV does not have.
  for (const auto& [name, prop] : items["properties"].items())
    EXPECT_NE(std::find(results_columns().begin(), results_columns().end(), name), results_columns().end()) << name;
}

TEST(ResultsJson, TypedRowAndBack) {
  const std::map<std::string, std::string> cells = {
      {"algo", "pdgemm"},       {"p", "4"},          {"grid", "2x2"},        {"nb", "64"},
      {"t_median", "0.0123"},   {"t_rounds", "0.0123;0.0125;0.012"},          {"local_levels", "auto"},
      {"status", "ok"},         {"residual", "nan"}, {"reps_asked", "3"},     {"order_seed", "123456789"}};
  const nlohmann::ordered_json j = row_json(cells);
  EXPECT_EQ(j.size(), results_columns().size());  // every column, null where empty
  EXPECT_EQ(j.begin().key(), results_columns().front());  // in the CSV's order
  EXPECT_TRUE(j["p"].is_number_integer());
  EXPECT_EQ(j["p"], 4);
  EXPECT_TRUE(j["t_median"].is_number_float());
  EXPECT_DOUBLE_EQ(j["t_median"].get<double>(), 0.0123);
  ASSERT_TRUE(j["t_rounds"].is_array());
  EXPECT_EQ(j["t_rounds"].size(), 3u);
  EXPECT_TRUE(j["grid"].is_string());
  EXPECT_EQ(j["local_levels"], "auto");  // text: a number or a word
  EXPECT_EQ(j["reps_asked"], "3");
  EXPECT_TRUE(j["lb"].is_null());
  EXPECT_TRUE(j["t_min"].is_null());
  // NaN has no JSON number: it is written as null.
  EXPECT_EQ(nlohmann::json::parse(j.dump())["residual"], nullptr);
  // Back to text: the same cells (empty where null).
  const std::map<std::string, std::string> back = row_cells(nlohmann::json::parse(j.dump()));
  for (const auto& [k, v] : cells) {
    if (k == "residual") continue;
    EXPECT_EQ(back.at(k), v) << k;
  }
  EXPECT_EQ(back.at("lb"), "");
}
