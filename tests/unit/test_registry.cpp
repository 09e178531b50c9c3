// The invariant every registered algorithm (one unit in src/algos/: check,
// plan, models) must satisfy: both predictors, consistent with what it
// uses, reachable by name, help texts; and the registry's order and names
// (the `list` output and the CSV's algo column depend on them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "algos/registry.hpp"
#include "results/results_schema.hpp"
#include "model/algorithm_models.hpp"
#include "ranking/selection.hpp"

using namespace mmbench;
using namespace mmbench::algos;
using namespace mmbench::model;
using namespace mmbench::ranking;

// Every registered algorithm brings its paper and refined model
// (Algorithm::models()) and help texts, and the models agree with what the
// algorithm uses. A model used to be a separate line in a table by name
// (model/algorithm_models.cpp); a forgotten line silently dropped the
// algorithm from auto. Now find_model reads the registry; this checks the
// units themselves.
TEST(Registry, EveryAlgorithmHasModelsAndHelp) {
  MachineParams mp;
  mp.latency_s = 1e-5;
  mp.tau = 1e8;
  mp.t_op = 1e-10;
  mp.add_bytes_per_s = 1e10;
  const Problem pb{1024, 1024, 1024};
  std::set<std::string, std::less<>> names;
  ASSERT_FALSE(all_algorithms().empty());
  for (const Algorithm* a : all_algorithms()) {
    SCOPED_TRACE(std::string(a->name()));
    EXPECT_TRUE(names.emplace(a->name()).second) << "registered twice";
    EXPECT_FALSE(a->summary().empty());
    EXPECT_FALSE(a->requirements().empty());
    EXPECT_FALSE(a->layout().empty());

    const AlgorithmModel& m = a->models();
    EXPECT_EQ(&a->models(), &m) << "models() must answer the same object every call";
    EXPECT_EQ(find_model(a->name()), &m) << "find_model must read the registry";
    ASSERT_NE(m.paper, nullptr) << "no paper model";
    ASSERT_NE(m.refined, nullptr) << "no refined model";
    EXPECT_TRUE(m.schema.empty() || m.schema == "q7" || m.schema == "q8") << m.schema;
    EXPECT_EQ(m.schema.empty(), m.cutoff.empty()) << "a Strassen schema needs its cut-off, a classical one has none";
    EXPECT_EQ(m.schema == "q7", m.q7_leaf != nullptr) << "Q7 models carry the leaf the split search prices";
    const Uses u = a->uses();
    // --q7-split model and the ranking's model split call choose_q7_splits
    // for every algorithm that uses a Q7 split.
    EXPECT_EQ(u.q7_split, m.schema == "q7");
    // resolve_recursions reads the schema: recursions without one stay 0.
    EXPECT_EQ(u.recursions, !m.schema.empty());

    // The predictors price a configuration the algorithm accepts.
    bool priced = false;
    for (int p = 1; p <= 64 && !priced; ++p) {
      if (!a->check(pb, Options{}, p).ok()) continue;
      Prediction paper, refined;
      ASSERT_NO_THROW(predict_configuration(*a, pb, Options{}, p, mp, paper, refined)) << "p = " << p;
      EXPECT_TRUE(std::isfinite(paper.total()) && paper.total() > 0) << "p = " << p << ": paper " << paper.total();
      EXPECT_TRUE(std::isfinite(refined.total()) && refined.total() > 0) << "p = " << p << ": refined "
                                                                          << refined.total();
      priced = true;
      // Its memory: parts not negative, A, B, C (or their replicas) held,
      // at least the even share of the three matrices (someone holds the
      // most), and the total is the parts' sum.
      const MemoryEstimate mem = a->memory(pb, Options{}, p);
      for (double part : {mem.a, mem.b, mem.c, mem.replicas, mem.comm, mem.strassen, mem.local, mem.library})
        EXPECT_GE(part, 0.0) << "p = " << p;
      EXPECT_GT(mem.a + mem.b + mem.c + mem.replicas, 0.0) << "p = " << p;
      EXPECT_GE(mem.total(), Algorithm::even_share(pb, p).total() * (1 - 1e-12)) << "p = " << p;
      EXPECT_DOUBLE_EQ(mem.total(), mem.a + mem.b + mem.c + mem.replicas + mem.comm + mem.strassen + mem.local +
                                        mem.library);
      EXPECT_GE(mem.small, 0.0) << "p = " << p;
      EXPECT_LE(mem.small, mem.own() * (1 + 1e-12)) << "p = " << p;
      EXPECT_DOUBLE_EQ(a->estimate_doubles_per_rank(pb, Options{}, p), mem.total());
    }
    EXPECT_TRUE(priced) << "applies at no p in 1..64 for n = 1024";
  }
  EXPECT_EQ(find_model("cannon"), nullptr);
}

// The order `mmbench list` prints and `auto` ranks ties in; every Strassen
// combination comes from the one table in strassen_combinations.cpp.
TEST(Registry, NamesInListOrder) {
  std::vector<std::string> names;
  for (const Algorithm* a : all_algorithms()) names.emplace_back(a->name());
  const std::vector<std::string> expected = {"dgemm", "pdgemm", "ring", "tpmm", "strassen-q7+ring",
                                             "strassen-q7+pdgemm", "strassen-q8+pdgemm", "strassen-q8+tpmm",
                                             "strassen-q8+dgemm", "2.5d"};
  EXPECT_EQ(names, expected);
  EXPECT_EQ(closest_algorithm("strassen-q7+pdgem"), "strassen-q7+pdgemm");
  EXPECT_EQ(find_algorithm("strassen"), nullptr);
}

// Every algorithm declares the CSV columns its plans fill
// (Algorithm::columns()); the results header is the columns every CSV has
// had, unchanged and in order, then any declared column not among them.
// Appended so far: LocalMultiply's local_gemm (--local-gemm), packed_isa and
// packed_blocking (the packed GEMM's kernel and block sizes that ran), and at
// the very end the memory per rank, predicted and measured, local_stores and
// hybrid (--hybrid), ring_chunks (--ring-chunks), runner_up_ratio (how
// close auto's pick was); another new
// column must be deliberate: it changes the header again.
TEST(Registry, DeclaredColumnsAreResultsColumns) {
  const auto& base = results::base_results_columns();
  const auto& all = results::results_columns();
  ASSERT_GE(all.size(), base.size());
  EXPECT_TRUE(std::equal(base.begin(), base.end(), all.begin())) << "the base columns keep their order";
  EXPECT_EQ(std::vector<std::string>(all.begin() + static_cast<std::ptrdiff_t>(base.size()), all.end()),
            (std::vector<std::string>{"local_gemm", "packed_isa", "packed_blocking", "local_fusion", "lb_asked",
                                      "mem_pred_mb", "mem_pred_parts", "mem_hwm_mb", "mem_err", "mem_rss_mb",
                                      "local_stores", "hybrid", "ring_chunks", "runner_up_ratio"}))
      << "the columns appended after the base ones";
  for (const Algorithm* a : all_algorithms()) {
    const std::vector<std::string> cols = a->columns();
    EXPECT_FALSE(cols.empty()) << a->name();
    EXPECT_EQ(std::set<std::string>(cols.begin(), cols.end()).size(), cols.size()) << a->name() << ": duplicate";
    for (const std::string& c : cols)
      EXPECT_NE(std::find(all.begin(), all.end(), c), all.end()) << a->name() << ": " << c;
  }
  // A Strassen combination reports its leaf's columns too.
  const std::vector<std::string> q7pd = find_algorithm("strassen-q7+pdgemm")->columns();
  for (const char* c : {"schema", "recursions", "q7_split", "grid", "lb"})
    EXPECT_NE(std::find(q7pd.begin(), q7pd.end(), c), q7pd.end()) << c;
}
