// The poly-algorithm's choice (docs/method.md §9): enumerate every applicable candidate
// (algorithm x r x grid x lb) for a problem on p ranks, predict each with
// both models, rank by one of them.
//
// Applicability is the algorithm's own check() from the registry, so only
// registered algorithms appear, and nothing here allocates per-rank data:
// enumerating p = 100000 costs a few hundred check() calls and model
// evaluations (the divisors of p give the grids).
#pragma once

#include <string>
#include <vector>

#include "algos/algorithm.hpp"
#include "model/machine_params.hpp"
#include "model/model_kind.hpp"
#include "model/prediction.hpp"
#include "ranking/option_table.hpp"

namespace mmbench::ranking {

using model::MachineParams;
using model::ModelKind;
using model::Prediction;

struct Candidate {
  const algos::Algorithm* algo = nullptr;
  algos::Options opt;  // concrete: recursions, grid and lb resolved
  Prediction paper, refined;
  // Its peak memory per rank (Algorithm::memory), the rank that holds the most.
  algos::MemoryEstimate memory;
  double time(ModelKind kind) const { return kind == ModelKind::paper ? paper.total() : refined.total(); }
  // Short description, e.g. "pdgemm grid=2x4 nb=64 lb=256",
  // "strassen-q7+ring r=2 split=model(19/18/17/10)", "ring L=2".
  std::string label() const;
};

struct Excluded {
  std::string label;   // as Candidate::label
  std::string reason;  // from check(), the one-node limit, memory, or the model
  bool memory = false;  // excluded by the memory limit (its predicted peak exceeds it)
};

// What to enumerate besides the algorithms' own structure.
struct CandidateSpace {
  // PBLAS logical block sizes to try for algorithms that use lb; 0 = the
  // library default (32). Default: 0 (32), 64, 128, 256, 512.
  std::vector<int> lbs = {0, 64, 128, 256, 512};
  // A profile's tuned lb, ranked as tuned (Options::lb_tuned: every PDGEMM
  // caps it at its own problem and grid); 0 = none.
  profile::TunedLb tuned;
  // Exclude candidates whose predicted peak per rank (Algorithm::memory,
  // total) exceeds this (0 = no limit), naming where the limit comes from in
  // the reason ("--memory-per-rank", "the profile", ...).
  double max_doubles_per_rank = 0;
  std::string memory_limit_source = "the memory available";
  // Cores of one node: one-node algorithms (dgemm) need p x threads <= this
  // (0 = no limit).
  int cores_per_node = 0;
  // Ranks x threads hybrids (Options::hybrid): rank every t up to this that
  // divides p, each computing rank's t x threads threads within
  // cores_per_node (1 = none: threads per rank as given). The caller sets it
  // where the profile measured threaded DGEMM, which prices them.
  int hybrid_max = 1;
  // Only these algorithm names (empty = every registered algorithm).
  std::vector<std::string> only;
  // Local Strassen levels L to try for algorithms that use them, each with
  // base.local.min_dim and base.local.variant (empty = base.local.levels
  // only).
  std::vector<int> local_levels;
  // Also rank each Q7 combination with the refined model's own split
  // (choose_q7_splits) where it differs from the paper's, for p up to this
  // (0 = never). Above a few thousand ranks the paper's rounding moves a
  // group's share by less than 7/p (0.2% at 4096), below what the model
  // can resolve, and the search over every level costs seconds.
  int q7_model_split_max_p = 4096;
  // Per row of option_table(), the values given on the command line for
  // the rows auto does not search itself (nb, the local GEMM, the fusion
  // schedule); empty: the base's value.
  std::vector<std::vector<Setting>> given;
};

// CandidateSpace::hybrid_max for a machine: where the profile measured
// threaded DGEMM (mp.thread_efficiency at thread_efficiency_threads), the
// threads it measured, within a node's cores for `threads` per rank; else 1
// (no hybrid): beyond what was measured the model would assume ideal thread
// scaling and favour hybrids for nothing. Example: measured at 16 threads,
// 16 cores per node, --threads 1 -> 16; not measured -> 1.
int hybrid_max_for(const MachineParams& mp, int cores_per_node, int threads);

struct Ranking {
  ModelKind model = ModelKind::refined;
  std::vector<Candidate> ranked;  // fastest first by `model`; ties keep enumeration order
  std::vector<Excluded> excluded;
};

// The candidate ranked after the first that runs something else, or nullptr
// where there is none: a tuned lb that comes out at a ladder's lb runs the
// same PDGEMM (pdgemm lb=512(auto) beside lb=512), so it is no runner-up.
// Candidates priced equal that run differently (ring and tpmm at p = 2) are.
const Candidate* runner_up(const Ranking& rk);

// base supplies threads, nb and the local kernel; grid, lb, recursions, L
// and the Q7 split are enumerated: every grid pr x pc = p with pr <= pc,
// every lb and L of the space, r = 1 .. floor(log4 p) + 1 for Strassen
// (check() rejects what does not apply), the paper's and the model's Q7
// split. Throws std::invalid_argument for p < 1 or an empty problem, and
// what the models throw for unusable machine parameters.
Ranking rank_candidates(const algos::Problem& pb, int p, const algos::Options& base, const MachineParams& mp,
                        ModelKind model, const CandidateSpace& space = {});

// Whether a configuration's predicted peak fits a limit of `limit_bytes` per
// rank on `ranks` ranks. A configuration whose data rank 0 alone holds (the
// dgemm peer: MemoryEstimate::holders 1) may use what all its ranks may, the
// others holding nothing.
bool fits_memory(const algos::MemoryEstimate& need, double limit_bytes, int ranks);
// Why it does not, the words of the exclusion and of run's not-applicable
// row: "needs 2.50 GiB (A 1.00 GiB, ...) per rank, more than the 2.00 GiB of
// --memory-per-rank", or for the dgemm peer "needs 24.0 GiB (...) on rank 0
// (the others hold nothing), more than the 16.0 GiB of 2 ranks at 8.00 GiB
// each (--memory-per-rank)".
std::string over_memory_reason(const algos::MemoryEstimate& need, double limit_bytes, const std::string& source,
                               int ranks);

// Both predictions of one configuration as it will run (or ran): the
// algorithm's models (Algorithm::models()) with its options resolved.
// Throws what the models throw (std::invalid_argument) for a configuration
// they do not cover.
void predict_configuration(const algos::Algorithm& algo, const algos::Problem& pb, const algos::Options& opt, int p,
                           const MachineParams& mp, Prediction& paper, Prediction& refined);

}  // namespace mmbench::ranking
