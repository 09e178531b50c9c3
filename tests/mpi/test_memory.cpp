// Every registered algorithm's memory prediction (Algorithm::memory, the
// parts mmbench allocates itself: MemoryEstimate::own) against what its plan
// really allocated: the high-water mark of mmbench's buffers
// (core/machine/memory_account.hpp) from the plan's construction through two
// multiplies, the maximum over ranks. Small, uneven and square problems,
// with local levels, the packed GEMM, threads, every 2.5D replica count and
// Strassen depths; at p = 1, 2, 4, 7, 8 (oversubscribed: nothing is timed).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "algos/registry.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/dist_matrix.hpp"
#include "core/machine/memory_account.hpp"
#include "core/mpi/mpi_env.hpp"
#include "mpi_check_main.hpp"
#include "space/replicas.hpp"

using namespace mmbench;
using namespace mmbench::algos;

namespace {

// A prediction within 3 % of the measured peak (both of a rank that holds
// the most; at least one double off allowed for empty configurations).
constexpr double kTolerance = 0.03;

int cases = 0;

void check_case(const Algorithm& algo, const Problem& pb, const Options& opt, const Comm& world,
                const std::string& label) {
  if (!algo.check(pb, opt, world.size()).ok()) return;
  const MemoryEstimate predicted = algo.memory(pb, opt, world.size());
  world.barrier();
  const std::size_t base = memory_account::current_bytes();
  memory_account::reset_peak();
  {
    auto plan = algo.plan(pb, opt, world);
    DistMatrix A(plan->layout_a(), world.rank()), B(plan->layout_b(), world.rank()), C(plan->layout_c(), world.rank());
    if (plan->takes_part()) {
      plan->multiply(A, B, C);
      plan->multiply(A, B, C);
    }
    world.barrier();
  }
  const double mine = double(memory_account::peak_bytes() - base);
  const double measured = world.max(mine);
  const double pred = 8.0 * predicted.own();
  ++cases;
  if (world.rank() == 0 && std::getenv("MMBENCH_TEST_VERBOSE"))
    fmt::print("{:<20} {:<28} m={} n={} k={} p={}: predicted {:.0f} B, measured {:.0f} B\n", algo.name(), label, pb.m,
               pb.n, pb.k, world.size(), pred, measured);
  CHECK(std::abs(pred - measured) <= kTolerance * measured + 8.0,
        "{} {} m={} n={} k={} p={}: predicted {:.0f} bytes per rank ({}), measured high-water mark {:.0f} bytes "
        "({:+.1f} %)",
        algo.name(), label, pb.m, pb.n, pb.k, world.size(), pred, parts_text(predicted), measured,
        measured > 0 ? 100.0 * (pred - measured) / measured : 0.0);
  // Nothing is left behind once the plan and the matrices are gone.
  CHECK(memory_account::current_bytes() == base, "{} {}: {} bytes still held after the plan was freed", algo.name(),
        label, memory_account::current_bytes() - base);
}

}  // namespace

int main(int argc, char** argv) {
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  const int p = world.size();
  const std::vector<Problem> problems = {{64, 64, 64}, {67, 67, 67}, {50, 37, 71}, {128, 96, 160}, {3, 5, 2}};
  for (const Algorithm* algo : all_algorithms())
    for (const Problem& pb : problems) {
      Options opt;
      opt.nb = 8;
      check_case(*algo, pb, opt, world, "default");
      if (algo->uses().lb) {
        opt.lb = 16;
        check_case(*algo, pb, opt, world, "lb=16");
      }
      if (algo->uses().replicas)
        for (int c : replica_choices(p)) {
          Options r;
          r.replicas = c;
          check_case(*algo, pb, r, world, "c=" + std::to_string(c));
        }
      if (algo->uses().recursions)
        for (int r = 1; r <= 2; ++r) {
          Options o = opt;
          o.recursions = r;
          check_case(*algo, pb, o, world, "r=" + std::to_string(r));
        }
    }
  // The local kernel's workspace: levels with a small cut-off, both GEMMs,
  // the fusion schedules, two threads (the parallel top level).
  for (const Algorithm* algo : all_algorithms())
    if (algo->uses().local_levels)
      for (const char* gemm : {"blas", "packed"})
        for (int L : {0, 1, 2})
          for (int threads : {1, 2}) {
            Options opt;
            opt.local.levels = L;
            opt.local.min_dim = 8;
            opt.local.gemm = mmbench::local::parse_leaf_gemm(gemm);
            opt.threads = threads;
            const Problem pb{24 * p + 4, 22 * p + 3, 80};
            check_case(*algo, pb, opt, world, fmt::format("{} L={} t={}", gemm, L, threads));
            opt.local.fusion = local::FastGemmConfig::Fusion::none;
            check_case(*algo, pb, opt, world, fmt::format("{} L={} t={} unfused", gemm, L, threads));
          }
  CHECK(cases > 0, "no case applied at p = {}", p);
  if (world.rank() == 0) fmt::print("test_memory: {} cases at p = {}\n", cases, p);
  return testing::finish("test_memory");
}
