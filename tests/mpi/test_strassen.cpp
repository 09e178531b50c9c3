// The parallel Strassen combinations at r = 1 and 2 (where p allows) against
// one serial DGEMM of the gathered inputs, for a power-of-two, a
// non-power-of-two and an odd non-square size; which (p, r) each combination
// accepts; and eq. 2.19 on the real Q7+ring plan: every quadrant or product
// transfer between two Q7 groups costs a rank at most 3 messages each way.
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "algos/parallel_strassen.hpp"
#include "algos/registry.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/generate.hpp"
#include "core/mpi/mpi_env.hpp"
#include "core/matrix/verify.hpp"
#include "model/algorithm_models.hpp"
#include "mpi_check_main.hpp"
#include "reference_check.hpp"

using namespace mmbench;
using namespace mmbench::algos;
using mmbench::testing::scaled_error;

namespace {


// Runs one case if check() accepts it; returns whether it ran.
bool run_case(const Algorithm& algo, const Problem& pb, int r, const Comm& world, Options opt = {}) {
  opt.nb = 8;
  opt.recursions = r;
  if (!algo.check(pb, opt, world.size()).ok()) return false;
  auto plan = algo.plan(pb, opt, world);
  DistMatrix A(plan->layout_a(), world.rank()), B(plan->layout_b(), world.rank()), C(plan->layout_c(), world.rank());
  plan->layout_a().check();
  plan->layout_c().check();
  generate(A, 21);
  generate(B, 22);
  plan->multiply(A, B, C);
  plan->multiply(A, B, C);
  const double res = normwise_residual(A, B, C, world);
  const double growth = world.max(plan->error_growth());  // leaves may differ per rank
  double limit = kClassicalResidualLimit * growth;
  CHECK(res <= limit, "{} r={} {}x{}x{}: residual {} > {}", algo.name(), r, pb.m, pb.n, pb.k, res, limit);
  CHECK(plan->describe().at("recursions") == std::to_string(r), "{}: describe() says r = {}", algo.name(),
        plan->describe().at("recursions"));
  const AsRun used = plan->as_run(opt, world.size());
  CHECK(used.opt.recursions == r && used.ranks == world.size(), "{}: as_run says r = {} on {} ranks", algo.name(),
        used.opt.recursions, used.ranks);
  auto a = gather(A, world), b = gather(B, world), c = gather(C, world);
  if (world.rank() == 0) {
    const double e = scaled_error(c, a, b, pb.m, pb.n, pb.k);
    CHECK(e <= 2.0 * growth, "{} r={} {}x{}x{}: scaled error {}", algo.name(), r, pb.m, pb.n, pb.k, e);
    fmt::print("  {:20s} p={:2d} r={} {:3d}x{:3d}x{:3d}  residual {:.3g}  elementwise/(k^2 eps) {:.3g}  workspace {}\n",
               algo.name(), world.size(), r, pb.m, pb.n, pb.k, res, e, plan->workspace_doubles());
  }
  return true;
}

// --q7-split model: a Q7 plan runs whatever split its table says, every
// group size the recursion meets. Two tables per p: a lopsided hand-made
// one (p - 3, 1, 1, 1: transfers between very unequal groups) and the one
// the refined model chooses for an Opteron-like machine.
void check_model_splits(const Comm& world) {
  const int p = world.size();
  if (p < 4) return;
  model::MachineParams mp;
  mp.latency_s = 17e-6;
  mp.tau = 146e6 / 8;
  mp.t_op = 1.0 / 3300e6;
  mp.add_bytes_per_s = 2e9;
  const Problem pb{100, 100, 100};
  for (const char* name : {"strassen-q7+ring", "strassen-q7+pdgemm"}) {
    const Algorithm* algo = find_algorithm(name);
    for (int r : {1, 2}) {
      std::vector<std::shared_ptr<const Q7SplitTable>> tables;
      if (r == 1) tables.push_back(std::make_shared<const Q7SplitTable>(Q7SplitTable{{{1, p}, {p - 3, 1, 1, 1}}}));
      Options o;
      o.recursions = r;
      o.nb = 8;
      try {
        tables.push_back(model::choose_q7_splits(*algos::find_model(name), pb, o, p, mp));
      } catch (const std::invalid_argument&) {
        CHECK(r == 2 && p < 16, "{} r={} p={}: the model found no split", name, r, p);  // < 4 groups of 4
      }
      for (const auto& table : tables) {
        o.q7_splits = table;
        if (!algo->check(pb, o, p).ok()) continue;
        CHECK(run_case(*algo, pb, r, world, o), "{} r={} p={}: model split did not run", name, r, p);
        auto plan = algo->plan(pb, o, world);
        const auto d = plan->describe();
        CHECK(d.at("q7_split_rule") == "model", "{}: q7_split_rule {}", name, d.at("q7_split_rule"));
        CHECK(d.at("q7_split") == format_split(q7_split(p, r, table.get())), "{}: q7_split {} but the table says {}",
              name, d.at("q7_split"), format_split(q7_split(p, r, table.get())));
        if (world.rank() == 0) fmt::print("  {} p={} r={} split {} (model table)\n", name, p, r, d.at("q7_split"));
      }
    }
  }
}

// eq. 2.19 on the transfers the Q7+ring plan executes.
void check_eq_2_19(const Comm& world) {
  using namespace mmbench::algos::strassen;
  for (Index n : {Index{100}, Index{70}}) {
    StrassenPlan plan(Config{Schema::q7, Cutoff::ring, 8, {}}, Options{}, Problem{n, n, n}, 1, world);
    const Level& top = plan.top();
    const auto& gs = top.groups();
    int unequal = 0, worst = 0;
    for (const auto* list : {&top.operand_transfers(), &top.product_transfers()})
      for (const Transfer& t : *list) {
        // Which groups: the owner ranks of the two layouts.
        const int from = gs.group_of(t.from->rects().front().owner), to = gs.group_of(t.to->rects().front().owner);
        if (gs.size[from] != gs.size[to]) ++unequal;
        Redistribution one({t}, world.rank());
        worst = std::max({worst, one.send_peers(), one.recv_peers()});
      }
    worst = static_cast<int>(world.max(static_cast<long long>(worst)));
    CHECK(worst <= 3, "eq. 2.19: n = {}, p = {}: a rank exchanges with {} ranks of another group in one transfer", n,
          world.size(), worst);
    CHECK(worst >= 1, "eq. 2.19 test: no transfer moved anything (n = {})", n);
    const bool sizes_differ = *std::min_element(gs.size.begin(), gs.size.end()) != *std::max_element(gs.size.begin(), gs.size.end());
    CHECK(!sizes_differ || unequal > 0, "eq. 2.19 test: no transfer between unequal groups at p = {}", world.size());
    if (world.rank() == 0)
      fmt::print("  eq. 2.19 p={} n={} groups {}/{}/{}/{}: {} transfers between unequal groups, max partners {}\n",
                 world.size(), n, gs.size[0], gs.size[1], gs.size[2], gs.size[3], unequal, worst);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  const int p = world.size();
  const std::vector<Problem> problems = {{64, 64, 64}, {100, 100, 100}, {37, 50, 29}};
  const char* names[] = {"strassen-q7+ring", "strassen-q7+pdgemm", "strassen-q8+pdgemm", "strassen-q8+tpmm", "strassen-q8+dgemm"};
  for (const char* name : names) {
    const Algorithm* algo = find_algorithm(name);
    CHECK(algo != nullptr, "{} is not registered", name);
    if (!algo) continue;
    for (int r : {1, 2}) {
      int ran = 0;
      for (const Problem& pb : problems) ran += run_case(*algo, pb, r, world);
      // Which (p, r) must apply (Tab. 2.4 and docs/method.md §3.2).
      const std::string n = name;
      bool expect = false;
      if (n == "strassen-q7+ring" || n == "strassen-q7+pdgemm") expect = (r == 1 && p >= 4) || (r == 2 && p >= 22);  // r = 2: |G22| = ceil(p/7) >= 4
      if (n == "strassen-q8+pdgemm") expect = (r == 1 && p % 4 == 0 && p >= 8) || (r == 2 && p % 16 == 0 && p >= 32);
      if (n == "strassen-q8+tpmm") expect = (r == 1 && p % 4 == 0) || (r == 2 && p % 16 == 0);
      if (n == "strassen-q8+dgemm") expect = (r == 1 && p == 4) || (r == 2 && p == 16);
      CHECK((ran > 0) == expect, "{} at p = {}, r = {}: ran {} cases, expected {}", name, p, r, ran,
            expect ? "all" : "none");
      if (!expect) {
        Options o;
        o.recursions = r;
        const std::string why = algo->check(problems[0], o, p).reason;
        CHECK(why.find(name) != std::string::npos, "{}: not-applicable reason does not name the algorithm: {}", name, why);
      }
    }
  }
  if (p >= 7) check_eq_2_19(world);
  check_model_splits(world);
  return testing::finish("test_strassen");
}
