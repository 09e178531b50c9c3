// dgemm: the single-node baseline (docs/method.md §2.1).
//
// Layout: all of A, B, C on rank 0. Rank 0 calls BLAS DGEMM with
// threads x p BLAS threads -- all the cores the job was given -- while the
// other ranks take no part (takes_part() is false there): the caller lets
// them sleep, and its clock sees rank 0 alone. With p = 1 this is plain DGEMM; with p > 1
// it is the peer a single-node user would pick instead of MPI, measured in
// the same sweep as the parallel algorithms. The CSV row says p = 1 and the
// real thread count, so the figure is never mistaken for a p-rank run.
#include "algos/algorithm.hpp"
#include "core/machine/affinity.hpp"
#include "core/machine/blas.hpp"
#include "core/simulation.hpp"
#include "local/local_multiply.hpp"
#include "model/algorithm_models.hpp"
#include "model/paper_model.hpp"

namespace mmbench::algos {

namespace {

class DgemmPlan : public Plan {
 public:
  DgemmPlan(const Problem& pb, const Options& opt, const Comm& comm)
      : pb_(pb), comm_(comm), threads_(opt.threads * comm.size()),
        local_(opt.local, threads_),
        a_(single_owner(pb.m, pb.k, comm.size(), 0)),
        b_(single_owner(pb.k, pb.n, comm.size(), 0)),
        c_(single_owner(pb.m, pb.n, comm.size(), 0)) {
    // Rank 0 will run threads x p threads: let them use the node's cores,
    // here and in multiply() only. The scope gives the previous mask back,
    // so the configurations that follow in the sweep (one thread per rank)
    // run where mpirun placed them, not spread over the node.
    if (comm.rank() == 0) {
      const ScopedWideAffinity wide(threads_);
      local_.prepare(pb.m, pb.n, pb.k);
    }
  }
  const Layout& layout_a() const override { return a_; }
  const Layout& layout_b() const override { return b_; }
  const Layout& layout_c() const override { return c_; }
  void multiply(const DistMatrix& A, const DistMatrix& B, DistMatrix& C) override {
    if (!takes_part()) return;
    // Two sched_setaffinity calls, microseconds against the multiply. The
    // BLAS threads created in this scope keep the wide mask; they only run
    // inside it.
    const ScopedWideAffinity wide(threads_);
    const ScopedBlasThreads all_cores(threads_);
    local_(pb_.m, pb_.n, pb_.k, A.data(), std::max<Index>(1, pb_.m), B.data(), std::max<Index>(1, pb_.k),
           C.data(), std::max<Index>(1, pb_.m));
  }
  bool takes_part() const override { return comm_.rank() == 0; }
  Index workspace_doubles() const override { return local_.workspace_doubles(); }
  double error_growth() const override { return local_.error_growth(); }
  std::map<std::string, std::string> describe() const override { return local_.describe(); }
  // One rank with all the job's cores.
  AsRun as_run(const Options& asked, int) const override {
    AsRun r{asked, 1};
    r.opt.threads = threads_;
    return r;
  }

 private:
  Problem pb_;
  const Comm& comm_;
  int threads_;
  local::LocalMultiply local_;
  Layout a_, b_, c_;
};

// Cost models: eq. 2.10 on one rank with p x threads BLAS threads.
model::Prediction paper_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return model::scale_comp(model::paper_dgemm(pb.m, pb.n, pb.k, mp), 1.0 / (model::threads_of(opt) * p));
}

model::Prediction refined_time(const Problem& pb, const Options& opt, int p, const model::MachineParams& mp) {
  return {0.0, model::refined_local_time(double(pb.m), double(pb.n), double(pb.k), model::threads_of(opt) * p,
                                         model::local_of(opt.local), mp)};
}

class Dgemm : public Algorithm {
 public:
  std::string_view name() const override { return "dgemm"; }
  std::string_view summary() const override {
    return "BLAS DGEMM on rank 0 with all the job's cores as threads (the single-node peer)";
  }
  std::string_view requirements() const override { return "any p (uses rank 0 with threads x p BLAS threads)"; }
  std::string_view layout() const override { return "A, B, C whole on rank 0"; }
  Uses uses() const override { return Uses{.local_levels = true, .hybrid = false}; }
  std::vector<std::string> columns() const override { return local::LocalMultiply::columns(); }
  // A real-compute simulation (SMPI) runs every rank on one thread and
  // charges the time it took, so the peer's p-thread DGEMM would be timed
  // on one thread and reported as p: off by about p, and every `vs peer`
  // ratio with it. Scaling that time by p would put an ideal thread speed-up
  // in the denominator of every ratio, so the row is not-applicable
  // instead; charged simulation prices it from the profile's measured
  // thread efficiency (core/simulation.hpp).
  Applicability check_on_ranks(const Problem&, const Options& opt, int ranks) const override {
    if (sim::simulated() && !sim::charged() && opt.threads * ranks > 1)
      return {"a real-compute simulation (SMPI) runs rank 0 on one thread, not the " +
              std::to_string(opt.threads * ranks) +
              " the peer has: its time would be one thread's (use --compute charged, which prices the p-thread "
              "DGEMM from the profile)"};
    return {};
  }
  // A, B, C whole on rank 0 and the local kernel's workspace for its
  // threads x p threads; the other ranks hold nothing.
  MemoryEstimate plan_memory(const Problem& pb, const Options& opt, int ranks) const override {
    MemoryEstimate m;
    add_buffers(m, &MemoryEstimate::a, double(pb.m) * double(pb.k));
    add_buffers(m, &MemoryEstimate::b, double(pb.k) * double(pb.n));
    add_buffers(m, &MemoryEstimate::c, double(pb.m) * double(pb.n));
    add_buffers(m, &MemoryEstimate::local,
                double(local::LocalMultiply::workspace_doubles_needed(pb.m, pb.n, pb.k, opt.local, opt.threads * ranks)));
    m.holders = 1;
    return m;
  }
  std::unique_ptr<Plan> plan_on_ranks(const Problem& pb, const Options& opt, const Comm& comm) const override {
    return std::make_unique<DgemmPlan>(pb, opt, comm);
  }
  const model::AlgorithmModel& models() const override {
    static const model::AlgorithmModel m{.paper = paper_time, .refined = refined_time, .one_node = true};
    return m;
  }
};

}  // namespace

const Algorithm& dgemm_algorithm() {
  static const Dgemm a;
  return a;
}

}  // namespace mmbench::algos
