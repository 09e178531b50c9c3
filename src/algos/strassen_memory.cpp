#include "algos/strassen_memory.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "algos/algorithm.hpp"
#include "algos/algorithm_instances.hpp"
#include "space/process_grid.hpp"

namespace mmbench::algos::strassen {

namespace {

const Algorithm& leaf_algorithm(Cutoff c) {
  switch (c) {
    case Cutoff::ring: return ring_algorithm();
    case Cutoff::tpmm: return tpmm_algorithm();
    case Cutoff::pdgemm: return pdgemm_algorithm();
    case Cutoff::dgemm: break;
  }
  return dgemm_algorithm();  // a leaf group of one rank: LocalDgemm, the same buffers
}

// One level's buffers on a rank of task g, as counts of the rank's shares
// a, b, c (redistribution transport). A packed message holds several shares
// in one buffer; counted share by share (where the shares are below 1 MiB,
// the charged simulation's private part may be overstated, never understated).
struct LevelTerms {
  double sa = 0, sb = 0, sc = 0;  // Strassen temporaries: S, T, the products
  double ca = 0, cb = 0, cc = 0;  // received quadrants and products, packed messages
  LevelTerms& operator+=(const LevelTerms& o) {
    sa += o.sa, sb += o.sb, sc += o.sc, ca += o.ca, cb += o.cb, cc += o.cc;
    return *this;
  }
  double times(double a, double b, double c) const { return (sa + ca) * a + (sb + cb) * b + (sc + cc) * c; }
};

LevelTerms redistribution_terms(Schema s, int g) {
  const LevelMoves mv = derive_moves(s);
  const auto count = [g](const std::vector<Move>& moves, bool to) {
    return static_cast<int>(std::count_if(moves.begin(), moves.end(), [&](const Move& m) { return (to ? m.to : m.from) == g; }));
  };
  const int a_in = count(mv.a, true), a_out = count(mv.a, false), b_in = count(mv.b, true), b_out = count(mv.b, false),
            p_in = count(mv.products, true), p_out = count(mv.products, false);
  const int products = static_cast<int>(tasks(s)[g].size());
  LevelTerms t;
  t.sa = 1;
  t.sb = 1;
  t.sc = products;
  // Received quadrants (one buffer each) plus the operand redistribution's
  // packed messages: what arrives, and every share sent to another group.
  t.ca = a_in + a_in + a_out;
  t.cb = b_in + b_in + b_out;
  // Received products, and the product redistribution's messages likewise.
  t.cc = p_in + p_in + p_out;
  return t;
}

MemoryEstimate with_terms(const MemoryEstimate& leaf, const LevelTerms& t) {
  MemoryEstimate m = leaf;  // its A, B, C are the caller's, its own buffers stay
  add_buffers(m, &MemoryEstimate::strassen, leaf.a, t.sa);
  add_buffers(m, &MemoryEstimate::strassen, leaf.b, t.sb);
  add_buffers(m, &MemoryEstimate::strassen, leaf.c, t.sc);
  add_buffers(m, &MemoryEstimate::comm, leaf.a, t.ca);
  add_buffers(m, &MemoryEstimate::comm, leaf.b, t.cb);
  add_buffers(m, &MemoryEstimate::comm, leaf.c, t.cc);
  return m;
}

struct Walk {
  const Config& cfg;
  Options leaf_opt;
  std::map<std::pair<int, int>, MemoryEstimate> leaves;  // (leaf group size, r) -> leaf estimate

  const MemoryEstimate& leaf(Index m, Index n, Index k, int ranks) {
    const auto key = std::make_pair(ranks, 0);
    auto it = leaves.find(key);
    if (it == leaves.end())
      it = leaves.emplace(key, leaf_algorithm(cfg.cutoff).memory(Problem{m, n, k}, leaf_opt, ranks)).first;
    return it->second;
  }

  // Redistribution transport, Q7: every path of groups.
  void paths(Index m, Index n, Index k, int ranks, int levels, const LevelTerms& above, MemoryEstimate& best) {
    if (levels == 0) {
      const MemoryEstimate m_est = with_terms(leaf(m, n, k, ranks), above);
      if (m_est.total() > best.total()) best = m_est;
      return;
    }
    const GroupSplit gs = split_groups(cfg, ranks, levels);
    for (int g = 0; g < 4; ++g) {
      LevelTerms t = above;
      t += redistribution_terms(cfg.schema, g);
      paths(m / 2, n / 2, k / 2, gs.size[g], levels - 1, t, best);
    }
  }

  // Redistribution transport, Q8: equal groups, every leaf alike; each
  // level's worst task on its own.
  MemoryEstimate equal_groups(Index m, Index n, Index k, int ranks, int levels) {
    std::vector<int> sizes;
    for (int l = levels; l > 0; --l) {
      sizes.push_back(ranks);
      ranks = split_groups(cfg, ranks, l).size[0];
    }
    const Index f = Index{1} << levels;
    const MemoryEstimate& lf = leaf(m / f, n / f, k / f, ranks);
    LevelTerms all;
    for (std::size_t l = 0; l < sizes.size(); ++l) {
      LevelTerms worst = redistribution_terms(cfg.schema, 0);
      for (int g = 1; g < 4; ++g) {
        const LevelTerms t = redistribution_terms(cfg.schema, g);
        if (t.times(lf.a, lf.b, lf.c) > worst.times(lf.a, lf.b, lf.c)) worst = t;
      }
      all += worst;
    }
    return with_terms(lf, all);
  }
};

// Doubles a rank at index i of a group of `ranks` holds of an m x k matrix
// block-cyclic (nb) on the group's most square grid.
double cyclic_share(Index m, Index k, int nb, int ranks, int i) {
  const auto [pr, pc] = most_square_grid(ranks);
  return double(block_cyclic_extent(m, nb, i / pc, pr)) * double(block_cyclic_extent(k, nb, i % pc, pc));
}

// pdgemr2d transport: the first rank of the leaf group at the end of
// `groups` (one group index per level, top first).
MemoryEstimate pdgemr2d_path(const Config& cfg, const Options& leaf_opt, Index m, Index n, Index k, int ranks,
                             const std::vector<int>& groups) {
  const int r = static_cast<int>(groups.size());
  std::vector<int> size(static_cast<std::size_t>(r) + 1), start(static_cast<std::size_t>(r));
  size[0] = ranks;
  for (int l = 0; l < r; ++l) {
    const GroupSplit gs = split_groups(cfg, size[l], r - l);
    size[l + 1] = gs.size[groups[l]];
    start[l] = gs.start[groups[l]];
  }
  // The rank's index in the group of each level (0 in its leaf group).
  std::vector<int> idx(static_cast<std::size_t>(r) + 1, 0);
  for (int l = r - 1; l >= 0; --l) idx[l] = idx[l + 1] + start[l];
  const int nb = cfg.nb;
  MemoryEstimate est;
  add_buffers(est, &MemoryEstimate::a, cyclic_share(m, k, nb, ranks, idx[0]));
  add_buffers(est, &MemoryEstimate::b, cyclic_share(k, n, nb, ranks, idx[0]));
  add_buffers(est, &MemoryEstimate::c, cyclic_share(m, n, nb, ranks, idx[0]));
  for (int l = 0; l < r; ++l) {
    const Index f = Index{1} << l;
    const Index ml = m / f, nl = n / f, kl = k / f;
    const int g = groups[l];
    // On the group grid: quadrant-sized operands, S, T, the products.
    const double qa = cyclic_share(ml / 2, kl / 2, nb, size[l + 1], idx[l + 1]);
    const double qb = cyclic_share(kl / 2, nl / 2, nb, size[l + 1], idx[l + 1]);
    const double qc = cyclic_share(ml / 2, nl / 2, nb, size[l + 1], idx[l + 1]);
    // On the level grid: the level's own matrices (W is its C's size).
    const double la = cyclic_share(ml, kl, nb, size[l], idx[l]), lb = cyclic_share(kl, nl, nb, size[l], idx[l]),
                 lc = cyclic_share(ml, nl, nb, size[l], idx[l]);
    const QuadrantsRead reads = quadrants_read(cfg.schema, g);
    const int na = static_cast<int>(std::count(reads.a.begin(), reads.a.end(), true)),
              nbq = static_cast<int>(std::count(reads.b.begin(), reads.b.end(), true));
    const int products = static_cast<int>(tasks(cfg.schema)[g].size());
    add_buffers(est, &MemoryEstimate::comm, qa, na);
    add_buffers(est, &MemoryEstimate::comm, qb, nbq);
    add_buffers(est, &MemoryEstimate::comm, lc);
    add_buffers(est, &MemoryEstimate::strassen, qa);
    add_buffers(est, &MemoryEstimate::strassen, qb);
    add_buffers(est, &MemoryEstimate::strassen, qc, products);
    // pdgemr2d packs a quadrant's shares on both sides (allocated per call).
    est.library = std::max({est.library, la / 4 + qa, lb / 4 + qb, qc + lc / 4});
  }
  const Index f = Index{1} << r;
  const MemoryEstimate leaf = pdgemm_algorithm().memory(Problem{m / f, n / f, k / f}, leaf_opt, size[r]);
  est.library = std::max(est.library, leaf.library);
  return est;
}

void pdgemr2d_paths(const Config& cfg, const Options& leaf_opt, const Problem& pb, int ranks, int r,
                    std::vector<int>& groups, MemoryEstimate& best) {
  if (static_cast<int>(groups.size()) == r) {
    const MemoryEstimate est = pdgemr2d_path(cfg, leaf_opt, pb.m, pb.n, pb.k, ranks, groups);
    if (est.total() > best.total()) best = est;
    return;
  }
  for (int g = 0; g < 4; ++g) {
    groups.push_back(g);
    pdgemr2d_paths(cfg, leaf_opt, pb, ranks, r, groups, best);
    groups.pop_back();
  }
}

}  // namespace

MemoryEstimate plan_memory(const Config& cfg, const Options& opt, const Problem& pb, int r, int ranks) {
  const Index f = Index{1} << r;
  const Index m = round_up(pb.m, f), n = round_up(pb.n, f), k = round_up(pb.k, f);
  Options leaf_opt = opt;
  leaf_opt.pr = leaf_opt.pc = 0;  // leaf groups take their most square grid (StrassenPlan)
  MemoryEstimate best;
  if (cfg.transport == Transport::pdgemr2d) {
    std::vector<int> groups;
    pdgemr2d_paths(cfg, leaf_opt, Problem{m, n, k}, ranks, r, groups, best);
  } else {
    Walk w{cfg, leaf_opt, {}};
    if (cfg.schema == Schema::q8) best = w.equal_groups(m, n, k, ranks, r);
    else w.paths(m, n, k, ranks, r, LevelTerms{}, best);
  }
  best.holders = 0;
  return best;
}

}  // namespace mmbench::algos::strassen
