// The parallel Strassen combinations of docs/method.md §3.3 (Tab. 2.4), one Algorithm
// per row of a table: schema, cut-off algorithm, transport and what they
// require. The work is done by the one driver, parallel_strassen.hpp; this
// file decides which p and r apply and says so in words for `mmbench list`
// and in not-applicable reasons. Each row carries its cost models too
// (paper: eqs. 2.20-2.24; refined: refined_strassen_q7/q8 with the cut-off's
// model at the leaves). Which r apply on p ranks: strassen_depth.hpp.
#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include "algos/parallel_strassen.hpp"
#include "space/process_grid.hpp"
#include "algos/registry.hpp"
#include "algos/scalapack_availability.hpp"
#include "algos/strassen_memory.hpp"
#include "space/strassen_depth.hpp"
#include "space/strassen_groups.hpp"
#include "local/local_multiply.hpp"
#include "model/algorithm_models.hpp"
#include "model/network_traffic.hpp"
#include "model/paper_model.hpp"

namespace mmbench::algos {

namespace {

using strassen::Config;
using strassen::Cutoff;
using strassen::Schema;
using strassen::Transport;

// ---------------------------------------------------------------- models

// Q7 with Ring leaves: eqs. 2.20/2.21 (paper); the refined recursion prices
// the splits the run uses (opt.q7_splits).
model::Prediction paper_q7_ring(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::scale_comp(model::paper_strassen_q7_ring(model::square_n(pb), p, model::q7_r(opt, p), mp),
                           1.0 / model::threads_of(opt));
}

model::LeafModel q7_ring_leaf(const Options& opt, const model::MachineParams& mp) {
  const int t = model::threads_of(opt);
  const model::LocalKernel lk = model::local_of(opt.local);
  return [t, lk, &mp](double m, double n, double k, int q) { return model::refined_ring(m, n, k, q, t, mp, lk); };
}

// The leaf groups run at once and share the network: their prices see the
// whole job (model::for_job).
model::Prediction refined_q7_ring(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  const model::MachineParams job = model::for_job(mp, p);
  return model::refined_q7(pb, opt, p, job, q7_ring_leaf(opt, job));
}

// Q7 with PDGEMM leaves (the pdgemr2d transport). The thesis gives no
// formula for it (its redistributions through pdgemr2d "are hard to
// model"): the paper model is the Q7 recursion of eqs. 2.20/2.21 with the
// paper's PDGEMM (eqs. 2.16/2.17) on the leaf grid, and the ScaLAPACK
// redistribution priced like Ring's transfers. Leaf grid: the group's most
// square grid, as the plan builds it (section 2.4.7 suggests
// sqrt(p') x sqrt(p') else 1 x p'; the code chose the most square one).
model::Prediction paper_q7_pdgemm_rec(double n, int p, int r, const Options& opt, const model::MachineParams& mp) {
  if (r == 0) {
    const auto [pr, pc] = most_square_grid(p);
    return model::paper_pdgemm(std::max<std::int64_t>(1, std::llround(std::ceil(n))), opt.nb, pr, pc, mp);
  }
  if (p < 4) throw std::invalid_argument("strassen-q7: a split of " + std::to_string(p) + " ranks, needs >= 4");
  const int small = (p + 6) / 7, large = 2 * p / 7;
  const double h = n / 2;
  const model::Prediction s = paper_q7_pdgemm_rec(h, small, r - 1, opt, mp),
                          l = paper_q7_pdgemm_rec(h, large, r - 1, opt, mp);
  const double add_s = h * h / small * mp.t_op, add_l = h * h / large * mp.t_op;
  return {9.0 * (h * h / small / mp.tau + 3.0 * mp.latency_s) + std::max(s.comm_s, l.comm_s),
          std::max(5.0 * add_s + s.comp_s, 7.0 * add_l + 2.0 * l.comp_s)};
}

model::Prediction paper_q7_pdgemm(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::scale_comp(paper_q7_pdgemm_rec(double(model::square_n(pb)), p, model::q7_r(opt, p), opt,
                                               model::pdgemm_params(opt, mp)),
                           1.0 / model::threads_of(opt));
}

// Refined: the Q7 recursion (pricing the splits the run uses) with the
// refined PDGEMM on each leaf group's grid.
model::LeafModel q7_pdgemm_leaf(const Options& opt, const model::MachineParams& mp) {
  const int t = model::threads_of(opt), nb = opt.nb;
  // Each leaf PDGEMM resolves its own lb (a tuned one is capped at the
  // leaf's k and grid, as the plan does).
  return [t, nb, opt, &mp](double m, double n, double k, int q) {
    const auto [pr, pc] = most_square_grid(q);
    return model::refined_pdgemm(m, n, k, pr, pc, nb, model::lb_of(opt, m, n, k, pr, pc), t, mp);
  };
}

model::Prediction refined_q7_pdgemm(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  const model::MachineParams job = model::for_job(mp, p);
  return model::refined_q7(pb, opt, p, job, q7_pdgemm_leaf(opt, job));
}

// Q8: eqs. 2.22-2.24 (paper); refined with the cut-off's refined model on
// each leaf group (pdgemm on its most square grid, as the plan builds it).
constexpr std::string_view cutoff_word(model::Cutoff c) {
  return c == model::Cutoff::pdgemm ? "pdgemm" : c == model::Cutoff::tpmm ? "tpmm" : "dgemm";
}

template <model::Cutoff C>
model::Prediction paper_q8(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  const model::MachineParams use = C == model::Cutoff::pdgemm ? model::pdgemm_params(opt, mp) : mp;
  return model::scale_comp(
      model::paper_strassen_q8(model::square_n(pb), p, model::q8_r(cutoff_word(C), opt, p), C, opt.nb, use),
      1.0 / model::threads_of(opt));
}

template <model::Cutoff C>
model::Prediction refined_q8(const Problem& pb, const Options& opt, int p, const model::MachineParams& job_mp) {
  const model::MachineParams mp = model::for_job(job_mp, p);  // the leaf groups run at once
  const int t = model::threads_of(opt), nb = opt.nb;
  const model::LocalKernel lk = model::local_of(opt.local);
  auto leaf = [&](double m, double n, double k, int q) -> model::Prediction {
    if constexpr (C == model::Cutoff::pdgemm) {
      const auto [pr, pc] = most_square_grid(q);
      return model::refined_pdgemm(m, n, k, pr, pc, nb, model::lb_of(opt, m, n, k, pr, pc), t, mp);
    } else if constexpr (C == model::Cutoff::tpmm) {
      return model::refined_tpmm(m, n, k, q, t, mp, lk);
    } else {
      return {0.0, model::refined_local_time(m, n, k, t, lk, mp)};
    }
  };
  return model::refined_strassen_q8(double(pb.m), double(pb.n), double(pb.k), p,
                                    model::q8_r(cutoff_word(C), opt, p), leaf, mp);
}

template <model::Cutoff C>
constexpr model::AlgorithmModel q8_models{
    .schema = "q8", .cutoff = cutoff_word(C), .paper = paper_q8<C>, .refined = refined_q8<C>};

// ---------------------------------------------------------------- the table

struct Combination {
  const char* name;
  Schema schema;
  Cutoff cutoff;
  Transport transport;
  const char* summary;
  const char* requirements;
  const char* layout;
  model::AlgorithmModel models;
};

constexpr Combination kCombinations[] = {
    {"strassen-q7+ring", Schema::q7, Cutoff::ring, Transport::redistribution,
     "parallel Strassen, schema Q7 (7 products on groups of ~2p/7,2p/7,2p/7,p/7), Ring on each leaf group",
     "p >= 4 at every level (r <= floor(log7 p) balanced, default); any m, n, k (padded to multiples of 2^r)",
     "recursive quadrants: quadrant ij on group Gij, leaves A, C row blocks, B column blocks (Abb. 2.10)",
     {.schema = "q7", .cutoff = "ring", .paper = paper_q7_ring, .refined = refined_q7_ring, .q7_leaf = q7_ring_leaf}},
    {"strassen-q7+pdgemm", Schema::q7, Cutoff::pdgemm, Transport::pdgemr2d,
     "parallel Strassen, schema Q7, PDGEMM on each leaf group; moves only with pdgemr2d",
     "p >= 4 at every level (r <= floor(log7 p) balanced, default); any m, n, k (padded to multiples of 2^r)",
     "A, B, C block-cyclic nb over all ranks (most square grid); each group's operands block-cyclic on its own grid",
     {.schema = "q7", .cutoff = "pdgemm", .paper = paper_q7_pdgemm, .refined = refined_q7_pdgemm,
      .q7_leaf = q7_pdgemm_leaf}},
    {"strassen-q8+pdgemm", Schema::q8, Cutoff::pdgemm, Transport::redistribution,
     "parallel Strassen, schema Q8 (Q1 twice, 4 equal groups), PDGEMM on each leaf group",
     "p = p_cut * 4^r with p_cut >= 2; any m, n, k (padded to multiples of 2^r)",
     "recursive quadrants on consecutive rank blocks (contiguous sub-grids), leaves block-cyclic nb on the leaf "
     "group's most square grid (Abb. 2.12)",
     q8_models<model::Cutoff::pdgemm>},
    {"strassen-q8+tpmm", Schema::q8, Cutoff::tpmm, Transport::redistribution,
     "parallel Strassen, schema Q8, tpMM on each leaf group",
     "p = 4^r * 2^j; any m, n, k (padded to multiples of 2^r)",
     "recursive quadrants, leaves A, C row blocks, B column blocks (B on a 2^r x p/2^r grid, A transposed, Abb. 2.13)",
     q8_models<model::Cutoff::tpmm>},
    {"strassen-q8+dgemm", Schema::q8, Cutoff::dgemm, Transport::redistribution,
     "parallel Strassen, schema Q8, full recursion: one rank per leaf, local DGEMM",
     "p = 4^r; any m, n, k (padded to multiples of 2^r)",
     "recursive quadrants down to one rank per leaf quadrant",
     q8_models<model::Cutoff::dgemm>},
};

// A row's models name the row's schema and cut-off (resolve_recursions and
// the ranking's columns read them).
constexpr bool models_match_rows() {
  for (const Combination& c : kCombinations) {
    const std::string_view schema = c.schema == Schema::q7 ? "q7" : "q8";
    const std::string_view cutoff = c.cutoff == Cutoff::ring     ? "ring"
                                    : c.cutoff == Cutoff::tpmm   ? "tpmm"
                                    : c.cutoff == Cutoff::pdgemm ? "pdgemm"
                                                                 : "dgemm";
    if (c.models.schema != schema || c.models.cutoff != cutoff) return false;
    if ((c.schema == Schema::q7) != (c.models.q7_leaf != nullptr)) return false;
  }
  return true;
}
static_assert(models_match_rows(), "a Strassen combination's models name another schema or cut-off");

class StrassenCombination : public Algorithm {
 public:
  explicit StrassenCombination(const Combination& c) : c_(c) {}
  std::string_view name() const override { return c_.name; }
  std::string_view summary() const override { return c_.summary; }
  std::string_view requirements() const override {
    if (c_.cutoff == Cutoff::pdgemm && !scalapack_unavailable().empty()) return scalapack_unavailable();
    return c_.requirements;
  }
  std::string_view layout() const override { return c_.layout; }
  Uses uses() const override {
    const bool pd = c_.cutoff == Cutoff::pdgemm;
    return Uses{.grid = false,
                .nb = pd,
                .lb = pd,
                .recursions = true,
                .local_levels = !pd,
                .q7_split = c_.schema == Schema::q7};
  }
  // Strassen's own columns, then its leaf algorithm's (the leaf plan's
  // describe() is passed up; a dgemm leaf is a LocalMultiply).
  std::vector<std::string> columns() const override {
    std::vector<std::string> c = {"schema", "cutoff", "recursions", "q7_split", "q7_split_rule"};
    const Algorithm* leaf = find_algorithm(strassen::cutoff_name(c_.cutoff));
    const std::vector<std::string> below = leaf ? leaf->columns() : std::vector<std::string>{};
    c.insert(c.end(), below.begin(), below.end());
    return c;
  }
  Applicability check_on_ranks(const Problem& pb, const Options& opt, int ranks) const override {
    if (c_.cutoff == Cutoff::pdgemm && !scalapack_unavailable().empty())
      return {std::string(scalapack_unavailable())};
    const std::string head = std::string(c_.name) + " needs " + c_.requirements + "; ";
    if (opt.recursions == 0) return {head + "r = 0 is the cut-off algorithm alone (use it by name)"};
    if (opt.recursions > 20) return {head + "r = " + std::to_string(opt.recursions) + " is beyond 20 levels"};
    const int r = opt.recursions < 0 ? strassen_default_depth(c_.schema, c_.cutoff, ranks) : opt.recursions;
    if (r == 0)
      return {head + "no r >= 1 applies at p = " + std::to_string(ranks) + " (r = 1: " + strassen_depth_problem(c_.schema, c_.cutoff, ranks, 1) + ")"};
    if (auto why = strassen_depth_problem(c_.schema, c_.cutoff, ranks, r, opt.q7_splits.get()); !why.empty())
      return {head + "at p = " + std::to_string(ranks) + ", r = " + std::to_string(r) + ": " + why};
    const Index f = Index{1} << r;
    if (c_.cutoff == Cutoff::pdgemm && std::max({pb.m, pb.n, pb.k}) + f > INT32_MAX)
      return {head + "ScaLAPACK needs m, n, k < 2^31"};
    return {};
  }
  // The plan's buffers level by level (strassen_memory.hpp): the caller's
  // padded A, B, C, each level's S, T, products, received quadrants and
  // messages, and the leaf algorithm's own buffers.
  MemoryEstimate plan_memory(const Problem& pb, const Options& opt, int ranks) const override {
    const int r = opt.recursions < 0 ? strassen_default_depth(c_.schema, c_.cutoff, ranks) : opt.recursions;
    return strassen::plan_memory(Config{c_.schema, c_.cutoff, opt.nb, opt.q7_splits, c_.transport}, opt, pb, r, ranks);
  }
  std::unique_ptr<Plan> plan_on_ranks(const Problem& pb, const Options& opt, const Comm& comm) const override {
    const int r = opt.recursions < 0 ? strassen_default_depth(c_.schema, c_.cutoff, comm.size()) : opt.recursions;
    return std::make_unique<strassen::StrassenPlan>(Config{c_.schema, c_.cutoff, opt.nb, opt.q7_splits, c_.transport},
                                                    opt, pb, r, comm);
  }
  const model::AlgorithmModel& models() const override { return c_.models; }

 private:
  const Combination& c_;
};

}  // namespace

const Algorithm& strassen_algorithm(int i) {
  static const StrassenCombination all[] = {StrassenCombination(kCombinations[0]), StrassenCombination(kCombinations[1]),
                                            StrassenCombination(kCombinations[2]), StrassenCombination(kCombinations[3]),
                                            StrassenCombination(kCombinations[4])};
  return all[i];
}

}  // namespace mmbench::algos
