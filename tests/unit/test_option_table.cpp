// The option table (ranking/option_table.hpp) is read by every reader of
// options: `run`'s sweep expansion, `--algo auto`'s ranking, the candidate
// labels and the results CSV header. Each test walks every row, so a row
// that one reader ignores fails here -- as does a new row without a probe
// value below (give it one: a value other than its default, and the
// algorithm that reads it).
#include "ranking/option_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "algos/registry.hpp"
#include "results/results_schema.hpp"
#include "cli/run_args.hpp"
#include "run/sweep_expansion.hpp"
#include "ranking/selection.hpp"

using namespace mmbench;

namespace {

// For each row: a value other than its default, the algorithm that reads
// it, the ranks to expand for, and what else the value needs.
struct Probe {
  std::string text;   // a value other than the default
  std::string other;  // a second value
  std::string algo;
  int ranks;
  std::map<std::string, std::string> also;  // other options it needs
};

const std::map<std::string, Probe>& probes() {
  static const std::map<std::string, Probe> p = {
      {"--hybrid", {"2", "4", "ring", 8, {}}},
      {"--grid", {"1x4", "2x2", "pdgemm", 4, {}}},
      {"--nb", {"32", "64", "pdgemm", 4, {}}},
      {"--lb", {"64", "default", "pdgemm", 4, {}}},
      {"--recursions", {"1", "2", "strassen-q8+pdgemm", 64, {}}},
      {"--local-strassen", {"1", "0", "ring", 2, {}}},
      // tpmm: a cut-off also sets how many chunks ring's steps may take, so
      // ring's own --ring-chunks search would try 2 values at one and 1 at
      // the other.
      {"--local-cutoff", {"512", "1024", "tpmm", 2, {{"--local-strassen", "1"}}}},
      {"--local-gemm", {"packed", "blas", "ring", 2, {{"--local-strassen", "1"}}}},
      {"--local-fusion", {"none", "all", "ring", 2, {{"--local-strassen", "1"}}}},
      {"--local-variant", {"strassen", "winograd", "ring", 2, {{"--local-strassen", "1"}}}},
      {"--local-stores", {"streaming", "cached", "ring", 2, {{"--local-strassen", "1"}}}},
      {"--replicas", {"2", "1", "2.5d", 8, {}}},
      {"--q7-split", {"model", "paper", "strassen-q7+ring", 14, {}}},
      {"--ring-chunks", {"1", "2", "ring", 2, {}}},
  };
  return p;
}

model::MachineParams opteron() {
  model::MachineParams mp;
  mp.latency_s = 17e-6;
  mp.tau = 146e6 / 8;
  mp.t_op = 1.0 / 3300e6;
  return mp;
}

// The labels of a sweep's configurations, with each row's value as asked.
std::vector<std::string> expanded(const cli::RunArgs& a, int ranks, const run::Selection& sel) {
  std::vector<std::string> out;
  for (const run::Config& c : run::expand(cli::parse_run_spec(a, ranks, sel), ranks, sel)) {
    ranking::Candidate cand;
    cand.algo = c.algo;
    cand.opt = c.opt;
    std::string s = cand.label() + " |";
    for (const auto& [column, word] : c.asked) s += " " + column + "=" + word;
    out.push_back(s + " " + c.refuse);
  }
  return out;
}

}  // namespace

TEST(OptionTable, EveryRowHasAProbeAndAReader) {
  for (const ranking::OptionRow& row : ranking::option_table()) {
    ASSERT_TRUE(probes().count(row.flag)) << row.flag << ": add a probe value to this test";
    const algos::Algorithm* a = algos::find_algorithm(probes().at(row.flag).algo);
    ASSERT_NE(a, nullptr) << row.flag;
    EXPECT_TRUE(a->uses().*row.used) << row.flag << " is not read by " << a->name();
    EXPECT_NE(std::string(row.default_text), probes().at(row.flag).text) << row.flag;
  }
}

TEST(OptionTable, EveryRowIsAResultsColumn) {
  const std::vector<std::string>& cols = results::results_columns();
  for (const ranking::OptionRow& row : ranking::option_table())
    EXPECT_NE(std::find(cols.begin(), cols.end(), row.column), cols.end()) << row.flag << " -> " << row.column;
}

TEST(OptionTable, EveryRowIsReadBySweepExpansion) {
  const model::MachineParams mp = opteron();
  for (const ranking::OptionRow& row : ranking::option_table()) {
    const Probe& probe = probes().at(row.flag);
    cli::RunArgs a;
    a.algos = probe.algo;
    a.n = "512";
    for (const auto& [flag, text] : probe.also) a.options.at(flag) = text;
    run::Selection sel;
    sel.params = &mp;
    const std::vector<std::string> neutral = expanded(a, probe.ranks, sel);
    a.options.at(row.flag) = probe.text;
    const std::vector<std::string> probed = expanded(a, probe.ranks, sel);
    EXPECT_NE(neutral, probed) << row.flag << " " << probe.text << " changed no configuration";
    ASSERT_EQ(probed.size(), 1u) << row.flag;
    EXPECT_NE(probed[0].find(std::string(row.column) + "=" + probe.text), std::string::npos)
        << row.flag << ": the value as asked is not recorded: " << probed[0];
    // Two values: two configurations.
    a.options.at(row.flag) = probe.text + "," + probe.other;
    EXPECT_EQ(expanded(a, probe.ranks, sel).size(), 2u) << row.flag;
  }
}

TEST(OptionTable, EveryRowIsReadByAuto) {
  const model::MachineParams mp = opteron();
  ranking::OptionContext ctx;
  ctx.params = &mp;
  const std::vector<ranking::OptionRow>& rows = ranking::option_table();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ranking::OptionRow& row = rows[i];
    const Probe& probe = probes().at(row.flag);
    ctx.ranks = probe.ranks;
    ranking::CandidateSpace space;
    space.only = {probe.algo};
    space.local_levels = {0, 1, 2, 3};  // as `run` tries where --local-strassen is not given
    space.hybrid_max = 4;               // as a profile that measured threaded DGEMM allows (--hybrid)
    for (const auto& [flag, text] : probe.also)
      if (flag == "--local-strassen") space.local_levels = {std::stoi(text)};
    std::set<std::string> values;  // the row's part of each candidate's label
    if (row.search) {
      // Its own search: several values at this p.
      const algos::Problem pb{2048, 2048, 2048};
      const ranking::Ranking rk = ranking::rank_candidates(pb, probe.ranks, {}, mp, model::ModelKind::refined, space);
      for (const ranking::Candidate& c : rk.ranked) values.insert(row.label(c.opt));
      EXPECT_GE(values.size(), 2u) << row.flag << ": auto tries one value";
    } else {
      // The values given: two values, twice the candidates, each with
      // one of the two.
      const algos::Problem pb{2048, 2048, 2048};
      const auto rank = [&](const std::string& text) {
        space.given.assign(rows.size(), {});
        space.given[i] = row.parse(text, ctx);
        return ranking::rank_candidates(pb, probe.ranks, {}, mp, model::ModelKind::refined, space);
      };
      const ranking::Ranking one = rank(probe.text), two = rank(probe.text + "," + probe.other);
      EXPECT_EQ(two.ranked.size() + two.excluded.size(), 2 * (one.ranked.size() + one.excluded.size())) << row.flag;
      for (const ranking::Candidate& c : two.ranked) values.insert(row.label(c.opt));
      EXPECT_EQ(values.size(), 2u) << row.flag << ": the two values given are not both ranked";
    }
  }
}
