// Every registered algorithm that applies at this p, against one serial
// DGEMM of the gathered inputs, element by element, for square and
// non-square, divisible and non-divisible sizes; plus the residual check
// (small for the right C, large for a corrupted one) and the pdgemm lb
// override really being called.
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "algos/pilaenv_override.hpp"
#include "algos/registry.hpp"
#include "space/replicas.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/generate.hpp"
#include "core/mpi/mpi_env.hpp"
#include "core/matrix/verify.hpp"
#include "mpi_check_main.hpp"
#include "reference_check.hpp"

using namespace mmbench;
using namespace mmbench::algos;
using mmbench::testing::scaled_error;

namespace {


void run_case(const Algorithm& algo, Problem pb, Options opt, const Comm& world, const std::string& label) {
  if (!algo.check(pb, opt, world.size()).ok()) return;
  auto plan = algo.plan(pb, opt, world);
  DistMatrix A(plan->layout_a(), world.rank()), B(plan->layout_b(), world.rank()), C(plan->layout_c(), world.rank());
  plan->layout_a().check();
  plan->layout_b().check();
  plan->layout_c().check();
  generate(A, 11);
  generate(B, 12);
  plan->multiply(A, B, C);
  plan->multiply(A, B, C);  // twice: a second call must give the same answer
  // Every column the plan reports is one the algorithm declared (the CSV
  // header is built from the declarations before any plan runs).
  const std::vector<std::string> declared = algo.columns();
  for (const auto& [key, value] : plan->describe())
    CHECK(std::find(declared.begin(), declared.end(), key) != declared.end(),
          "{} {}: describe() writes '{}', not among its declared columns()", algo.name(), label, key);
  double res = normwise_residual(A, B, C, world);
  const double growth = world.max(plan->error_growth());  // leaves may differ per rank
  double limit = kClassicalResidualLimit * growth;
  CHECK(res <= limit, "{} {} m={} n={} k={}: residual {} > {}", algo.name(), label, pb.m, pb.n, pb.k, res, limit);
  auto a = gather(A, world), b = gather(B, world), c = gather(C, world);
  if (world.rank() == 0) {
    double e = scaled_error(c, a, b, pb.m, pb.n, pb.k);
    CHECK(e <= 2.0 * growth, "{} {} m={} n={} k={}: scaled error {}", algo.name(), label, pb.m, pb.n,
          pb.k, e);
  }
  // Corrupt one element of C: the residual must notice. An element of C's
  // rectangles, not just the middle of the buffer: padded layouts (Strassen)
  // keep buffer entries outside the matrix.
  Index mine = -1;
  for (std::size_t i : C.layout.rects_of(world.rank()))
    if (C.layout.rects()[i].rows > 0 && C.layout.rects()[i].cols > 0) mine = C.layout.rects()[i].offset;
  if (mine >= 0) C.local[static_cast<std::size_t>(mine)] += 1.0;
  double bad = normwise_residual(A, B, C, world);
  bool someone_has_data = world.max(static_cast<double>(mine + 1)) > 0;
  if (someone_has_data)
    // What matters is that verification flags it: above the limit this
    // configuration is checked against (which grows with fast levels).
    CHECK(bad > limit, "{} {}: corrupted C gave residual {}, not above the limit {}", algo.name(), label, bad, limit);
}

}  // namespace

int main(int argc, char** argv) {
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  const std::vector<Problem> problems = {
      {64, 64, 64}, {67, 67, 67}, {50, 37, 71}, {33, 80, 9}, {1, 1, 1}, {3, 5, 2}, {128, 96, 160}};
  for (const Algorithm* algo : all_algorithms()) {
    for (const Problem& pb : problems) {
      Options opt;
      opt.nb = 8;
      run_case(*algo, pb, opt, world, "default");
      if (algo->uses().lb) {
        opt.lb = 16;
        run_case(*algo, pb, opt, world, "lb=16");
        opt.nb = 5;
        opt.lb = 3;
        run_case(*algo, pb, opt, world, "nb=5,lb=3");
      }
      if (algo->uses().replicas)  // 2.5d: every c with p = q^2 c
        for (int c : replica_choices(world.size())) {
          Options r;
          r.replicas = c;
          run_case(*algo, pb, r, world, "c=" + std::to_string(c));
        }
      if (algo->uses().grid && world.size() > 1) {
        Options g;
        g.nb = 4;
        g.pr = world.size();
        g.pc = 1;
        run_case(*algo, pb, g, world, "grid px1");
      }
    }
  }
  // What the plans report they ran with (Plan::as_run, the CSV's p and
  // threads and the options the models price): the dgemm peer one rank with
  // all the job's cores; pdgemm the grid it took for grid auto; a Strassen
  // combination the depth it took for recursions max (-1).
  {
    const Problem pb{64, 64, 64};
    Options opt;
    opt.nb = 8;
    const AsRun peer = find_algorithm("dgemm")->plan(pb, opt, world)->as_run(opt, world.size());
    CHECK(peer.ranks == 1 && peer.opt.threads == world.size(), "dgemm as_run: {} ranks x {} threads on p = {}",
          peer.ranks, peer.opt.threads, world.size());
    const Algorithm* pdgemm = find_algorithm("pdgemm");
    if (pdgemm && pdgemm->check(pb, opt, world.size()).ok()) {
      const AsRun used = pdgemm->plan(pb, opt, world)->as_run(opt, world.size());
      CHECK(used.opt.pr * used.opt.pc == world.size() && used.opt.pr > 0 && used.opt.lb > 0,
            "pdgemm as_run: grid {}x{}, lb {} on p = {}", used.opt.pr, used.opt.pc, used.opt.lb, world.size());
    }
    const Algorithm* q8 = find_algorithm("strassen-q8+dgemm");
    Options deepest = opt;
    deepest.recursions = -1;
    if (q8 && q8->check(pb, deepest, world.size()).ok()) {
      const AsRun used = q8->plan(pb, deepest, world)->as_run(deepest, world.size());
      CHECK(used.opt.recursions >= 0 && used.ranks == world.size(), "strassen-q8+dgemm as_run: r = {} on {} ranks",
            used.opt.recursions, used.ranks);
    }
  }
  // Local Strassen–Winograd levels inside the algorithms that offer them
  // (blocks must reach the kernel's 256 threshold, hence n = 600 at p = 1).
  if (world.size() == 1)
    for (const Algorithm* algo : all_algorithms())
      if (algo->uses().local_levels)
        for (int L : {1, 2}) {
          Options opt;
          opt.local.levels = L;
          run_case(*algo, Problem{600, 530, 555}, opt, world, "L=" + std::to_string(L));
        }
  // At every p: a small cut-off (what `--local-strassen auto` sets from the
  // profile) makes the levels run on the small, uneven blocks of every
  // algorithm and Strassen leaf here; the plan must say it did them.
  for (const Algorithm* algo : all_algorithms())
    if (algo->uses().local_levels) {
      Options opt;
      opt.local.levels = 2;
      opt.local.min_dim = 8;
      const Problem pb{12 * world.size() + 4, 11 * world.size() + 3, 80};  // blocks of >= 11 rows and columns
      if (!algo->check(pb, opt, world.size()).ok()) continue;
      run_case(*algo, pb, opt, world, "L=2 cut-off 8");
      auto plan = algo->plan(pb, opt, world);
      DistMatrix A(plan->layout_a(), world.rank()), B(plan->layout_b(), world.rank()), C(plan->layout_c(), world.rank());
      plan->multiply(A, B, C);
      const auto d = plan->describe();
      const int applied = d.count("local_levels_applied") ? std::stoi(d.at("local_levels_applied")) : -1;
      CHECK(world.max(double(applied)) >= 1, "{} p={}: local_levels_applied {} after L=2 with cut-off 8", algo->name(),
            world.size(), applied);
      CHECK(d.count("local_cutoff") && d.at("local_cutoff") == "8", "{}: local_cutoff missing", algo->name());
    }
  // --local-gemm packed reaches every algorithm's local multiply (the plan
  // reports it): the packed GEMM alone (L = 0) and under levels (cut-off 8,
  // as above) multiplies right on each algorithm's small, uneven blocks.
  for (const Algorithm* algo : all_algorithms())
    if (algo->uses().local_levels)
      for (int L : {0, 2}) {
        Options opt;
        opt.local.gemm = mmbench::local::LeafGemm::packed;
        opt.local.levels = L;
        opt.local.min_dim = 8;
        const Problem pb{12 * world.size() + 4, 11 * world.size() + 3, 80};
        if (!algo->check(pb, opt, world.size()).ok()) continue;
        const std::string label = "packed L=" + std::to_string(L);
        run_case(*algo, pb, opt, world, label);
        const auto d = algo->plan(pb, opt, world)->describe();
        CHECK(d.count("local_gemm") && d.at("local_gemm") == "packed", "{} {} p={}: local_gemm '{}'", algo->name(),
              label, world.size(), d.count("local_gemm") ? d.at("local_gemm") : "(missing)");
      }
  // ... and inside the one-rank leaves of full-recursion Strassen (p = 4:
  // leaf problems of 300 reach the kernel's threshold).
  if (world.size() == 4)
    if (const Algorithm* q8 = find_algorithm("strassen-q8+dgemm")) {
      Options opt;
      opt.local.levels = 1;
      run_case(*q8, Problem{600, 600, 600}, opt, world, "L=1");
    }
  // Ranks x threads hybrids (space/hybrid.hpp): every algorithm that can
  // run as one, on every t-th rank with t threads, checked as above; the
  // idle ranks own nothing and sit out, and the plan reports the ranks that
  // computed (the CSV's p and threads, what the models price).
  int hybrids_run = 0;
  for (int t : {2, 4}) {
    if (world.size() % t != 0) continue;
    for (const Algorithm* algo : all_algorithms())
      for (const Problem& pb : {Problem{64, 64, 64}, Problem{50, 37, 71}}) {
        Options opt;
        opt.nb = 8;
        opt.hybrid = t;
        const std::string label = "hybrid=" + std::to_string(t);
        if (!algo->uses().hybrid) {
          CHECK(!algo->check(pb, opt, world.size()).ok(), "{} {}: applies, but cannot run as a hybrid", algo->name(),
                label);
          continue;
        }
        if (!algo->check(pb, opt, world.size()).ok()) continue;
        run_case(*algo, pb, opt, world, label);
        ++hybrids_run;
        auto plan = algo->plan(pb, opt, world);
        const bool idle = world.rank() % t != 0;
        for (const Layout* l : {&plan->layout_a(), &plan->layout_b(), &plan->layout_c()})
          CHECK(!idle || l->local_size(world.rank()) == 0, "{} {}: idle rank {} owns {} doubles of {}", algo->name(),
                label, world.rank(), l->local_size(world.rank()), l->description());
        CHECK(plan->takes_part() == !idle, "{} {}: rank {} takes part: {}", algo->name(), label, world.rank(),
              plan->takes_part());
        const AsRun used = plan->as_run(opt, world.size());
        CHECK(used.ranks == world.size() / t && used.opt.threads == t && used.opt.hybrid == 1,
              "{} {}: as_run {} ranks x {} threads (hybrid {}) on p = {}", algo->name(), label, used.ranks,
              used.opt.threads, used.opt.hybrid, world.size());
      }
  }
  CHECK(world.size() % 2 != 0 || hybrids_run > 0, "no hybrid ran at p = {}", world.size());
  // The lb override: PDGEMM must have called our pilaenv_.
  CHECK(pilaenv_calls() > 0, "ScaLAPACK never called mmbench's pilaenv_ (lb override not linked?)");
  return testing::finish("test_algorithms");
}
