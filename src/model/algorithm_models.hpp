// An algorithm's cost models: what each algorithm's unit in src/algos/
// declares beside its check and plan (Algorithm::models()), a paper
// predictor (Tab. 2.5 as printed, paper_model.hpp) and a refined one
// (refined_model.hpp), plus the building blocks those predictors share.
//
// There is no second table: algos::find_model(name) reads the registry
// (algos/registry.hpp), and an algorithm cannot compile without its
// models, so none is silently left out of auto, explain or --validate.
//
// Conventions for both predictors:
// - p is the number of MPI ranks of the job. dgemm runs on one rank with
//   threads x p BLAS threads (algos/dgemm.cpp): the paper model assumes
//   ideal thread scaling (the rate of one thread times p x threads), the
//   refined model the measured parallel efficiency where the profile has
//   one (refined_model.hpp, thread_speedup), else ideal scaling too.
// - threads > 1 divides computation by threads (paper) or by
//   thread_speedup(threads) (refined) everywhere.
// - The paper formulas are written for square n x n. For m, n, k not all
//   equal the paper predictor evaluates them at n = round(cbrt(m n k)) (the
//   same flop count, square_n); the refined predictor takes m, n, k as they are.
// - Options are resolved the way the algorithms resolve them: lb 0 -> 32
//   (ScaLAPACK's default), grid 0x0 -> most square, recursions -1 -> the
//   deepest that applies (resolve_recursions).
// - opt.local (levels, min_dim, variant, gemm: local Strassen-Winograd
//   inside each rank) are priced by refined_local_time level by level,
//   additions included; pdgemm and pdgemm leaves ignore them (ScaLAPACK's
//   DGEMM); the paper predictor ignores them.
// - opt.q7_splits: the refined Q7 models price the splits the run uses.
//
// Layering: this layer sees the configuration vocabulary (src/space/) and
// the local kernels (src/local/), never the algorithms above it.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "space/options.hpp"
#include "space/problem.hpp"
#include "model/machine_params.hpp"
#include "model/prediction.hpp"
#include "model/refined_model.hpp"

namespace mmbench::model {

using PredictFn = Prediction (*)(const space::Problem& pb, const space::Options& opt, int p, const MachineParams& mp);
// The refined price of one leaf group of a Q7 recursion, for these options.
using Q7LeafFn = LeafModel (*)(const space::Options& opt, const MachineParams& mp);

struct AlgorithmModel {
  std::string_view schema = {};  // "q7", "q8" or "" (classical)
  std::string_view cutoff = {};  // algorithm at the cut-off level, "" if none
  PredictFn paper = nullptr;
  PredictFn refined = nullptr;
  // Runs on one node whatever p is (dgemm: rank 0 with p x threads BLAS
  // threads), so it only applies while p x threads fits one node's cores.
  bool one_node = false;
  // Schema Q7: the leaf its refined predictor uses (refined_q7), so that
  // choose_q7_splits can search the splits; null otherwise.
  Q7LeafFn q7_leaf = nullptr;
};

// The recursion depth an algorithm uses for opt.recursions = -1 on p ranks:
//   Q7: floor(log7 p) (eq. 2.9), at least 1 when p >= 4;
//   Q8: the largest r with p divisible by 4^r whose cut-off fits p' = p/4^r
//       (dgemm: p' = 1; pdgemm: p' >= 2; tpmm: p' a power of two);
//   classical: 0. Returns opt.recursions itself when it is >= 0.
// Example: strassen-q8+pdgemm, p = 32 -> r = 2 (p' = 2); +dgemm, p = 64 -> 3.
int resolve_recursions(const AlgorithmModel& model, const space::Options& opt, int p);

// The cores of one node a configuration keeps computing at once: dgemm
// (one_node) runs p x threads threads on rank 0's node while the other
// ranks wait; every other algorithm runs threads on each of its ranks of a
// node -- mp.network.ranks_per_node where the profile knows it (at most
// p), else all p ranks on one node. Example: ring on p = 4, one thread,
// a profile of 16 ranks per node: 4; dgemm on p = 4 with --threads 2: 8.
int busy_cores_of(const AlgorithmModel& model, int p, int threads, const MachineParams& mp);

// A ranks x threads hybrid (opt.hybrid = t > 1, space/hybrid.hpp) is priced
// as the plain algorithm on its computing ranks: p / t ranks with t x
// threads threads, R / t of them on a node of R (network.ranks_per_node).
// Identity for t = 1. Example: p = 32, R = 16, t = 2 -> 16 ranks, 2
// threads, 8 per node.
struct PricedJob {
  space::Options opt;
  int p = 1;
  MachineParams mp;
};
PricedJob hybrid_job(const space::Options& opt, int p, const MachineParams& mp);

// model.refined, its DGEMMs priced for the cores the configuration keeps
// busy (mp.busy_cores = busy_cores_of, refined_model.hpp busy_core_speed),
// a hybrid as hybrid_job: what every caller that ranks or reports a refined
// prediction uses.
Prediction refined_prediction(const AlgorithmModel& model, const space::Problem& pb, const space::Options& opt, int p,
                              const MachineParams& mp);
// model.paper, a hybrid as hybrid_job.
Prediction paper_prediction(const AlgorithmModel& model, const space::Problem& pb, const space::Options& opt, int p,
                            const MachineParams& mp);

// --q7-split model: the Q7 splits the refined model predicts fastest for
// this problem, for every (levels to go, group size) of the recursion (see
// refined_strassen_q7), to put into Options::q7_splits. opt supplies r,
// threads, nb, lb and the local kernel; its own q7_splits is ignored.
// Throws std::invalid_argument for a model that is not Q7 or a depth the
// model cannot split.
std::shared_ptr<const space::Q7SplitTable> choose_q7_splits(const AlgorithmModel& model, const space::Problem& pb,
                                                            const space::Options& opt, int p,
                                                            const MachineParams& mp);

// ---- Building blocks of the units' predictors (the conventions above).

// The square size the paper formulas are evaluated at.
std::int64_t square_n(const space::Problem& pb);
int threads_of(const space::Options& opt);  // at least 1
// The lb a PDGEMM of inner dimension k on pr x pc runs with opt
// (core/lb_in_force.hpp): 0 -> 32, a tuned lb capped, an explicit one as is.
int lb_of(const space::Options& opt, double m, double n, double k, int pr, int pc);
// The local kernel LocalMultiply builds from this spec, as the model prices it.
LocalKernel local_of(const local::LocalKernelSpec& spec);
// --ring-chunks auto for ring with opt on `ranks` ranks (a hybrid on its
// computing ones): ring_chunks_by_model (refined_model.hpp), 1 or 0.
int ring_chunks_auto(const space::Options& opt, const space::Problem& pb, int ranks, const MachineParams& mp);
// pr with its computation multiplied by factor (paper: 1 / threads).
Prediction scale_comp(Prediction pr, double factor);
// The thesis priced untuned PDGEMM (lb = 32) with its own flop rate
// (2500 instead of 3300 MFLOPS on the Opteron cluster, section 2.5.4):
// mp with t_op_pdgemm_default as t_op when opt.lb is the default.
MachineParams pdgemm_params(const space::Options& opt, const MachineParams& mp);
// The depth of a Q7 / Q8 recursion (resolve_recursions); cutoff as in
// AlgorithmModel::cutoff.
int q7_r(const space::Options& opt, int p);
int q8_r(std::string_view cutoff, const space::Options& opt, int p);
// The refined Q7 recursion with this leaf at depth q7_r, pricing the splits
// the run uses (opt.q7_splits), or choosing them into *choose when set.
Prediction refined_q7(const space::Problem& pb, const space::Options& opt, int p, const MachineParams& mp,
                      const LeafModel& leaf, space::Q7SplitTable* choose = nullptr);

}  // namespace mmbench::model
