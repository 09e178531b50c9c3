// The cost model of every algorithm, by its name in the registry: one line
// per algorithm in algorithm_models.cpp, a paper predictor (Tab. 2.5 as
// printed, paper_model.hpp) and a refined one (refined_model.hpp).
//
// Every registered algorithm must have a line here (unit test
// Registry.EveryAlgorithmHasModelsAndHelp): an algorithm without a model
// would silently be left out of auto, explain and --validate.
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
//   same flop count); the refined predictor takes m, n, k as they are.
// - Options are resolved the way the algorithms resolve them: lb 0 -> 32
//   (ScaLAPACK's default), grid 0x0 -> most square, recursions -1 -> the
//   deepest that applies (resolve_recursions).
// - local_levels / local_min_dim / local_variant (local Strassen-Winograd
//   inside each rank) are priced by refined_local_time level by level,
//   additions included; pdgemm and pdgemm leaves ignore them (ScaLAPACK's
//   DGEMM); the paper predictor ignores them.
// - opt.q7_splits: the refined Q7 models price the splits the run uses.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "algos/algorithm.hpp"
#include "model/machine_params.hpp"
#include "model/prediction.hpp"

namespace mmbench::model {

using PredictFn = Prediction (*)(const algos::Problem& pb, const algos::Options& opt, int p, const MachineParams& mp);

struct AlgorithmModel {
  std::string_view name;    // as in the registry
  std::string_view schema;  // "q7", "q8" or "" (classical)
  std::string_view cutoff;  // algorithm at the cut-off level, "" if none
  PredictFn paper;
  PredictFn refined;
  // Runs on one node whatever p is (dgemm: rank 0 with p x threads BLAS
  // threads), so it only applies while p x threads fits one node's cores.
  bool one_node = false;
};

// All models, in the order of the table.
const std::vector<AlgorithmModel>& algorithm_models();
// nullptr if no model has this name.
const AlgorithmModel* find_model(std::string_view name);

// The recursion depth an algorithm uses for opt.recursions = -1 on p ranks:
//   Q7: floor(log7 p) (eq. 2.9), at least 1 when p >= 4;
//   Q8: the largest r with p divisible by 4^r whose cut-off fits p' = p/4^r
//       (dgemm: p' = 1; pdgemm: p' >= 2; tpmm: p' a power of two);
//   classical: 0. Returns opt.recursions itself when it is >= 0.
// Example: strassen-q8+pdgemm, p = 32 -> r = 2 (p' = 2); +dgemm, p = 64 -> 3.
int resolve_recursions(const AlgorithmModel& model, const algos::Options& opt, int p);

// --q7-split model: the Q7 splits the refined model predicts fastest for
// this problem, for every (levels to go, group size) of the recursion (see
// refined_strassen_q7), to put into Options::q7_splits. opt supplies r,
// threads, nb, lb and the local kernel; its own q7_splits is ignored.
// Throws std::invalid_argument for a model that is not Q7 or a depth the
// model cannot split.
std::shared_ptr<const algos::Q7SplitTable> choose_q7_splits(const AlgorithmModel& model, const algos::Problem& pb,
                                                            const algos::Options& opt, int p,
                                                            const MachineParams& mp);

}  // namespace mmbench::model
