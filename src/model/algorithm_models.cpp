#include "model/algorithm_models.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "space/hybrid.hpp"
#include "space/strassen_depth.hpp"
#include "space/strassen_groups.hpp"
#include "core/lb_in_force.hpp"
#include "model/network_traffic.hpp"

namespace mmbench::model {

using space::Options;
using space::Problem;

// ---------------------------------------------------------------- helpers

std::int64_t square_n(const Problem& pb) {
  if (pb.m == pb.n && pb.n == pb.k) return pb.n;
  return std::max<std::int64_t>(1, std::llround(std::cbrt(double(pb.m) * double(pb.n) * double(pb.k))));
}

int threads_of(const Options& opt) { return std::max(1, opt.threads); }
int lb_of(const Options& opt, double m, double n, double k, int pr, int pc) {
  auto whole = [](double x) { return static_cast<std::int64_t>(std::ceil(x)); };
  return lb_in_force(opt.lb, opt.lb_cap_rule(), whole(k), pr, pc, opt.nb, panel_length(whole(m), whole(n), pr, pc));
}

Prediction scale_comp(Prediction pr, double factor) {
  pr.comp_s *= factor;
  return pr;
}

MachineParams pdgemm_params(const Options& opt, const MachineParams& mp) {
  MachineParams out = mp;
  if (opt.lb <= 0 && mp.t_op_pdgemm_default > 0) out.t_op = mp.t_op_pdgemm_default;
  return out;
}

int ring_chunks_auto(const space::Options& opt, const space::Problem& pb, int ranks, const MachineParams& mp) {
  const space::AsRun in = space::hybrid_inner(opt, ranks);
  return ring_chunks_by_model(double(pb.m), double(pb.n), double(pb.k), in.ranks, threads_of(in.opt), mp,
                              local_of(in.opt.local));
}

LocalKernel local_of(const local::LocalKernelSpec& spec) {
  LocalKernel lk;
  lk.levels = std::max(0, spec.levels);
  if (spec.min_dim > 0) lk.min_dim = spec.min_dim;
  lk.variant = spec.variant;
  lk.gemm = spec.gemm;
  lk.fusion = spec.fusion;
  lk.streaming = spec.streaming_stores;
  return lk;
}

Prediction refined_q7(const Problem& pb, const Options& opt, int p, const MachineParams& mp, const LeafModel& leaf,
                      space::Q7SplitTable* choose) {
  const Q7SplitPolicy policy{opt.q7_splits.get(), choose};
  return refined_strassen_q7(double(pb.m), double(pb.n), double(pb.k), p, q7_r(opt, p), leaf, mp, policy);
}

// ---------------------------------------------------------------- depth

// The plans' own rule (space/strassen_depth.hpp). Q7's leaves (ring or
// pdgemm) take any group size, so the cut-off does not matter there.
int q7_r(const Options& opt, int p) {
  if (opt.recursions >= 0) return opt.recursions;
  return space::strassen_default_depth(space::strassen::Schema::q7, space::strassen::Cutoff::ring, p);
}

int q8_r(std::string_view cutoff, const Options& opt, int p) {
  if (opt.recursions >= 0) return opt.recursions;
  using space::strassen::Cutoff;
  const Cutoff c = cutoff == "dgemm" ? Cutoff::dgemm : cutoff == "pdgemm" ? Cutoff::pdgemm : Cutoff::tpmm;
  return space::strassen_default_depth(space::strassen::Schema::q8, c, p);
}

int resolve_recursions(const AlgorithmModel& model, const Options& opt, int p) {
  if (model.schema == "q7") return q7_r(opt, p);
  if (model.schema == "q8") return q8_r(model.cutoff, opt, p);
  return 0;
}

// ---------------------------------------------------------------- Q7 splits

int busy_cores_of(const AlgorithmModel& model, int p, int threads, const MachineParams& mp) {
  const int t = std::max(1, threads), ranks = std::max(1, p);
  if (model.one_node) return ranks * t;
  return mp.network.ranks_on_a_node(ranks) * t;
}

PricedJob hybrid_job(const Options& opt, int p, const MachineParams& mp) {
  const space::AsRun in = space::hybrid_inner(opt, p);
  PricedJob job{in.opt, in.ranks, mp};
  const int t = std::max(1, opt.hybrid);
  if (t > 1 && job.mp.network.ranks_per_node > 0)
    job.mp.network.ranks_per_node = std::max(1, job.mp.network.ranks_per_node / t);
  return job;
}

Prediction refined_prediction(const AlgorithmModel& model, const Problem& pb, const Options& opt, int p,
                              const MachineParams& mp) {
  PricedJob job = hybrid_job(opt, p, mp);
  job.mp.busy_cores = busy_cores_of(model, job.p, job.opt.threads, job.mp);
  return model.refined(pb, job.opt, job.p, job.mp);
}

Prediction paper_prediction(const AlgorithmModel& model, const Problem& pb, const Options& opt, int p,
                            const MachineParams& mp) {
  const PricedJob job = hybrid_job(opt, p, mp);
  return model.paper(pb, job.opt, job.p, job.mp);
}

std::shared_ptr<const space::Q7SplitTable> choose_q7_splits(const AlgorithmModel& model, const Problem& pb,
                                                            const Options& opt, int p, const MachineParams& mp) {
  if (model.schema != "q7" || !model.q7_leaf)
    throw std::invalid_argument("--q7-split model: the algorithm is not a Q7 combination (schema '" +
                                std::string(model.schema) + "')");
  const PricedJob hybrid = hybrid_job(opt, p, mp);
  Options paper = hybrid.opt;
  paper.q7_splits = nullptr;
  auto table = std::make_shared<space::Q7SplitTable>();
  MachineParams job = for_job(hybrid.mp, hybrid.p);  // as the algorithm's refined predictor prices it
  job.busy_cores = busy_cores_of(model, hybrid.p, paper.threads, hybrid.mp);
  refined_q7(pb, paper, hybrid.p, job, model.q7_leaf(paper, job), table.get());
  return table;
}

}  // namespace mmbench::model
