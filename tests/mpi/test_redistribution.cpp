// Redistribution between every pair of layouts, at whatever p it runs with:
// generate in the source layout, move, and compare every local element of
// the target with the generator. Also a multi-transfer plan and gather.
#include <cmath>
#include <functional>
#include <vector>

#include "core/mpi/comm.hpp"
#include "core/matrix/generate.hpp"
#include "core/mpi/mpi_env.hpp"
#include "core/matrix/redistribution.hpp"
#include "core/matrix/verify.hpp"
#include "mpi_check_main.hpp"

using namespace mmbench;

namespace {

std::vector<std::pair<std::string, Layout>> layouts(Index r, Index c, int p) {
  std::vector<std::pair<std::string, Layout>> out;
  out.emplace_back("single0", single_owner(r, c, p, 0));
  out.emplace_back("single-last", single_owner(r, c, p, p - 1));
  out.emplace_back("rows", row_blocks(r, c, p));
  out.emplace_back("cols", col_blocks(r, c, p));
  out.emplace_back("bc-1xp-nb3", block_cyclic(r, c, 3, 3, 1, p));
  out.emplace_back("bc-px1-nb4", block_cyclic(r, c, 4, 4, p, 1));
  int pr = 1;
  for (int d = 1; d * d <= p; ++d) if (p % d == 0) pr = d;
  out.emplace_back("bc-square-nb5x2", block_cyclic(r, c, 5, 2, pr, p / pr));
  return out;
}

// Every element this rank holds equals the generator's value.
int count_wrong(const DistMatrix& m, std::uint64_t seed) {
  int wrong = 0;
  for (std::size_t idx : m.layout.rects_of(m.rank)) {
    const Rect& r = m.layout.rects()[idx];
    for (Index j = 0; j < r.cols; ++j)
      for (Index i = 0; i < r.rows; ++i)
        if (m.local[static_cast<std::size_t>(r.offset + i + j * r.ld)] != matrix_entry(r.row + i, r.col + j, seed))
          ++wrong;
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MpiEnvironment env(&argc, &argv);
  Comm world = Comm::world();
  const int p = world.size();
  for (auto [rows, cols] : {std::pair<Index, Index>{13, 9}, {1, 1}, {32, 40}, {2, 7}}) {
    auto ls = layouts(rows, cols, p);
    for (auto& [sn, sl] : ls) {
      sl.check();
      for (auto& [dn, dl] : ls) {
        DistMatrix src(sl, world.rank()), dst(dl, world.rank());
        generate(src, 99);
        Redistribution r({Transfer{&sl, &dl, 0, 0}}, world.rank());
        r.execute(src.data(), dst.data(), world);
        int wrong = count_wrong(dst, 99);
        CHECK(wrong == 0, "{}x{} {} -> {}: {} wrong elements", rows, cols, sn, dn, wrong);
      }
    }
  }
  // Two matrices in one plan, into two buffers (one message per peer).
  {
    Layout a = row_blocks(17, 11, p), b = block_cyclic(17, 11, 2, 3, 1, p);
    Layout c = col_blocks(11, 5, p), d = single_owner(11, 5, p, p - 1);
    DistMatrix ma(a, world.rank()), mb(b, world.rank()), mc(c, world.rank()), md(d, world.rank());
    generate(ma, 1);
    generate(mc, 2);
    Redistribution r({Transfer{&a, &b, 0, 0}, Transfer{&c, &d, 1, 1}}, world.rank());
    r.execute({ma.data(), mc.data()}, {mb.data(), md.data()}, world);
    CHECK(count_wrong(mb, 1) == 0, "multi-transfer first matrix");
    CHECK(count_wrong(md, 2) == 0, "multi-transfer second matrix");
    if (p > 1) CHECK(r.send_peers() <= p - 1, "peers");
  }
  // gather() gives the whole matrix on the root.
  {
    Layout l = block_cyclic(9, 6, 2, 2, 1, p);
    DistMatrix m(l, world.rank());
    generate(m, 5);
    auto full = gather(m, world, p - 1);
    if (world.rank() == p - 1) {
      int wrong = 0;
      for (Index j = 0; j < 6; ++j)
        for (Index i = 0; i < 9; ++i) wrong += full[static_cast<std::size_t>(i + j * 9)] != matrix_entry(i, j, 5);
      CHECK(wrong == 0, "gather: {} wrong", wrong);
    } else {
      CHECK(full.empty(), "gather: non-root got data");
    }
  }
  return testing::finish("test_redistribution");
}
