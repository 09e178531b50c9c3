// The pdgemr2d transport of a parallel Strassen level (strassen_transport.hpp;
// docs/method.md §3.3, thesis section 2.4.7): strassen-q7+pdgemm, the
// ScaLAPACK-only variant.
//
// Everything stays block-cyclic: A, B, C over ALL ranks of a level on one
// BLACS grid (nb x nb blocks, most square grid), each group's operands and
// products block-cyclic over the group's own grid. Data moves between the
// grids ONLY with ScaLAPACK's pdgemr2d (no MPI of our own), called with the
// level's all-ranks context, which spans every group grid:
//   operands_in: for every group g and every quadrant its products read
//     (from strassen_formulas' tables): pdgemr2d that quadrant (a submatrix
//     of the all-ranks A or B) into a quadrant-sized matrix on g's grid;
//   products_out: for every term of C_q = sum_t kC[q][t] Q_t: pdgemr2d the
//     product Q_t from its group's grid into the quadrant-q position of a
//     full-size scratch W on the all-ranks grid, then add W's quadrant-q
//     entries into C (W and C share the distribution, so that is a local
//     loop over the local entries whose global row and column fall in
//     quadrant q).
// pdgemr2d is blocking, so unlike the redistribution transport the moves of
// a level run one after another (a documented limitation of this variant).
//
// All grids of one level come from ONE BLACS system handle (the level's
// communicator) -- the all-ranks grid by gridinit, the group grids by
// gridmap with the group's ranks -- so pdgemr2d sees one process numbering.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "space/process_grid.hpp"
#include "algos/scalapack_availability.hpp"
#include "algos/strassen_transport.hpp"
#if MMBENCH_HAVE_SCALAPACK
#include "core/mpi/blacs_context.hpp"
#include "core/mpi/scalapack_api.hpp"
#endif

namespace mmbench::algos::strassen {

#if !MMBENCH_HAVE_SCALAPACK
std::unique_ptr<LevelTransport> make_pdgemr2d_transport(const Config&, const GroupSplit&, Index, Index, Index,
                                                        const Comm&) {
  throw std::logic_error("strassen: the pdgemr2d transport: " + std::string(scalapack_unavailable()));
}
#else
namespace {

// BLACS grids of one level over one system handle: grid 0 = all ranks, grids
// 1..4 = the groups (a rank outside a group gets context -1 there). Every
// context is owned (core/mpi/blacs_context.hpp) and checked when it is made, so
// a failure part way releases the grids made before it.
class LevelGrids {
 public:
  LevelGrids(const Comm& comm, const GroupSplit& gs) {
    const BlacsSystemHandle handle(comm.get());  // needed only while the grids are made
    auto [pr, pc] = most_square_grid(comm.size());
    grids_[0] = BlacsContext::grid_init(handle, pr, pc);
    for (int g = 0; g < 4; ++g) {
      auto [gr, gc] = most_square_grid(gs.size[g]);
      // usermap(i, j) = rank of grid position (i, j), column-major with
      // leading dimension gr; row-major placement like BlacsGrid ("R").
      std::vector<int> map(static_cast<std::size_t>(gr * gc));
      for (int i = 0; i < gr; ++i)
        for (int j = 0; j < gc; ++j) map[i + j * gr] = gs.start[g] + i * gc + j;
      grids_[g + 1] = BlacsContext::grid_map(handle, std::move(map), gr, gc);  // collective over the handle's ranks
    }
  }

  int all_ranks_context() const { return grids_[0].context(); }
  // Descriptor of an m x n matrix on grid i (0 = all ranks, 1 + g = group g);
  // ranks outside grid i get context -1, as pdgemr2d expects.
  std::array<int, 9> descriptor(int i, Index m, Index n, int nb) const {
    const BlacsContext& grid = grids_[i];
    int mi = static_cast<int>(m), ni = static_cast<int>(n), zero = 0;
    if (!grid.in_grid()) return {1, -1, mi, ni, nb, nb, 0, 0, 1};
    int myrow = grid.my_row(), pr = grid.rows();
    int locr = numroc_(&mi, &nb, &myrow, &zero, &pr);
    int lld = std::max(1, locr), info = 0, ctxt = grid.context();
    std::array<int, 9> d{};
    descinit_(d.data(), &mi, &ni, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    if (info != 0) throw std::runtime_error("strassen-q7+pdgemm: descinit failed, info = " + std::to_string(info));
    return d;
  }
  std::pair<int, int> shape(int i) const { return {grids_[i].rows(), grids_[i].cols()}; }
  std::pair<int, int> position(int i) const { return {grids_[i].my_row(), grids_[i].my_col()}; }

 private:
  std::array<BlacsContext, 5> grids_;
};

// Global index of local index l on process coordinate `proc` of `procs`
// (block-cyclic, first block on process 0). Example: nb = 2, procs = 3,
// proc 1: local 0, 1, 2, 3 -> global 2, 3, 8, 9.
Index local_to_global(Index l, int nb, int proc, int procs) { return ((l / nb) * procs + proc) * nb + l % nb; }

class Pdgemr2dTransport : public LevelTransport {
 public:
  Pdgemr2dTransport(const Config& cfg, const GroupSplit& gs, Index m, Index n, Index k, const Comm& comm)
      : schema_(cfg.schema), nb_(cfg.nb), m_(m), n_(n), k_(k), gs_(gs), group_(gs.group_of(comm.rank())),
        grids_(comm, gs) {
    const auto [pr, pc] = grids_.shape(0);
    level_ = {block_cyclic(m, k, nb_, nb_, pr, pc), block_cyclic(k, n, nb_, nb_, pr, pc),
              block_cyclic(m, n, nb_, nb_, pr, pc)};
    const auto [gr, gc] = most_square_grid(gs.size[group_]);
    group_layouts_ = {block_cyclic(m / 2, k / 2, nb_, nb_, gr, gc), block_cyclic(k / 2, n / 2, nb_, nb_, gr, gc),
                      block_cyclic(m / 2, n / 2, nb_, nb_, gr, gc)};
    da_ = grids_.descriptor(0, m, k, nb_);
    db_ = grids_.descriptor(0, k, n, nb_);
    dc_ = grids_.descriptor(0, m, n, nb_);
    for (int g = 0; g < 4; ++g) {
      sa_[g] = grids_.descriptor(1 + g, m / 2, k / 2, nb_);
      sb_[g] = grids_.descriptor(1 + g, k / 2, n / 2, nb_);
      sc_[g] = grids_.descriptor(1 + g, m / 2, n / 2, nb_);
    }
    // Receive buffers for the quadrants my group's products read.
    const int sub_rank = comm.rank() - gs.start[group_];
    for (int g = 0; g < 4; ++g) reads_[g] = quadrants_read(schema_, g);
    for (int q = 0; q < 4; ++q) {
      if (reads_[group_].a[q]) x_[q].assign(static_cast<std::size_t>(group_layouts_.a.local_size(sub_rank)), 0.0);
      if (reads_[group_].b[q]) y_[q].assign(static_cast<std::size_t>(group_layouts_.b.local_size(sub_rank)), 0.0);
    }
    W_.assign(static_cast<std::size_t>(level_.c.local_size(comm.rank())), 0.0);
    // Quadrant row / column (0 or 1) of each of my local rows / columns of C.
    const auto [myr, myc] = grids_.position(0);
    const Index lr = level_.c.local_size(comm.rank()) > 0 ? dc_[8] : 0;
    for (Index i = 0; i < lr; ++i) row_half_.push_back(local_to_global(i, nb_, myr, pr) >= m / 2);
    const Index lc = lr > 0 ? level_.c.local_size(comm.rank()) / dc_[8] : 0;
    for (Index j = 0; j < lc; ++j) col_half_.push_back(local_to_global(j, nb_, myc, pc) >= n / 2);
  }

  const Layouts& level_layouts() const override { return level_; }
  const Layouts& group_layouts() const override { return group_layouts_; }

  Quadrants operands_in(const DistMatrix& A, const DistMatrix& B) override {
    static double dummy = 0;
    const int ctxt = grids_.all_ranks_context();
    const int hm = static_cast<int>(m_ / 2), hn = static_cast<int>(n_ / 2), hk = static_cast<int>(k_ / 2);
    for (int g = 0; g < 4; ++g)
      for (int q = 0; q < 4; ++q) {
        // Quadrant q = (i, j) starts at global row i * half + 1, column j * half + 1 (1-based).
        const int i0 = (q / 2) * hm + 1, ka = (q % 2) * hk + 1, kb = (q / 2) * hk + 1, j0 = (q % 2) * hn + 1;
        if (reads_[g].a[q])
          Cpdgemr2d(hm, hk, A.data(), i0, ka, da_.data(), g == group_ ? x_[q].data() : &dummy, 1, 1, sa_[g].data(),
                    ctxt);
        if (reads_[g].b[q])
          Cpdgemr2d(hk, hn, B.data(), kb, j0, db_.data(), g == group_ ? y_[q].data() : &dummy, 1, 1, sb_[g].data(),
                    ctxt);
      }
    Quadrants out;
    for (int q = 0; q < 4; ++q) {
      out.a[q] = x_[q].empty() ? nullptr : x_[q].data();
      out.b[q] = y_[q].empty() ? nullptr : y_[q].data();
    }
    return out;
  }

  void products_out(const std::array<const double*, 7>& own, DistMatrix& C) override {
    static double dummy = 0;
    const int ctxt = grids_.all_ranks_context();
    const int hm = static_cast<int>(m_ / 2), hn = static_cast<int>(n_ / 2);
    std::array<bool, 4> started{};
    for (int t = 0; t < 7; ++t) {
      const int g = producer(schema_, t);
      for (int q = 0; q < 4; ++q) {
        if (kC[q][t] == 0) continue;
        Cpdgemr2d(hm, hn, g == group_ ? const_cast<double*>(own[t]) : &dummy, 1, 1, sc_[g].data(), W_.data(),
                  (q / 2) * hm + 1, (q % 2) * hn + 1, dc_.data(), ctxt);
        add_quadrant(C.data(), q, kC[q][t], !started[q]);
        started[q] = true;
      }
    }
  }

  Index workspace_doubles() const override {
    Index w = static_cast<Index>(W_.size());
    for (const auto& x : x_) w += static_cast<Index>(x.size());
    for (const auto& y : y_) w += static_cast<Index>(y.size());
    return w;
  }

 private:
  // C(quadrant q) (=, +=) sign * W(quadrant q), over my local entries.
  void add_quadrant(double* C, int q, int sign, bool assign) const {
    const Index ld = static_cast<Index>(row_half_.size());
    for (std::size_t j = 0; j < col_half_.size(); ++j) {
      if (col_half_[j] != (q % 2 == 1)) continue;
      for (std::size_t i = 0; i < row_half_.size(); ++i) {
        if (row_half_[i] != (q / 2 == 1)) continue;
        const Index at = static_cast<Index>(i) + static_cast<Index>(j) * ld;
        C[at] = assign ? sign * W_[at] : C[at] + sign * W_[at];
      }
    }
  }

  Schema schema_;
  int nb_;
  Index m_, n_, k_;
  GroupSplit gs_;
  int group_;
  LevelGrids grids_;
  Layouts level_, group_layouts_;
  std::array<int, 9> da_{}, db_{}, dc_{};
  std::array<std::array<int, 9>, 4> sa_{}, sb_{}, sc_{};
  std::array<QuadrantsRead, 4> reads_;  // per group: the quadrants its products read
  // LargeVector: counted with mmbench's other buffers (core/machine/memory_account.hpp).
  std::array<LargeVector<double>, 4> x_, y_;  // my group's operand quadrants
  LargeVector<double> W_;
  std::vector<bool> row_half_, col_half_;
};

}  // namespace

std::unique_ptr<LevelTransport> make_pdgemr2d_transport(const Config& cfg, const GroupSplit& gs, Index m, Index n,
                                                        Index k, const Comm& comm) {
  return std::make_unique<Pdgemr2dTransport>(cfg, gs, m, n, k, comm);
}
#endif  // !MMBENCH_HAVE_SCALAPACK

}  // namespace mmbench::algos::strassen
