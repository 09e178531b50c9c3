// strassen-q7+pdgemm (docs/method.md §3.3, thesis section 2.4.7): parallel Strassen,
// schema Q7, PDGEMM on each leaf group -- the ScaLAPACK-only variant.
//
// Everything stays block-cyclic: A, B, C over ALL ranks of a level on one
// BLACS grid (nb x nb blocks, most square grid), each Q7 group's operands
// and products block-cyclic over the group's own grid. Data moves between
// the grids ONLY with ScaLAPACK's pdgemr2d (no MPI of our own), called with
// the level's all-ranks context, which spans every group grid.
//
// One level (m x k times k x n, padded to multiples of 2^r):
//   1. for every group g and every quadrant its products read (derived from
//      strassen_formulas' tables): pdgemr2d that quadrant (a submatrix of
//      the all-ranks A or B) into a quadrant-sized matrix on g's grid;
//   2. each group forms S = sum of A quadrants, T = sum of B quadrants
//      locally (same grid, same layout) and multiplies them with the next
//      level or, at the last level, with the pdgemm algorithm's own plan;
//   3. for every term of C_q = sum_t kC[q][t] Q_t: pdgemr2d the product Q_t
//      from its group's grid into the quadrant q position of a full-size
//      scratch W on the all-ranks grid, then add W's quadrant-q entries into
//      C (W and C share the distribution, so that is a local loop over the
//      local entries whose global row and column fall in quadrant q).
// pdgemr2d is blocking, so unlike the MPI variants the moves of a level run
// one after another (a documented limitation of this variant).
//
// All grids of one level come from ONE BLACS system handle (the level's
// communicator) -- the all-ranks grid by gridinit, the group grids by
// gridmap with the group's ranks -- so pdgemr2d sees one process numbering.
//
// The SimGrid SMPI build has no ScaLAPACK (scalapack_availability.hpp):
// there the plan is left out and check() says why; name, help and cost
// models stay.
#include <algorithm>
#include <climits>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "algos/algorithm.hpp"
#include "algos/process_grid.hpp"
#include "algos/strassen_formulas.hpp"
#include "algos/strassen_groups.hpp"
#include "algos/strassen_layout.hpp"
#include "algos/scalapack_availability.hpp"
#include "model/algorithm_models.hpp"
#include "model/paper_model.hpp"
#ifndef MMBENCH_SMPI
#include "core/blacs_context.hpp"
#include "core/scalapack_api.hpp"
#endif

namespace mmbench::algos {

const Algorithm& pdgemm_algorithm();

namespace {

using namespace strassen;

#ifndef MMBENCH_SMPI
// BLACS grids of one level over one system handle: grid 0 = all ranks, grids
// 1..4 = the Q7 groups (a rank outside a group gets context -1 there). Every
// context is owned (core/blacs_context.hpp) and checked when it is made, so
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
Index local_to_global(Index l, int nb, int proc, int procs) {
  return ((l / nb) * procs + proc) * nb + l % nb;
}

class Q7PdgemmLevel : public Plan {
 public:
  Q7PdgemmLevel(const Options& opt, Index m, Index n, Index k, int r, const Comm& comm)
      : nb_(opt.nb), m_(m), n_(n), k_(k),
        gs_(split_groups(Config{Schema::q7, Cutoff::pdgemm, opt.nb, opt.q7_splits}, comm.size(), r)),
        group_(gs_.group_of(comm.rank())), grids_(comm, gs_) {
    auto [pr, pc] = grids_.shape(0);
    a_ = block_cyclic(m, k, nb_, nb_, pr, pc);
    b_ = block_cyclic(k, n, nb_, nb_, pr, pc);
    c_ = block_cyclic(m, n, nb_, nb_, pr, pc);
    da_ = grids_.descriptor(0, m, k, nb_);
    db_ = grids_.descriptor(0, k, n, nb_);
    dc_ = grids_.descriptor(0, m, n, nb_);
    for (int g = 0; g < 4; ++g) {
      sa_[g] = grids_.descriptor(1 + g, m / 2, k / 2, nb_);
      sb_[g] = grids_.descriptor(1 + g, k / 2, n / 2, nb_);
      sc_[g] = grids_.descriptor(1 + g, m / 2, n / 2, nb_);
    }
    sub_ = comm.split(group_, comm.rank());
    Options leaf = opt;
    leaf.pr = leaf.pc = 0;
    if (r == 1)
      child_ = pdgemm_algorithm().plan(Problem{m / 2, n / 2, k / 2}, leaf, sub_);
    else
      child_ = std::make_unique<Q7PdgemmLevel>(leaf, m / 2, n / 2, k / 2, r - 1, sub_);
    // The child's block-cyclic layout must be the one our group descriptors
    // describe (most square grid, row-major, nb).
    auto [gr, gc] = grids_.shape(1 + group_);
    if (child_->layout_a().local_size(sub_.rank()) != block_cyclic(m / 2, k / 2, nb_, nb_, gr, gc).local_size(sub_.rank()))
      throw std::logic_error("strassen-q7+pdgemm: the leaf grid differs from the group grid");
    // Which quadrants my group's products read (from the formula table).
    for (int t : tasks(Schema::q7)[group_])
      for (int q = 0; q < 4; ++q) {
        if (kProducts[t].a[q] && x_[q].local.empty()) x_[q] = DistMatrix(child_->layout_a(), sub_.rank());
        if (kProducts[t].b[q] && y_[q].local.empty()) y_[q] = DistMatrix(child_->layout_b(), sub_.rank());
      }
    S_ = DistMatrix(child_->layout_a(), sub_.rank());
    T_ = DistMatrix(child_->layout_b(), sub_.rank());
    for (std::size_t i = 0; i < tasks(Schema::q7)[group_].size(); ++i) P_.emplace_back(child_->layout_c(), sub_.rank());
    W_.assign(static_cast<std::size_t>(c_.local_size(comm.rank())), 0.0);
    // Quadrant row / column (0 or 1) of each of my local rows / columns of C.
    auto [myr, myc] = grids_.position(0);
    const Index lr = (c_.local_size(comm.rank()) > 0) ? dc_[8] : 0;
    for (Index i = 0; i < lr; ++i) row_half_.push_back(local_to_global(i, nb_, myr, pr) >= m / 2);
    const Index lc = lr > 0 ? c_.local_size(comm.rank()) / dc_[8] : 0;
    for (Index j = 0; j < lc; ++j) col_half_.push_back(local_to_global(j, nb_, myc, pc) >= n / 2);
  }
  const Layout& layout_a() const override { return a_; }
  const Layout& layout_b() const override { return b_; }
  const Layout& layout_c() const override { return c_; }
  std::map<std::string, std::string> describe() const override { return child_->describe(); }
  std::string warning() const override { return child_->warning(); }
  Index workspace_doubles() const override {
    Index w = static_cast<Index>(S_.local.size() + T_.local.size() + W_.size());
    for (const auto& x : x_) w += static_cast<Index>(x.local.size());
    for (const auto& y : y_) w += static_cast<Index>(y.local.size());
    for (const auto& p : P_) w += static_cast<Index>(p.local.size());
    return w + child_->workspace_doubles();
  }
  const GroupSplit& groups() const { return gs_; }

  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    static double dummy = 0;
    const int ctxt = grids_.all_ranks_context();
    const Index hm = m_ / 2, hn = n_ / 2, hk = k_ / 2;
    // 1. Operand quadrants to every group that reads them.
    for (int g = 0; g < 4; ++g)
      for (int q = 0; q < 4; ++q) {
        bool need_a = false, need_b = false;
        for (int t : tasks(Schema::q7)[g]) {
          need_a = need_a || kProducts[t].a[q];
          need_b = need_b || kProducts[t].b[q];
        }
        const int i0 = static_cast<int>((q / 2) * hm) + 1, ka = static_cast<int>((q % 2) * hk) + 1;
        const int kb = static_cast<int>((q / 2) * hk) + 1, j0 = static_cast<int>((q % 2) * hn) + 1;
        if (need_a)
          Cpdgemr2d(static_cast<int>(hm), static_cast<int>(hk), A.data(), i0, ka, da_.data(),
                    g == group_ ? x_[q].data() : &dummy, 1, 1, sa_[g].data(), ctxt);
        if (need_b)
          Cpdgemr2d(static_cast<int>(hk), static_cast<int>(hn), B.data(), kb, j0, db_.data(),
                    g == group_ ? y_[q].data() : &dummy, 1, 1, sb_[g].data(), ctxt);
      }
    // 2. My group's products.
    const std::vector<int>& mine = tasks(Schema::q7)[group_];
    for (std::size_t i = 0; i < mine.size(); ++i) {
      const ProductFormula& f = kProducts[mine[i]];
      signed_sum(S_.data(), static_cast<Index>(S_.local.size()), f.a.data(), 4, [&](int q) { return x_[q].data(); });
      signed_sum(T_.data(), static_cast<Index>(T_.local.size()), f.b.data(), 4, [&](int q) { return y_[q].data(); });
      child_->multiply(S_, T_, P_[i]);
    }
    // 3. C_q = sum_t kC[q][t] Q_t, term by term through W.
    std::array<bool, 4> started{};
    for (int t = 0; t < 7; ++t) {
      int producer = 0;
      std::size_t slot = 0;
      for (int g = 0; g < 4; ++g)
        for (std::size_t i = 0; i < tasks(Schema::q7)[g].size(); ++i)
          if (tasks(Schema::q7)[g][i] == t) { producer = g; slot = i; }
      for (int q = 0; q < 4; ++q) {
        if (kC[q][t] == 0) continue;
        Cpdgemr2d(static_cast<int>(hm), static_cast<int>(hn), producer == group_ ? P_[slot].data() : &dummy, 1, 1,
                  sc_[producer].data(), W_.data(), static_cast<int>((q / 2) * hm) + 1,
                  static_cast<int>((q % 2) * hn) + 1, dc_.data(), ctxt);
        add_quadrant(C.data(), q, kC[q][t], !started[q]);
        started[q] = true;
      }
    }
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

  int nb_;
  Index m_, n_, k_;
  GroupSplit gs_;
  int group_;
  LevelGrids grids_;
  Layout a_, b_, c_;
  std::array<int, 9> da_{}, db_{}, dc_{};
  std::array<std::array<int, 9>, 4> sa_{}, sb_{}, sc_{};
  Comm sub_;  // before child_: outlives it
  std::unique_ptr<Plan> child_;
  std::array<DistMatrix, 4> x_, y_;
  DistMatrix S_, T_;
  std::vector<DistMatrix> P_;
  std::vector<double> W_;
  std::vector<bool> row_half_, col_half_;
};


class Q7PdgemmPlan : public Plan {
 public:
  Q7PdgemmPlan(const Options& opt, const Problem& pb, int r, const Comm& comm)
      : r_(r), splits_(opt.q7_splits != nullptr) {
    const Index f = Index{1} << r;
    top_ = std::make_unique<Q7PdgemmLevel>(opt, round_up(pb.m, f), round_up(pb.n, f), round_up(pb.k, f), r, comm);
    a_ = clip(top_->layout_a(), pb.m, pb.k);
    b_ = clip(top_->layout_b(), pb.k, pb.n);
    c_ = clip(top_->layout_c(), pb.m, pb.n);
  }
  const Layout& layout_a() const override { return a_; }
  const Layout& layout_b() const override { return b_; }
  const Layout& layout_c() const override { return c_; }
  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override { top_->multiply(A, B, C); }
  Index workspace_doubles() const override { return top_->workspace_doubles(); }
  double error_growth() const override { return std::pow(12.0, r_); }  // as StrassenPlan (parallel_strassen.hpp)
  std::string warning() const override { return top_->warning(); }
  std::map<std::string, std::string> describe() const override {
    auto d = top_->describe();
    const auto& g = top_->groups();
    d["schema"] = "q7";
    d["cutoff"] = "pdgemm";
    d["recursions"] = std::to_string(r_);
    d["q7_split"] = format_split(g.size);
    d["q7_split_rule"] = splits_ ? "model" : "paper";
    return d;
  }

 private:
  int r_;
  bool splits_;  // model-chosen splits
  std::unique_ptr<Q7PdgemmLevel> top_;
  Layout a_, b_, c_;
};
#endif  // MMBENCH_SMPI

// r levels apply when every Q7 group down to the last level has >= 4 ranks.
std::string depth_problem(int p, int r, const Q7SplitTable* splits = nullptr) {
  if (r == 0) return {};
  if (p < 4) return "a Q7 level on a group of " + std::to_string(p) + " ranks (needs >= 4)";
  auto sizes = q7_split(p, r, splits);
  for (int s : std::set<int>(sizes.begin(), sizes.end()))
    if (auto why = depth_problem(s, r - 1, splits); !why.empty()) return why;
  return {};
}

int default_depth(int p) {
  for (int r = std::max(1, max_recursions_q7(p)); r >= 1; --r)
    if (depth_problem(p, r).empty()) return r;
  return 0;
}

// ---------------------------------------------------------------- models
// The thesis gives no formula for the PDGEMM cut-off of Q7 (its
// redistributions through pdgemr2d "are hard to model"): the paper model is
// the Q7 recursion of eqs. 2.20/2.21 with the paper's PDGEMM (eqs.
// 2.16/2.17) on the leaf grid, and the ScaLAPACK redistribution priced like
// Ring's transfers. Leaf grid: the group's most square grid, as the plan
// builds it (the thesis' section 2.4.7 suggests sqrt(p') x sqrt(p') else
// 1 x p'; the code chose the most square one).

model::Prediction paper_q7_generic(double n, int p, int r, const Options& opt, const model::MachineParams& mp) {
  if (r == 0) {
    const auto [pr, pc] = most_square_grid(p);
    return model::paper_pdgemm(std::max<std::int64_t>(1, std::llround(std::ceil(n))), opt.nb, pr, pc, mp);
  }
  if (p < 4) throw std::invalid_argument("strassen-q7: a split of " + std::to_string(p) + " ranks, needs >= 4");
  const int small = (p + 6) / 7, large = 2 * p / 7;
  const double h = n / 2;
  const model::Prediction s = paper_q7_generic(h, small, r - 1, opt, mp),
                          l = paper_q7_generic(h, large, r - 1, opt, mp);
  const double add_s = h * h / small * mp.t_op, add_l = h * h / large * mp.t_op;
  return {9.0 * (h * h / small / mp.tau + 3.0 * mp.latency_s) + std::max(s.comm_s, l.comm_s),
          std::max(5.0 * add_s + s.comp_s, 7.0 * add_l + 2.0 * l.comp_s)};
}

model::Prediction paper_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::scale_comp(paper_q7_generic(double(model::square_n(pb)), p, model::q7_r(opt, p), opt,
                                            model::pdgemm_params(opt, mp)),
                           1.0 / model::threads_of(opt));
}

// Refined: the Q7 recursion (pricing the splits the run uses) with the
// refined PDGEMM on each leaf group's grid.
model::LeafModel pdgemm_leaf(const Options& opt, const model::MachineParams& mp) {
  const int t = model::threads_of(opt), nb = opt.nb, lb = model::lb_of(opt);
  return [t, nb, lb, &mp](double m, double n, double k, int q) {
    const auto [pr, pc] = most_square_grid(q);
    return model::refined_pdgemm(m, n, k, pr, pc, nb, lb, t, mp);
  };
}

model::Prediction refined_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::refined_q7(pb, opt, p, mp, pdgemm_leaf(opt, mp));
}

class StrassenQ7Pdgemm : public Algorithm {
 public:
  std::string_view name() const override { return "strassen-q7+pdgemm"; }
  std::string_view summary() const override {
    return "parallel Strassen, schema Q7, PDGEMM on each leaf group; moves only with pdgemr2d";
  }
  std::string_view requirements() const override {
    if (!scalapack_unavailable().empty()) return scalapack_unavailable();
    return "p >= 4 at every level (r <= floor(log7 p) balanced, default); any m, n, k (padded to multiples of 2^r)";
  }
  std::string_view layout() const override {
    return "A, B, C block-cyclic nb over all ranks (most square grid); each group's operands block-cyclic on its own grid";
  }
  Uses uses() const override { return Uses{.grid = false, .nb = true, .lb = true, .recursions = true, .local_levels = false, .q7_split = true}; }
  Applicability check(const Problem& pb, const Options& opt, int ranks) const override {
    if (!scalapack_unavailable().empty()) return {std::string(scalapack_unavailable())};
    const std::string head = "strassen-q7+pdgemm needs " + std::string(requirements()) + "; ";
    if (opt.recursions == 0) return {head + "r = 0 is pdgemm alone (use it by name)"};
    if (opt.recursions > 20) return {head + "r = " + std::to_string(opt.recursions) + " is beyond 20 levels"};
    const int r = opt.recursions < 0 ? default_depth(ranks) : opt.recursions;
    if (r == 0) return {head + "no r >= 1 applies at p = " + std::to_string(ranks) + " (" + depth_problem(ranks, 1) + ")"};
    if (auto why = depth_problem(ranks, r, opt.q7_splits.get()); !why.empty())
      return {head + "at p = " + std::to_string(ranks) + ", r = " + std::to_string(r) + ": " + why};
    if (std::max({pb.m, pb.n, pb.k}) + (Index{1} << r) > INT_MAX) return {head + "ScaLAPACK needs m, n, k < 2^31"};
    return {};
  }
  double estimate_doubles_per_rank(const Problem& pb, const Options& opt, int ranks) const override {
    // Per level: A, B, C, the scratch W (a C), up to 3 received quadrants of
    // A and of B, S, T and two products on a group of ~p/7 ranks.
    const int r = opt.recursions < 0 ? std::max(1, default_depth(ranks)) : std::max(1, opt.recursions);
    return Algorithm::estimate_doubles_per_rank(pb, opt, ranks) * std::pow(1.75, r) * (1.0 + 3.0 * r);
  }
  std::unique_ptr<Plan> plan(const Problem& pb, const Options& opt, const Comm& comm) const override {
#ifdef MMBENCH_SMPI
    (void)pb, (void)opt, (void)comm;
    throw std::logic_error("strassen-q7+pdgemm: " + std::string(scalapack_unavailable()));
#else
    const int r = opt.recursions < 0 ? default_depth(comm.size()) : opt.recursions;
    return std::make_unique<Q7PdgemmPlan>(opt, pb, r, comm);
#endif
  }
  const model::AlgorithmModel& models() const override {
    static const model::AlgorithmModel m{.schema = "q7", .cutoff = "pdgemm", .paper = paper_time,
                                         .refined = refined_time, .q7_leaf = pdgemm_leaf};
    return m;
  }
};

}  // namespace

const Algorithm& strassen_q7_pdgemm_algorithm() {
  static const StrassenQ7Pdgemm a;
  return a;
}

}  // namespace mmbench::algos
