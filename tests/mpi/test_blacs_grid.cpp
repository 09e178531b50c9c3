// BLACS resources are given back on every path. BLACS hands a new context
// the lowest free slot, so a context leaked by a constructor that threw
// shows as the next grid getting a higher number than the first one did.
// Impossible shapes are refused with an exception (not a BLACS abort), and
// a grid made after all that still multiplies correctly.
#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/mpi/blacs_context.hpp"
#include "core/mpi/blacs_grid.hpp"
#include "core/mpi/comm.hpp"
#include "core/mpi/mpi_env.hpp"
#include "core/mpi/scalapack_api.hpp"
#include "mpi_check_main.hpp"

using namespace mmbench;

namespace {

// Like LevelGrids: a second grid is refused after the first one was made.
struct TwoGrids {
  BlacsContext all, second;
  TwoGrids(const BlacsSystemHandle& h, int p) : all(BlacsContext::grid_init(h, 1, p)),
                                                 second(BlacsContext::grid_map(h, {p}, 1, 1)) {}
};

template <typename Error, typename F>
bool throws(F&& f) {
  try {
    f();
  } catch (const Error&) {
    return true;
  }
  return false;
}

// C = I * B on a pr x pc grid with nb = 2 (n = 7: ragged last blocks)
// must give back B exactly.
int identity_product_errors(const BlacsGrid& g) {
  const int n = 7, nb = 2, one = 1, zero = 0;
  const auto desc = g.descriptor(n, n, nb, nb);
  int myrow = g.my_row(), mycol = g.my_col(), pr = g.rows(), pc = g.cols();
  const int mloc = numroc_(&n, &nb, &myrow, &zero, &pr), nloc = numroc_(&n, &nb, &mycol, &zero, &pc);
  const int ld = desc[8];
  auto global = [&](int l, int me, int procs) { return ((l / nb) * procs + me) * nb + l % nb; };
  std::vector<double> a(static_cast<std::size_t>(ld) * std::max(1, nloc)), b(a.size()), c(a.size(), -1.0);
  for (int j = 0; j < nloc; ++j)
    for (int i = 0; i < mloc; ++i) {
      const int gi = global(i, myrow, pr), gj = global(j, mycol, pc);
      a[i + j * ld] = gi == gj ? 1.0 : 0.0;
      b[i + j * ld] = 1.0 + gi + 10.0 * gj;
    }
  const double alpha = 1.0, beta = 0.0;
  pdgemm_("N", "N", &n, &n, &n, &alpha, a.data(), &one, &one, desc.data(), b.data(), &one, &one, desc.data(), &beta,
          c.data(), &one, &one, desc.data());
  int wrong = 0;
  for (int j = 0; j < nloc; ++j)
    for (int i = 0; i < mloc; ++i) wrong += c[i + j * ld] != b[i + j * ld];
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  const int p = world.size();

  int first = -1;
  {
    BlacsGrid g(world, 1, p);
    first = g.context();
    CHECK(first >= 0 && g.rows() == 1 && g.cols() == p && g.my_col() == world.rank(), "grid 1x{}", p);
  }

  for (int round = 0; round < 3; ++round) {  // a leak per round would show in the context number
    // Shapes that cannot be are refused before BLACS is asked.
    for (auto [pr, pc] : std::vector<std::pair<int, int>>{{0, p}, {p, 0}, {p + 1, 1}, {2, p}, {-1, -p}})
      CHECK(throws<std::invalid_argument>([&] { BlacsGrid g(world, pr, pc); }), "BlacsGrid {}x{} at p = {}", pr, pc, p);
    const BlacsSystemHandle h(world.get());
    CHECK(throws<std::invalid_argument>([&] { BlacsContext::grid_init(h, p + 1, 1); }), "grid_init {}x1", p + 1);
    CHECK(throws<std::invalid_argument>([&] { BlacsContext::grid_map(h, {0, 0}, 1, 1); }), "grid_map, 2 ranks for 1x1");
    // A constructor that throws after a context was made gives it back.
    CHECK(throws<std::invalid_argument>([&] { TwoGrids t(h, p); }), "second grid of TwoGrids refused");
    // So does a scope left by an exception.
    CHECK(throws<std::runtime_error>([&] {
            BlacsContext c = BlacsContext::grid_init(h, 1, p);
            if (c.context() != first) mmbench::testing::fail("grid_init inside the scope got a new context slot", __FILE__, __LINE__);
            throw std::runtime_error("after gridinit");
          }),
          "scope left by an exception");
  }

  // A grid on some ranks only: the others get none, and nothing leaks.
  if (p > 1) {
    const BlacsSystemHandle h(world.get());
    BlacsContext part = BlacsContext::grid_init(h, 1, p - 1);
    CHECK(part.in_grid() == (world.rank() < p - 1), "1x{} grid membership", p - 1);
    CHECK(part.rows() == 1 && part.cols() == p - 1, "shape known outside the grid too");
    BlacsContext moved = std::move(part);
    CHECK(!part.in_grid() && moved.in_grid() == (world.rank() < p - 1), "move transfers the context");
  }

  // After all that: the first slot again, and a working grid.
  int pr = 1;
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0) pr = d;
  BlacsGrid g(world, pr, p / pr);
  CHECK(g.context() == first, "context {} after the refused grids, {} at first (a context leaked)", g.context(), first);
  CHECK(identity_product_errors(g) == 0, "I * B != B on the {}x{} grid", pr, p / pr);
  return mmbench::testing::finish("blacs_grid");
}
