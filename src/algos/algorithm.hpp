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

#include "algos/memory_estimate.hpp"
#include "algos/vocabulary.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/dist_matrix.hpp"

namespace mmbench::model {
struct AlgorithmModel;  // model/algorithm_models.hpp
}

namespace mmbench::algos {

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
  // (core/stats/timing.hpp), so they do not compete for the workers' cores.
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
  // to the header (results/results_schema.hpp), so reporting a new value is a
  // change inside the algorithm's unit; tests/mpi/test_algorithms checks
  // that describe() writes nothing undeclared.
  virtual std::vector<std::string> columns() const = 0;
  // Same answer on every rank (it depends only on its arguments). A ranks x
  // threads hybrid (opt.hybrid = t > 1, space/hybrid.hpp) applies where t
  // divides ranks, the algorithm can run as one (uses().hybrid) and it
  // applies itself on ranks / t ranks with t x threads threads
  // (check_on_ranks); otherwise check_on_ranks decides.
  Applicability check(const Problem& pb, const Options& opt, int ranks) const;
  // What a plan holds per rank at its peak (algos/memory_estimate.hpp), for
  // the rank that holds the most, estimated without building anything: the
  // ranking excludes candidates over a memory limit, the sweep refuses
  // configurations that cannot fit before allocating, and the results CSV
  // shows it beside the measured peak. The algorithm's own
  // plan_memory() where check() passes, else an even share of A, B and C
  // (no plan will be built).
  // A hybrid: what each computing rank holds (its idle ranks hold nothing).
  MemoryEstimate memory(const Problem& pb, const Options& opt, int ranks) const;
  double estimate_doubles_per_rank(const Problem& pb, const Options& opt, int ranks) const {
    return memory(pb, opt, ranks).total();
  }
  static MemoryEstimate even_share(const Problem& pb, int ranks) {
    MemoryEstimate m;
    add_buffers(m, &MemoryEstimate::a, double(pb.m) * double(pb.k) / ranks);
    add_buffers(m, &MemoryEstimate::b, double(pb.k) * double(pb.n) / ranks);
    add_buffers(m, &MemoryEstimate::c, double(pb.m) * double(pb.n) / ranks);
    return m;
  }
  // Collective over comm. Only called when check() passed. A hybrid is the
  // algorithm's plan on the computing ranks (algos/hybrid_plan.hpp).
  std::unique_ptr<Plan> plan(const Problem& pb, const Options& opt, const Comm& comm) const;
  // The buffers its plan allocates on the rank that holds the most (the
  // parts of memory_estimate.hpp), defined in the algorithm's own file beside
  // its cost models; only called where check() passed. An algorithm cannot
  // compile without it. tests/mpi/test_memory checks it against what the
  // plan really allocates (core/machine/memory_account.hpp).
  virtual MemoryEstimate plan_memory(const Problem& pb, const Options& opt, int ranks) const = 0;
  // Its paper and refined cost models (model/algorithm_models.hpp), defined
  // in the algorithm's own file: what predict, explain, auto and --validate
  // price it with. Same answer for every call.
  virtual const model::AlgorithmModel& models() const = 0;

 protected:
  // The algorithm itself, one configuration on `ranks` ranks (opt.hybrid is
  // 1 here): what each algorithm's unit defines, and check() and plan()
  // call. Same answer on every rank.
  virtual Applicability check_on_ranks(const Problem& pb, const Options& opt, int ranks) const = 0;
  // Collective over comm; only called where check_on_ranks passed.
  virtual std::unique_ptr<Plan> plan_on_ranks(const Problem& pb, const Options& opt, const Comm& comm) const = 0;
};

}  // namespace mmbench::algos
