// What every algorithm in mmbench is: a name, its preconditions, its data
// layout, a Plan that multiplies, and its two cost models. One file per
// algorithm in this folder (the unit: check, plan and models side by side);
// registry.cpp lists them, and everything else (list, run, predict,
// explain, auto, --validate, the tests) reads that one list.
//
// Life of one measured configuration (cli/run_command.cpp):
//   check()  -> not applicable? write a row with the reason, go on
//   plan()   -> layouts of A, B, C and all resources (communicators, BLACS
//               grids, workspace, redistribution schedules); not timed
//   generate A, B in plan->layout_a(), layout_b()
//   multiply() warm-up + timed repetitions; verification of the last one
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "algos/strassen_groups.hpp"
#include "core/comm.hpp"
#include "core/dist_matrix.hpp"
#include "local/packed_gemm.hpp"

namespace mmbench::model {
struct AlgorithmModel;  // model/algorithm_models.hpp
}

namespace mmbench::algos {

// C (m x n) = A (m x k) * B (k x n).
struct Problem {
  Index m = 0, n = 0, k = 0;
  double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
};

// The tunable choices of one configuration. Algorithms ignore what they do
// not use (uses() says which they use).
struct Options {
  int threads = 1;        // BLAS threads per rank
  int nb = 64;            // block-cyclic block size
  int lb = 0;             // PBLAS logical block size; 0 = library default (32)
  // lb is a tuned width (--lb auto, a profile's lb), not an explicit one:
  // every PDGEMM -- also each leaf of parallel Strassen -- runs
  // lb_in_force(lb, capped, its k, its grid, nb) (core/lb_in_force.hpp).
  bool lb_tuned = false;
  int pr = 0, pc = 0;     // process grid; 0 = most square
  int recursions = -1;    // parallel Strassen levels; -1 = deepest that applies
  int local_levels = 0;   // local Strassen-Winograd levels in each rank (at most)
  std::string local_variant = "winograd";
  // A local level is done only while min(m, n, k) of the block is at least
  // this; 0 = the kernel's default (256). `--local-strassen auto` sets it to
  // the machine profile's measured crossover.
  std::int64_t local_min_dim = 0;
  // What multiplies at the bottom of the local levels (local/fast_gemm.hpp
  // LeafGemm): "blas" (OpenBLAS DGEMM) or "packed" (mmbench's packed GEMM,
  // the deepest level fused into it). With 0 levels "packed" is still the
  // local kernel -- the packed GEMM alone -- not plain DGEMM.
  std::string local_gemm = "blas";
  // The packed GEMM's block sizes where local_gemm is "packed"; zeros: its
  // kernel's defaults (a machine profile's tuned ones come from `run
  // --profile`, cli/sweep_expansion.cpp).
  local::PackedBlocking packed_blocking{};
  // Q7 group splits chosen by the cost model (--q7-split model); null = the
  // paper's eq. 2.18.
  std::shared_ptr<const Q7SplitTable> q7_splits;
  // 2.5d: layers c (p = q^2 c); 0 = the largest that applies.
  int replicas = 0;
};

// Which Options an algorithm reads (so a sweep does not repeat identical
// configurations for options the algorithm ignores).
struct Uses {
  bool grid = false, nb = false, lb = false, recursions = false, local_levels = false, q7_split = false,
       replicas = false;
};

// How a plan really ran: the options as asked with every choice the plan
// made filled in, and the ranks that computed. Typed, so the run's rows and
// its model prices need not read describe()'s CSV text back.
// Example: --algo strassen-q7+ring --recursions max on 56 ranks asks
// recursions = -1 and runs r = 2: opt.recursions = 2, ranks = 56. The dgemm
// peer on 4 ranks × 1 thread: ranks = 1, opt.threads = 4 (its one rank with
// all the job's cores; its models give the same price either way).
struct AsRun {
  Options opt;
  int ranks = 0;
};

// Empty reason = applicable.
struct Applicability {
  std::string reason;
  bool ok() const { return reason.empty(); }
};

class Plan {
 public:
  virtual ~Plan() = default;
  virtual const Layout& layout_a() const = 0;
  virtual const Layout& layout_b() const = 0;
  virtual const Layout& layout_c() const = 0;
  // Collective over the ranks that take part (takes_part()); ranks that do
  // not are never asked to multiply: the caller lets them wait idle
  // (core/timing.hpp), so they do not compete for the workers' cores.
  virtual void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) = 0;
  // Does this rank compute in multiply()? All ranks by default; the dgemm
  // peer computes on rank 0 alone.
  virtual bool takes_part() const { return true; }
  // Doubles of workspace this rank holds beyond A, B, C.
  virtual Index workspace_doubles() const { return 0; }
  // Factor by which the verification limit grows (fast algorithms).
  virtual double error_growth() const { return 1.0; }
  // CSV columns this plan knows (docs/csv-columns.md): schema, cutoff,
  // grid, nb, lb, lb_override, recursions, ... Called after the runs.
  virtual std::map<std::string, std::string> describe() const { return {}; }
  // The options as this plan used them (AsRun), after the runs: recursions
  // "max" -> the depth taken, grid auto -> the grid, lb -> the logical
  // block size ScaLAPACK used, replicas auto -> c. Default: as asked, on
  // all `ranks`.
  virtual AsRun as_run(const Options& asked, int ranks) const { return {asked, ranks}; }
  // Warnings to print once on rank 0 after the first multiplication
  // (e.g. "the lb override was not called").
  virtual std::string warning() const { return {}; }
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view summary() const = 0;       // one line for `mmbench list`
  virtual std::string_view requirements() const = 0;  // p, n constraints in words
  virtual std::string_view layout() const = 0;        // data layout in words
  virtual Uses uses() const { return {}; }
  // Every key its plans' describe() may write, i.e. the results CSV columns
  // it fills beyond the common ones. A name not yet in the CSV is appended
  // to the header (cli/results_schema.hpp), so reporting a new value is a
  // change inside the algorithm's unit; tests/mpi/test_algorithms checks
  // that describe() writes nothing undeclared.
  virtual std::vector<std::string> columns() const = 0;
  // Same answer on every rank (it depends only on its arguments).
  virtual Applicability check(const Problem& pb, const Options& opt, int ranks) const = 0;
  // Doubles per rank (max over ranks) that a plan will need for A, B, C and
  // workspace, estimated without building anything: the sweep refuses
  // configurations that cannot fit before allocating. Default: an even
  // share of the three matrices (block-cyclic, 1D blocks).
  virtual double estimate_doubles_per_rank(const Problem& pb, const Options&, int ranks) const {
    double mk = double(pb.m) * double(pb.k), kn = double(pb.k) * double(pb.n), mn = double(pb.m) * double(pb.n);
    return (mk + kn + mn) / ranks * 1.05;
  }
  // Collective over comm. Only called when check() passed.
  virtual std::unique_ptr<Plan> plan(const Problem& pb, const Options& opt, const Comm& comm) const = 0;
  // Its paper and refined cost models (model/algorithm_models.hpp), defined
  // in the algorithm's own file: what predict, explain, auto and --validate
  // price it with. Same answer for every call.
  virtual const model::AlgorithmModel& models() const = 0;
};

}  // namespace mmbench::algos
