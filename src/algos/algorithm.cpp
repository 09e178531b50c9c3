// Algorithm's entry points: the algorithm itself, or a ranks x threads
// hybrid of it (space/hybrid.hpp) -- one place, so every caller (run, the
// ranking, the memory check, the tests) sees hybrids alike.
#include "algos/algorithm.hpp"

#include <new>
#include <stdexcept>

#include "algos/hybrid_plan.hpp"
#include "core/machine/affinity.hpp"
#include "core/machine/blas.hpp"
#include "core/simulation.hpp"
#include "space/hybrid.hpp"

namespace mmbench::algos {

Applicability Algorithm::check(const Problem& pb, const Options& opt, int ranks) const {
  const int t = opt.hybrid;
  if (t == 1) return check_on_ranks(pb, opt, ranks);
  const std::string head = "hybrid " + std::to_string(t) + ": ";
  if (t < 1) return {head + "needs t >= 1"};
  if (!uses().hybrid)
    return {head + std::string(name()) + " already runs one rank with every core of the job (threads x p threads)"};
  if (ranks % t != 0)
    return {head + "p = " + std::to_string(ranks) + " is not a multiple of " + std::to_string(t) + " (one rank in " +
            std::to_string(t) + " computes, with " + std::to_string(t) + " x threads threads)"};
  if (sim::simulated()) return {head + "a simulated rank (SMPI) runs one thread: use more ranks, not threads"};
  const AsRun in = space::hybrid_inner(opt, ranks);
  Applicability inner = check_on_ranks(pb, in.opt, in.ranks);
  if (!inner.ok()) inner.reason = head + "on " + std::to_string(in.ranks) + " ranks: " + inner.reason;
  return inner;
}

MemoryEstimate Algorithm::memory(const Problem& pb, const Options& opt, int ranks) const {
  if (!check(pb, opt, ranks).ok()) return even_share(pb, ranks);
  const AsRun in = space::hybrid_inner(opt, ranks);
  return plan_memory(pb, in.opt, in.ranks);
}

std::unique_ptr<Plan> Algorithm::plan(const Problem& pb, const Options& opt, const Comm& comm) const {
  const int t = opt.hybrid;
  if (t == 1) return plan_on_ranks(pb, opt, comm);
  const AsRun in = space::hybrid_inner(opt, comm.size());
  auto workers = std::make_unique<Comm>(comm.split(space::hybrid_computes(comm.rank(), t) ? 0 : -1, comm.rank()));
  // The inner plan is collective over the workers alone; the idle ranks
  // learn whether it failed before the layouts are broadcast, so a failure
  // on a worker never leaves them waiting.
  std::unique_ptr<Plan> inner;
  std::string mine;
  if (!workers->is_null()) {
    try {
      // Its local kernels are prepared for the threads they will run.
      const ScopedWideAffinity wide(in.opt.threads);
      const ScopedBlasThreads threads(in.opt.threads);
      inner = plan_on_ranks(pb, in.opt, *workers);
    } catch (const std::bad_alloc&) {
      mine = "out of memory (std::bad_alloc)";
    } catch (const std::exception& e) {
      mine = e.what();
    }
  }
  if (std::string failed = comm.first_error(mine); !failed.empty()) throw std::runtime_error(failed);
  return make_hybrid_plan(std::move(inner), std::move(workers), comm, t, in.opt);
}

}  // namespace mmbench::algos
