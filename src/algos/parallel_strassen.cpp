#include "algos/parallel_strassen.hpp"

#include "local/local_multiply.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "algos/algorithm_instances.hpp"
#include "core/machine/blas.hpp"

namespace mmbench::algos::strassen {

namespace {

// A leaf group of one rank under q8+dgemm: plain DGEMM (or local Strassen
// levels) with this rank's own BLAS threads (the dgemm algorithm's plan
// would borrow threads x p).
class LocalDgemm : public Plan {
 public:
  LocalDgemm(Index m, Index n, Index k, const Options& opt)
      : m_(m), n_(n), k_(k),
        local_(opt.local, opt.threads),
        a_(single_owner(m, k, 1, 0)), b_(single_owner(k, n, 1, 0)), c_(single_owner(m, n, 1, 0)) {
    local_.prepare(m, n, k);
  }
  Index workspace_doubles() const override { return local_.workspace_doubles(); }
  double error_growth() const override { return local_.error_growth(); }
  std::map<std::string, std::string> describe() const override { return local_.describe(); }
  const Layout& layout_a() const override { return a_; }
  const Layout& layout_b() const override { return b_; }
  const Layout& layout_c() const override { return c_; }
  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    local_(m_, n_, k_, A.data(), std::max<Index>(1, m_), B.data(), std::max<Index>(1, k_), C.data(),
           std::max<Index>(1, m_));
  }

 private:
  Index m_, n_, k_;
  local::LocalMultiply local_;
  Layout a_, b_, c_;
};

std::unique_ptr<Plan> leaf_plan(const Config& cfg, const Options& opt, Index m, Index n, Index k, const Comm& comm) {
  const Problem pb{m, n, k};
  switch (cfg.cutoff) {
    case Cutoff::ring: return ring_algorithm().plan(pb, opt, comm);
    case Cutoff::tpmm: return tpmm_algorithm().plan(pb, opt, comm);
    case Cutoff::pdgemm: return pdgemm_algorithm().plan(pb, opt, comm);
    case Cutoff::dgemm: return std::make_unique<LocalDgemm>(m, n, k, opt);
  }
  throw std::logic_error("strassen: unknown cut-off");
}

// The layout the sub-plan really uses must be the one the parent assumed for
// every group (strassen_layout.hpp), or the parent's transfers are wrong.
void expect_same(const Layout& used, const Layout& assumed, int rank, const char* what) {
  if (used.rects().size() != assumed.rects().size() || used.local_size(rank) != assumed.local_size(rank))
    throw std::logic_error(std::string("strassen: the cut-off plan's layout of ") + what +
                           " differs from the recursive layout (" + used.description() + " vs " +
                           assumed.description() + ")");
}

}  // namespace

Level::Level(const Config& cfg, const Options& leaf_opt, Index m, Index n, Index k, int r, const Comm& comm)
    : schema_(cfg.schema), gs_(split_groups(cfg, comm.size(), r)), group_(gs_.group_of(comm.rank())),
      transport_(make_transport(cfg, gs_, m, n, k, r, comm)) {
  const Index hm = m / 2, hn = n / 2, hk = k / 2;
  sub_ = comm.split(group_, comm.rank());
  if (r == 1)
    child_ = leaf_plan(cfg, leaf_opt, hm, hn, hk, sub_);
  else
    child_ = std::make_unique<Level>(cfg, leaf_opt, hm, hn, hk, r - 1, sub_);
  const Layouts& assumed = transport_->group_layouts();
  expect_same(child_->layout_a(), assumed.a, sub_.rank(), "A");
  expect_same(child_->layout_b(), assumed.b, sub_.rank(), "B");
  expect_same(child_->layout_c(), assumed.c, sub_.rank(), "C");
  S_ = DistMatrix(child_->layout_a(), sub_.rank());
  T_ = DistMatrix(child_->layout_b(), sub_.rank());
  for (std::size_t i = 0; i < tasks(cfg.schema)[group_].size(); ++i) P_.emplace_back(child_->layout_c(), sub_.rank());
}

void Level::multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) {
  // 1. All operand quadrants my group's products read.
  const LevelTransport::Quadrants in = transport_->operands_in(A, B);
  // 2. My task's products, each by the sub-plan on my group.
  const std::vector<int>& mine = tasks(schema_)[group_];
  std::array<const double*, 7> own{};
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const ProductFormula& f = kProducts[mine[i]];
    signed_sum(S_.data(), static_cast<Index>(S_.local.size()), f.a.data(), 4, [&](int q) { return in.a[q]; });
    signed_sum(T_.data(), static_cast<Index>(T_.local.size()), f.b.data(), 4, [&](int q) { return in.b[q]; });
    child_->multiply(S_, T_, P_[i]);
    own[mine[i]] = P_[i].data();
  }
  // 3. C from the products, own and other groups'.
  transport_->products_out(own, C);
}

Index Level::workspace_doubles() const {
  Index w = static_cast<Index>(S_.local.size() + T_.local.size());
  for (const DistMatrix& p : P_) w += static_cast<Index>(p.local.size());
  return w + transport_->workspace_doubles() + child_->workspace_doubles();
}

StrassenPlan::StrassenPlan(const Config& cfg, const Options& opt, const Problem& pb, int r, const Comm& comm)
    : cfg_(cfg), r_(r) {
  const Index f = Index{1} << r;
  Options leaf = opt;
  leaf.pr = leaf.pc = 0;  // leaf groups take their most square grid
  top_ = std::make_unique<Level>(cfg, leaf, round_up(pb.m, f), round_up(pb.n, f), round_up(pb.k, f), r, comm);
  a_ = clip(top_->layout_a(), pb.m, pb.k);
  b_ = clip(top_->layout_b(), pb.k, pb.n);
  c_ = clip(top_->layout_c(), pb.m, pb.n);
}

// 12 per parallel level (see parallel_strassen.hpp), times the growth of
// the local Strassen levels this rank's leaf really did (1 without).
double StrassenPlan::error_growth() const {
  return std::pow(12.0, r_) * top_->error_growth();
}

std::map<std::string, std::string> StrassenPlan::describe() const {
  auto d = top_->describe();  // the leaf algorithm's columns (grid, nb, lb, exchanges ...)
  d["schema"] = schema_name(cfg_.schema);
  d["cutoff"] = cutoff_name(cfg_.cutoff);
  d["recursions"] = std::to_string(r_);
  const GroupSplit& g = top_->groups();
  if (cfg_.schema == Schema::q7) {
    d["q7_split"] = format_split(g.size);
    d["q7_split_rule"] = cfg_.q7_splits ? "model" : "paper";
  }
  return d;
}

}  // namespace mmbench::algos::strassen
