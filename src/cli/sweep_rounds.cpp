#include "cli/sweep_rounds.hpp"

#include <mpi.h>

#include <fmt/format.h>

#include <list>
#include <memory>

#include "cli/round_statistics.hpp"
#include "core/affinity.hpp"
#include "core/blas.hpp"
#include "core/dist_matrix.hpp"
#include "core/generate.hpp"
#include "core/paired_stats.hpp"
#include "core/timing.hpp"
#include "core/verify.hpp"

namespace mmbench::cli {

namespace {

// Before the BLAS creates its threads; said once, it changes placement.
void widen_for(int threads) {
  static bool told = false;
  const int before = cpus_available_to_me();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (widen_affinity_for(threads) && rank == 0 && !told) {
    fmt::print(stderr, "note: widened the CPU affinity of rank 0 from {} to {} CPUs for {} BLAS threads per rank "
                       "(mpirun bound it; use mpirun --bind-to none or --map-by slot:PE=N to place threads yourself)\n",
               before, cpus_available_to_me(), threads);
    told = true;
  }
}

// A configuration ready to be timed.
struct Prepared {
  std::unique_ptr<algos::Plan> plan;
  DistMatrix A, B, C;
};

// Prepared configurations, kept while they fit in the memory given; least
// recently used first out.
class PreparedSet {
 public:
  PreparedSet(const std::vector<const Config*>& configs, const RoundSettings& s, const Comm& world)
      : configs_(configs), s_(s), world_(world), slots_(configs.size()) {
    for (const Config* c : configs)
      need_.push_back(c->algo->estimate_doubles_per_rank(c->pb, c->opt, world.size()));
  }

  Prepared& get(std::size_t i) {
    lru_.remove(i);
    lru_.push_back(i);
    if (slots_[i]) return *slots_[i];
    // Free the least recently used until this one fits (it always may run
    // alone: the sweep refused configurations that cannot fit at all).
    while (held_ + need_[i] > s_.memory_doubles_per_rank && lru_.size() > 1 && lru_.front() != i) {
      const std::size_t victim = lru_.front();
      lru_.pop_front();
      if (slots_[victim]) {
        slots_[victim].reset();
        held_ -= need_[victim];
      }
    }
    slots_[i] = prepare(*configs_[i]);
    held_ += need_[i];
    return *slots_[i];
  }

 private:
  std::unique_ptr<Prepared> prepare(const Config& c) {
    widen_for(c.opt.threads);
    set_blas_threads(c.opt.threads);
    auto p = std::make_unique<Prepared>();
    p->plan = c.algo->plan(c.pb, c.opt, world_);
    p->A = DistMatrix(p->plan->layout_a(), world_.rank());
    p->B = DistMatrix(p->plan->layout_b(), world_.rank());
    p->C = DistMatrix(p->plan->layout_c(), world_.rank());
    generate(p->A, s_.data_seed);
    generate(p->B, s_.data_seed + 1);
    for (int w = 0; w < s_.warmup; ++w)
      run_taking_part(world_, [&] { p->plan->multiply(p->A, p->B, p->C); }, p->plan->takes_part());
    return p;
  }

  const std::vector<const Config*>& configs_;
  const RoundSettings& s_;
  const Comm& world_;
  std::vector<std::unique_ptr<Prepared>> slots_;
  std::vector<double> need_;
  std::list<std::size_t> lru_;
  double held_ = 0;
};

void verify_first_run(Prepared& p, const RoundSettings& s, const Comm& world, Measured& m) {
  // After the first run: workspaces that grow on first use are at their peak.
  const double mine = static_cast<double>(p.A.local.size() + p.B.local.size() + p.C.local.size() +
                                          p.plan->workspace_doubles());
  m.peak_mem_mb = world.max(mine) * 8.0 / (1 << 20);
  if (!s.verify) return;
  m.residual = normwise_residual(p.A, p.B, p.C, world, s.data_seed + 2);
  // Ranks may differ (leaves of different sizes do different local levels):
  // every rank checks against the largest growth.
  m.residual_limit = kClassicalResidualLimit * world.max(p.plan->error_growth());
}

// Rank 0 decides whether to run another round; everyone follows.
bool agree(const Comm& world, bool rank0_says) {
  int v = rank0_says ? 1 : 0;
  if (MPI_Bcast(&v, 1, MPI_INT, 0, world.get()) != MPI_SUCCESS) throw std::runtime_error("MPI_Bcast failed");
  return v == 1;
}

}  // namespace

std::vector<Measured> measure_in_rounds(const std::vector<const Config*>& configs, std::optional<std::size_t> peer,
                                        const RoundSettings& s, const Comm& world,
                                        const std::function<void(int, int, const Config&)>& progress) {
  std::vector<Measured> out(configs.size());
  if (configs.empty()) return out;
  PreparedSet prepared(configs, s, world);
  const bool automatic = s.rounds <= 0;
  const double t_start = MPI_Wtime();
  std::vector<std::vector<double>> times(configs.size());
  for (int round = 0;; ++round) {
    const int planned = automatic ? std::max(round + 1, kAutoFirstPreciseRounds) : s.rounds;
    const double t_round = MPI_Wtime();
    for (std::size_t i : round_order(configs.size(), s.order_seed, round)) {
      const Config& c = *configs[i];
      if (progress) progress(round, planned, c);
      Prepared& p = prepared.get(i);
      set_blas_threads(c.opt.threads);
      const double t = time_max_over_ranks(world, [&] { p.plan->multiply(p.A, p.B, p.C); }, p.plan->takes_part());
      out[i].times.push_back(t);
      times[i].push_back(t);
      if (round == 0) verify_first_run(p, s, world, out[i]);
      if (round == 0 && world.rank() == 0) out[i].warning = p.plan->warning();
      if (round == 0) out[i].described = p.plan->describe();
    }
    const int done = round + 1;
    if (!automatic) {
      if (done >= s.rounds) break;
      continue;
    }
    // --reps auto: another round while the precision is not reached, the
    // next round (as long as this one) still fits the budget, and the cap
    // is not hit. Rank 0's clock decides; the times are the same everywhere.
    bool more = false;
    if (world.rank() == 0) {
      const double now = MPI_Wtime();
      const bool fits = (now - t_start) + (now - t_round) <= s.budget_s;
      more = done < kAutoMinRounds ||
             (done < kAutoMaxRounds && fits && !precise_enough(times, peer, s.precision, kAutoFirstPreciseRounds));
    }
    if (!agree(world, more)) break;
  }
  return out;
}

}  // namespace mmbench::cli
