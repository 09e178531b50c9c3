// The redistribution transport of a parallel Strassen level
// (strassen_transport.hpp): recursive layouts, moves derived from the
// formula tables, executed by core/redistribution.
//
// Built once per level:
//   - every group's sub-layouts over the quadrant shape, placed into the
//     level's numbering (embed);
//   - ONE Redistribution for all operand quadrants every group needs from
//     the others (A and B together: all of a level's moves in flight at
//     once, one message per partner), ONE for all products the C quadrants
//     need;
//   - receive buffers for the quadrants and products my group gets.
// A rank's own quadrant needs no move: under the recursive layout its part
// of A at this level IS its part of its group's quadrant (strassen_layout.hpp).
#include <stdexcept>

#include "algos/strassen_transport.hpp"

namespace mmbench::algos::strassen {

namespace {

std::vector<int> group_map(const GroupSplit& gs, int g) {
  std::vector<int> map(static_cast<std::size_t>(gs.size[g]));
  for (int i = 0; i < gs.size[g]; ++i) map[i] = gs.start[g] + i;
  return map;
}

class RedistributionTransport : public LevelTransport {
 public:
  RedistributionTransport(const Config& cfg, const GroupSplit& gs, Index m, Index n, Index k, int r, const Comm& comm)
      : comm_(comm), group_(gs.group_of(comm.rank())), level_(recursive_layouts(cfg, m, n, k, comm.size(), r)) {
    const int p = comm.size(), me = comm.rank();
    const Index hm = m / 2, hn = n / 2, hk = k / 2;
    for (int g = 0; g < 4; ++g) {
      const Layouts sub = recursive_layouts(cfg, hm, hn, hk, gs.size[g], r - 1);
      if (g == group_) group_layouts_ = sub;
      const auto map = group_map(gs, g);
      emb_[g] = {embed(sub.a, 0, 0, hm, hk, p, map), embed(sub.b, 0, 0, hk, hn, p, map),
                 embed(sub.c, 0, 0, hm, hn, p, map)};
    }
    // Destination slots: A quadrant q for group g -> 4g + q, B -> 16 + 4g + q;
    // product t for group g -> 7g + t. Source slots: 0 = A, 1 = B; product t -> t.
    // Example (Q7): T11 computes Q1 = (A11 + A22)(B11 + B22) and Q7, so
    // group 0 receives A22 (slot 3), A12, and B22 (slot 16 + 3), B21.
    const LevelMoves moves = derive_moves(cfg.schema);
    for (const Move& mv : moves.a)
      op_transfers_.push_back(Transfer{&emb_[mv.from].a, &emb_[mv.to].a, 0, 4 * mv.to + mv.what});
    for (const Move& mv : moves.b)
      op_transfers_.push_back(Transfer{&emb_[mv.from].b, &emb_[mv.to].b, 1, 16 + 4 * mv.to + mv.what});
    for (const Move& mv : moves.products)
      prod_transfers_.push_back(Transfer{&emb_[mv.from].c, &emb_[mv.to].c, mv.what, 7 * mv.to + mv.what});
    op_ = Redistribution(op_transfers_, me);
    prod_ = Redistribution(prod_transfers_, me);

    const Index la = emb_[group_].a.local_size(me), lb = emb_[group_].b.local_size(me);
    lc_ = emb_[group_].c.local_size(me);
    op_dst_.assign(32, nullptr);
    prod_dst_.assign(28, nullptr);
    for (const Move& mv : moves.a)
      if (mv.to == group_) op_dst_[4 * group_ + mv.what] = (recv_a_[mv.what].assign(la, 0.0), recv_a_[mv.what].data());
    for (const Move& mv : moves.b)
      if (mv.to == group_)
        op_dst_[16 + 4 * group_ + mv.what] = (recv_b_[mv.what].assign(lb, 0.0), recv_b_[mv.what].data());
    for (const Move& mv : moves.products)
      if (mv.to == group_) prod_dst_[7 * group_ + mv.what] = (recv_p_[mv.what].assign(lc_, 0.0), recv_p_[mv.what].data());
  }

  const Layouts& level_layouts() const override { return level_; }
  const Layouts& group_layouts() const override { return group_layouts_; }

  Quadrants operands_in(const DistMatrix& A, const DistMatrix& B) override {
    op_.execute({A.data(), B.data()}, op_dst_, comm_);
    Quadrants q;
    for (int i = 0; i < 4; ++i) {
      q.a[i] = i == group_ ? A.data() : recv_a_[i].empty() ? nullptr : recv_a_[i].data();
      q.b[i] = i == group_ ? B.data() : recv_b_[i].empty() ? nullptr : recv_b_[i].data();
    }
    return q;
  }

  void products_out(const std::array<const double*, 7>& own, DistMatrix& C) override {
    prod_.execute(std::vector<const double*>(own.begin(), own.end()), prod_dst_, comm_);
    // C_g = signed sum of products (own or received) over my part of C_g.
    auto product = [&](int t) -> const double* { return own[t] ? own[t] : recv_p_[t].data(); };
    signed_sum(C.data(), lc_, kC[group_].data(), 7, product);
  }

  Index workspace_doubles() const override {
    Index w = 0;
    for (const auto& v : recv_a_) w += static_cast<Index>(v.size());
    for (const auto& v : recv_b_) w += static_cast<Index>(v.size());
    for (const auto& v : recv_p_) w += static_cast<Index>(v.size());
    // The message buffers of the two redistributions (grown on first use).
    return w + op_.send_volume() + op_.recv_volume() + prod_.send_volume() + prod_.recv_volume();
  }
  const std::vector<Transfer>& operand_transfers() const override { return op_transfers_; }
  const std::vector<Transfer>& product_transfers() const override { return prod_transfers_; }

 private:
  const Comm& comm_;
  int group_;
  Layouts level_, group_layouts_;
  std::array<Layouts, 4> emb_;  // each group's sub-layouts over the quadrant shape, in comm's numbering
  std::vector<Transfer> op_transfers_, prod_transfers_;
  Redistribution op_, prod_;
  Index lc_ = 0;  // my part of my group's C quadrant
  std::array<LargeVector<double>, 4> recv_a_, recv_b_;
  std::array<LargeVector<double>, 7> recv_p_;
  std::vector<double*> op_dst_, prod_dst_;
};

}  // namespace

std::unique_ptr<LevelTransport> make_redistribution_transport(const Config& cfg, const GroupSplit& gs, Index m,
                                                              Index n, Index k, int r, const Comm& comm) {
  return std::make_unique<RedistributionTransport>(cfg, gs, m, n, k, r, comm);
}

namespace {
const std::vector<Transfer> kNoTransfers;
}  // namespace

const std::vector<Transfer>& LevelTransport::operand_transfers() const { return kNoTransfers; }
const std::vector<Transfer>& LevelTransport::product_transfers() const { return kNoTransfers; }

std::unique_ptr<LevelTransport> make_transport(const Config& cfg, const GroupSplit& gs, Index m, Index n, Index k,
                                               int r, const Comm& comm) {
  switch (cfg.transport) {
    case Transport::redistribution: return make_redistribution_transport(cfg, gs, m, n, k, r, comm);
    case Transport::pdgemr2d: return make_pdgemr2d_transport(cfg, gs, m, n, k, comm);
  }
  throw std::logic_error("strassen: unknown transport");
}

}  // namespace mmbench::algos::strassen
