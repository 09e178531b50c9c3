#include "model/algorithm_models.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "algos/two_point_five_d.hpp"
#include "model/two_point_five_d_model.hpp"

#include "algos/process_grid.hpp"
#include "algos/strassen_groups.hpp"
#include "model/paper_model.hpp"
#include "model/refined_model.hpp"

namespace mmbench::model {

namespace {

using algos::Options;
using algos::Problem;

constexpr int kDefaultLb = 32;  // ScaLAPACK's PILAENV

// ---------------------------------------------------------------- helpers

// The square size the paper formulas are evaluated at (see the header).
std::int64_t square_n(const Problem& pb) {
  if (pb.m == pb.n && pb.n == pb.k) return pb.n;
  return std::max<std::int64_t>(1, std::llround(std::cbrt(double(pb.m) * double(pb.n) * double(pb.k))));
}

int threads_of(const Options& opt) { return std::max(1, opt.threads); }
int lb_of(const Options& opt) { return opt.lb > 0 ? opt.lb : kDefaultLb; }

Prediction scale_comp(Prediction pr, double factor) {
  pr.comp_s *= factor;
  return pr;
}

// The thesis priced untuned PDGEMM (lb = 32) with its own flop rate
// (2500 instead of 3300 MFLOPS on the Opteron cluster, section 2.5.4).
MachineParams pdgemm_params(const Options& opt, const MachineParams& mp) {
  MachineParams out = mp;
  if (opt.lb <= 0 && mp.t_op_pdgemm_default > 0) out.t_op = mp.t_op_pdgemm_default;
  return out;
}

// The local kernel the plan builds from opt (local/local_multiply.cpp).
LocalKernel local_of(const Options& opt) {
  LocalKernel lk;
  lk.levels = std::max(0, opt.local_levels);
  if (opt.local_min_dim > 0) lk.min_dim = opt.local_min_dim;
  lk.winograd = opt.local_variant != "strassen";
  return lk;
}

// Leaf grid of strassen-q7+pdgemm: the group's most square grid, as
// algos/strassen_q7_pdgemm.cpp builds it (the thesis' section 2.4.7 suggests sqrt(p') x
// sqrt(p') else 1 x p'; the code chose the most square one).
std::pair<int, int> q7_pdgemm_leaf_grid(int p) { return algos::most_square_grid(p); }

// ---------------------------------------------------------------- dgemm
// Eq. 2.10 on one rank with p x threads BLAS threads.

Prediction paper_dgemm_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return scale_comp(paper_dgemm(pb.m, pb.n, pb.k, mp), 1.0 / (threads_of(opt) * p));
}

Prediction refined_dgemm_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return {0.0, refined_local_time(double(pb.m), double(pb.n), double(pb.k), threads_of(opt) * p, local_of(opt), mp)};
}

// ---------------------------------------------------------------- pdgemm
// Eqs. 2.16/2.17.

Prediction paper_pdgemm_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  const auto [pr, pc] = algos::resolve_grid(opt, p);
  return scale_comp(paper_pdgemm(square_n(pb), opt.nb, pr, pc, pdgemm_params(opt, mp)), 1.0 / threads_of(opt));
}

// PDGEMM's DGEMM is inside ScaLAPACK: local levels do not apply.
Prediction refined_pdgemm_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  const auto [pr, pc] = algos::resolve_grid(opt, p);
  return refined_pdgemm(double(pb.m), double(pb.n), double(pb.k), pr, pc, opt.nb, lb_of(opt), threads_of(opt), mp);
}

// ---------------------------------------------------------------- ring
// Eqs. 2.12/2.13.

Prediction paper_ring_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return scale_comp(paper_ring(square_n(pb), p, mp), 1.0 / threads_of(opt));
}

Prediction refined_ring_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return refined_ring(double(pb.m), double(pb.n), double(pb.k), p, threads_of(opt), mp, local_of(opt));
}

// ---------------------------------------------------------------- tpmm
// Eqs. 2.14/2.15.

Prediction paper_tpmm_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return scale_comp(paper_tpmm(square_n(pb), p, mp), 1.0 / threads_of(opt));
}

Prediction refined_tpmm_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return refined_tpmm(double(pb.m), double(pb.n), double(pb.k), p, threads_of(opt), mp, local_of(opt));
}

// ---------------------------------------------------------------- 2.5d
// Solomonik & Demmel (model/two_point_five_d_model.hpp); c as the plan
// resolves it (0 -> the largest choice).

int replicas_of(const Options& opt, int p) {
  return opt.replicas > 0 ? opt.replicas : algos::replica_choices(p).back();
}

Prediction paper_2_5d_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return paper_two_point_five_d(double(square_n(pb)), p, replicas_of(opt, p), threads_of(opt), mp);
}

Prediction refined_2_5d_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return refined_two_point_five_d(double(pb.m), double(pb.n), double(pb.k), p, replicas_of(opt, p), threads_of(opt), mp);
}

// ---------------------------------------------------------------- Strassen Q7
// Eqs. 2.20/2.21 (cut-off Ring). The thesis gives no formula for the PDGEMM
// cut-off of Q7 (its redistributions through pdgemr2d "are hard to model");
// paper_q7_generic is the same recursion with the paper's PDGEMM on the
// leaf grid, and the ScaLAPACK redistribution priced like Ring's transfers.

Prediction paper_q7_generic(double n, int p, int r, const Options& opt, const MachineParams& mp) {
  if (r == 0) {
    const auto [pr, pc] = q7_pdgemm_leaf_grid(p);
    return paper_pdgemm(std::max<std::int64_t>(1, std::llround(std::ceil(n))), opt.nb, pr, pc, mp);
  }
  if (p < 4) throw std::invalid_argument("strassen-q7: a split of " + std::to_string(p) + " ranks, needs >= 4");
  const int small = (p + 6) / 7, large = 2 * p / 7;
  const double h = n / 2;
  const Prediction s = paper_q7_generic(h, small, r - 1, opt, mp), l = paper_q7_generic(h, large, r - 1, opt, mp);
  const double add_s = h * h / small * mp.t_op, add_l = h * h / large * mp.t_op;
  return {9.0 * (h * h / small / mp.tau + 3.0 * mp.latency_s) + std::max(s.comm_s, l.comm_s),
          std::max(5.0 * add_s + s.comp_s, 7.0 * add_l + 2.0 * l.comp_s)};
}

int q7_r(const Options& opt, int p);
int q8_r(std::string_view cutoff, const Options& opt, int p);

Prediction paper_q7_ring_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return scale_comp(paper_strassen_q7_ring(square_n(pb), p, q7_r(opt, p), mp), 1.0 / threads_of(opt));
}

// The refined Q7 models price the splits the run uses (opt.q7_splits), or
// choose them when `choose` is set (choose_q7_splits).
LeafModel q7_ring_leaf(const Options& opt, const MachineParams& mp) {
  const int t = threads_of(opt);
  const LocalKernel lk = local_of(opt);
  return [t, lk, &mp](double m, double n, double k, int q) { return refined_ring(m, n, k, q, t, mp, lk); };
}

LeafModel q7_pdgemm_leaf(const Options& opt, const MachineParams& mp) {
  const int t = threads_of(opt), nb = opt.nb, lb = lb_of(opt);
  return [t, nb, lb, &mp](double m, double n, double k, int q) {
    const auto [pr, pc] = q7_pdgemm_leaf_grid(q);
    return refined_pdgemm(m, n, k, pr, pc, nb, lb, t, mp);
  };
}

Prediction refined_q7(const Problem& pb, const Options& opt, int p, const MachineParams& mp, const LeafModel& leaf,
                      algos::Q7SplitTable* choose = nullptr) {
  const Q7SplitPolicy policy{opt.q7_splits.get(), choose};
  return refined_strassen_q7(double(pb.m), double(pb.n), double(pb.k), p, q7_r(opt, p), leaf, mp, policy);
}

Prediction refined_q7_ring_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return refined_q7(pb, opt, p, mp, q7_ring_leaf(opt, mp));
}

Prediction paper_q7_pdgemm_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return scale_comp(paper_q7_generic(double(square_n(pb)), p, q7_r(opt, p), opt, pdgemm_params(opt, mp)),
                    1.0 / threads_of(opt));
}

Prediction refined_q7_pdgemm_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  return refined_q7(pb, opt, p, mp, q7_pdgemm_leaf(opt, mp));
}

// ---------------------------------------------------------------- Strassen Q8
// Eqs. 2.22-2.24.

template <Cutoff C>
Prediction paper_q8_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  const std::string_view name = C == Cutoff::pdgemm ? "pdgemm" : C == Cutoff::tpmm ? "tpmm" : "dgemm";
  const MachineParams use = C == Cutoff::pdgemm ? pdgemm_params(opt, mp) : mp;
  return scale_comp(paper_strassen_q8(square_n(pb), p, q8_r(name, opt, p), C, opt.nb, use), 1.0 / threads_of(opt));
}

template <Cutoff C>
Prediction refined_q8_algo(const Problem& pb, const Options& opt, int p, const MachineParams& mp) {
  const int t = threads_of(opt), nb = opt.nb, lb = lb_of(opt);
  const LocalKernel lk = local_of(opt);
  const std::string_view name = C == Cutoff::pdgemm ? "pdgemm" : C == Cutoff::tpmm ? "tpmm" : "dgemm";
  auto leaf = [&](double m, double n, double k, int q) -> Prediction {
    if constexpr (C == Cutoff::pdgemm) {
      const auto [pr, pc] = algos::most_square_grid(q);
      return refined_pdgemm(m, n, k, pr, pc, nb, lb, t, mp);
    } else if constexpr (C == Cutoff::tpmm) {
      return refined_tpmm(m, n, k, q, t, mp, lk);
    } else {
      return {0.0, refined_local_time(m, n, k, t, lk, mp)};
    }
  };
  return refined_strassen_q8(double(pb.m), double(pb.n), double(pb.k), p, q8_r(name, opt, p), leaf, mp);
}

// ---------------------------------------------------------------- depth

bool is_power_of_two(std::int64_t x) { return x >= 1 && (x & (x - 1)) == 0; }

int q7_r(const Options& opt, int p) {
  if (opt.recursions >= 0) return opt.recursions;
  return p >= 4 ? std::max(1, algos::max_recursions_q7(p)) : 0;
}

int q8_r(std::string_view cutoff, const Options& opt, int p) {
  if (opt.recursions >= 0) return opt.recursions;
  int best = 0;
  std::int64_t four_r = 4;
  for (int r = 1; four_r <= p; ++r, four_r *= 4) {
    if (p % four_r != 0) break;
    const std::int64_t cut = p / four_r;
    const bool fits = cutoff == "dgemm" ? cut == 1 : cutoff == "pdgemm" ? cut >= 2 : is_power_of_two(cut);
    if (fits) best = r;
  }
  return best;
}

}  // namespace

const std::vector<AlgorithmModel>& algorithm_models() {
  static const std::vector<AlgorithmModel> table = {
      {"dgemm", "", "", paper_dgemm_algo, refined_dgemm_algo, true},
      {"pdgemm", "", "", paper_pdgemm_algo, refined_pdgemm_algo},
      {"ring", "", "", paper_ring_algo, refined_ring_algo},
      {"tpmm", "", "", paper_tpmm_algo, refined_tpmm_algo},
      {"strassen-q7+ring", "q7", "ring", paper_q7_ring_algo, refined_q7_ring_algo},
      {"strassen-q7+pdgemm", "q7", "pdgemm", paper_q7_pdgemm_algo, refined_q7_pdgemm_algo},
      {"strassen-q8+pdgemm", "q8", "pdgemm", paper_q8_algo<Cutoff::pdgemm>, refined_q8_algo<Cutoff::pdgemm>},
      {"strassen-q8+tpmm", "q8", "tpmm", paper_q8_algo<Cutoff::tpmm>, refined_q8_algo<Cutoff::tpmm>},
      {"strassen-q8+dgemm", "q8", "dgemm", paper_q8_algo<Cutoff::dgemm>, refined_q8_algo<Cutoff::dgemm>},
      {"2.5d", "", "", paper_2_5d_algo, refined_2_5d_algo},
  };
  return table;
}

const AlgorithmModel* find_model(std::string_view name) {
  for (const AlgorithmModel& m : algorithm_models())
    if (m.name == name) return &m;
  return nullptr;
}

std::shared_ptr<const algos::Q7SplitTable> choose_q7_splits(const AlgorithmModel& model, const Problem& pb,
                                                            const Options& opt, int p, const MachineParams& mp) {
  if (model.schema != "q7")
    throw std::invalid_argument("--q7-split model: " + std::string(model.name) + " is not a Q7 combination");
  Options paper = opt;
  paper.q7_splits = nullptr;
  auto table = std::make_shared<algos::Q7SplitTable>();
  const LeafModel leaf = model.cutoff == "pdgemm" ? q7_pdgemm_leaf(paper, mp) : q7_ring_leaf(paper, mp);
  refined_q7(pb, paper, p, mp, leaf, table.get());
  return table;
}

int resolve_recursions(const AlgorithmModel& model, const Options& opt, int p) {
  if (model.schema == "q7") return q7_r(opt, p);
  if (model.schema == "q8") return q8_r(model.cutoff, opt, p);
  return 0;
}

}  // namespace mmbench::model
