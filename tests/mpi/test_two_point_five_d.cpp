// 2.5d at the rank counts where a layer is a real grid: p = 8 (q = 2, c = 2)
// and p = 18 (q = 3, c = 2), plus every c at p = 1, 2, 4 -- against one
// serial DGEMM of the gathered inputs, square, non-square and
// non-divisible sizes (k split over layers and grid columns unevenly).
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

int main(int argc, char** argv) {
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  const Algorithm* algo = find_algorithm("2.5d");
  CHECK(algo != nullptr, "2.5d is not registered");
  if (!algo) return testing::finish("test_two_point_five_d");
  const std::vector<Problem> problems = {{48, 48, 48}, {61, 61, 61}, {50, 37, 71}, {33, 80, 9}, {2, 3, 5}, {97, 45, 130}};
  for (int c : replica_choices(world.size()))
    for (const Problem& pb : problems) {
      Options opt;
      opt.replicas = c;
      CHECK(algo->check(pb, opt, world.size()).ok(), "c = {} should apply at p = {}", c, world.size());
      auto plan = algo->plan(pb, opt, world);
      CHECK(plan->describe().at("replicas") == std::to_string(c), "describe() replicas");
      CHECK(plan->as_run(opt, world.size()).opt.replicas == c, "as_run() replicas");
      DistMatrix A(plan->layout_a(), world.rank()), B(plan->layout_b(), world.rank()), C(plan->layout_c(), world.rank());
      plan->layout_a().check();
      plan->layout_c().check();
      generate(A, 3);
      generate(B, 4);
      plan->multiply(A, B, C);
      plan->multiply(A, B, C);  // C is overwritten, not accumulated
      const double res = normwise_residual(A, B, C, world);
      CHECK(res <= kClassicalResidualLimit, "c={} m={} n={} k={}: residual {}", c, pb.m, pb.n, pb.k, res);
      auto a = gather(A, world), b = gather(B, world), cc = gather(C, world);
      if (world.rank() == 0) {
        const double e = testing::scaled_error(cc, a, b, pb.m, pb.n, pb.k);
        CHECK(e <= 2.0, "c={} m={} n={} k={}: scaled error {}", c, pb.m, pb.n, pb.k, e);
      }
    }
  // A c that does not fit p is refused with the allowed values.
  Options bad;
  bad.replicas = 3;
  if (world.size() % 3 != 0) {
    const auto ap = algo->check(Problem{8, 8, 8}, bad, world.size());
    CHECK(!ap.ok() && ap.reason.find("allowed c") != std::string::npos, "c = 3 at p = {}: '{}'", world.size(), ap.reason);
  }
  return testing::finish("test_two_point_five_d");
}
