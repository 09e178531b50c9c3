#include "run/sweep_rounds.hpp"

#include <mpi.h>

#include <fmt/format.h>

#include <list>
#include <memory>

#include "run/round_statistics.hpp"
#include "core/machine/affinity.hpp"
#include "core/machine/blas.hpp"
#include "core/matrix/dist_matrix.hpp"
#include "core/fault_injection.hpp"
#include "core/matrix/generate.hpp"
#include "core/mpi/interrupt.hpp"
#include "core/machine/memory_account.hpp"
#include "core/stats/paired_stats.hpp"
#include "core/machine/process_memory.hpp"
#include "core/simulation.hpp"
#include "core/stats/timing.hpp"
#include "core/matrix/verify.hpp"

namespace mmbench::run {

namespace {

// A configuration's BLAS threads may use the node's cores while it is
// prepared or timed (ScopedWideAffinity, before the BLAS creates them); the
// scope gives the previous mask back, so a configuration of one thread per
// rank that follows runs where mpirun placed it. Said once: it changes
// placement.
void tell_if_widened(const ScopedWideAffinity& wide, int before, int threads) {
  static bool told = false;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (wide.widened() && rank == 0 && !told) {
    fmt::print(stderr,
               "note: widened the CPU affinity of rank 0 from {} to {} CPUs for {} BLAS threads per rank "
               "(mpirun bound it; use mpirun --bind-to none or --map-by slot:PE=N to place threads yourself)\n",
               before, cpus_available_to_me(), threads);
    told = true;
  }
}

// A configuration ready to be timed.
struct Prepared {
  std::unique_ptr<algos::Plan> plan;
  DistMatrix A, B, C;
  // Where its memory window opened (before the plan was built): mmbench's
  // buffers held then (the other prepared configurations'), and the
  // process's resident set, -1 where its peak could not be reset.
  std::size_t buffers_before = 0;
  std::int64_t resident_before = -1;
};

// Prepared configurations, kept while they fit in the memory given; least
// recently used first out.
class PreparedSet {
 public:
  PreparedSet(const std::vector<const Config*>& configs, const RoundSettings& s, const Comm& world)
      : configs_(configs), s_(s), world_(world), slots_(configs.size()) {
    for (const Config* c : configs) need_.push_back(c->algo->estimate_doubles_per_rank(c->pb, c->opt, world.size()));
  }

  // The prepared configuration i, or nullptr with `failure` set (on every
  // rank alike) if preparing it failed on any rank.
  Prepared* get(std::size_t i, std::string& failure) {
    lru_.remove(i);
    lru_.push_back(i);
    if (slots_[i]) return slots_[i].get();
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
    slots_[i] = prepare(*configs_[i], failure);
    if (!slots_[i]) {
      lru_.remove(i);
      return nullptr;
    }
    held_ += need_[i];
    return slots_[i].get();
  }

 private:
  // Three phases, each closed by an agreement over the ranks: the plan
  // (collective), the matrices (local allocation and generation), the
  // warm-up runs (collective).
  std::unique_ptr<Prepared> prepare(const Config& c, std::string& failure) {
    const int cpus_before = cpus_available_to_me();
    const ScopedWideAffinity config_cpus(c.opt.threads);
    tell_if_widened(config_cpus, cpus_before, c.opt.threads);
    // This configuration's thread count for its plan and warm-up only; the
    // timed runs set it again (scoped) so no count leaks to the next one.
    const ScopedBlasThreads config_threads(c.opt.threads);
    auto p = std::make_unique<Prepared>();
    // The memory window: the peaks restart from what is held now, so what
    // the plan, the matrices and the runs add shows as their growth.
    p->buffers_before = memory_account::current_bytes();
    memory_account::reset_peak();
    if (!sim::simulated() && process_memory::reset_peak_resident())
      p->resident_before = process_memory::resident_bytes();
    const std::string_view name = c.algo->name();
    const int rank = world_.rank(), ranks = world_.size();
    auto phase = [&](const char* what, const std::function<void()>& f) {
      std::string mine;
      try {
        maybe_inject_fault(name, what, rank, ranks);
        f();
      } catch (const std::bad_alloc&) {
        mine = std::string(what) + ": out of memory (std::bad_alloc)";
      } catch (const std::exception& e) {
        mine = std::string(what) + ": " + e.what();
      }
      failure = world_.first_error(mine);
      return failure.empty();
    };
    if (!phase("plan", [&] { p->plan = c.algo->plan(c.pb, c.opt, world_); })) return nullptr;
    if (!phase("alloc", [&] {
          p->A = DistMatrix(p->plan->layout_a(), rank);
          p->B = DistMatrix(p->plan->layout_b(), rank);
          p->C = DistMatrix(p->plan->layout_c(), rank);
          if (!sim::charged()) {  // charged simulation: contents never used (core/simulation.hpp)
            generate(p->A, s_.data_seed);
            generate(p->B, s_.data_seed + 1);
          }
        }))
      return nullptr;
    if (!phase("warm-up", [&] {
          for (int w = 0; w < s_.warmup; ++w)
            run_taking_part(
                world_, [&] { p->plan->multiply(p->A, p->B, p->C); }, p->plan->takes_part());
        }))
      return nullptr;
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
  const double mine =
      static_cast<double>(p.A.local.size() + p.B.local.size() + p.C.local.size() + p.plan->workspace_doubles());
  m.peak_mem_mb = world.max(mine) * 8.0 / (1 << 20);
  // The window closes here, before the verification allocates its vectors.
  // Nothing else was prepared since it opened: a configuration's first
  // timed run follows its preparation in the same round.
  m.mem_hwm_mb = world.max(double(memory_account::peak_bytes() - p.buffers_before)) / (1 << 20);
  const std::int64_t peak = p.resident_before >= 0 ? process_memory::peak_resident_bytes() : -1;
  const double grown = peak >= 0 ? double(std::max<std::int64_t>(0, peak - p.resident_before)) : -1.0;
  const double worst_missing = world.min(grown);  // -1 if any rank could not measure
  m.mem_rss_mb = worst_missing < 0 ? -1.0 : world.max(grown) / (1 << 20);
  if (!s.verify || sim::charged()) return;  // charged simulation: nothing computed to verify
  const Residuals r = residuals(p.A, p.B, p.C, world, s.data_seed + 2);
  m.residual = r.normwise;
  m.relative_residual = r.relative;
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

RoundsResult measure_in_rounds(const std::vector<const Config*>& configs, std::optional<std::size_t> peer,
                               const RoundSettings& s, const Comm& world,
                               const std::function<void(int, int, const Config&)>& progress) {
  RoundsResult result;
  std::vector<Measured>& out = result.measured;
  out.resize(configs.size());
  if (configs.empty()) return result;
  install_interrupt_handlers();
  PreparedSet prepared(configs, s, world);
  const bool automatic = s.rounds <= 0;
  const double t_start = MPI_Wtime();
  // Times of the configurations still in the race (failed ones are emptied).
  std::vector<std::vector<double>> times(configs.size());
  for (int round = 0;; ++round) {
    const int planned = automatic ? std::max(round + 1, kAutoFirstPreciseRounds) : s.rounds;
    const double t_round = MPI_Wtime();
    for (std::size_t i : round_order(configs.size(), s.order_seed, round)) {
      if (!out[i].failure.empty()) continue;
      if ((result.signal = interrupted(world)) != 0) return result;
      const Config& c = *configs[i];
      if (progress) progress(round, planned, c);
      Prepared* p = prepared.get(i, out[i].failure);
      if (!p) {
        times[i].clear();
        continue;
      }
      const ScopedWideAffinity config_cpus(c.opt.threads);
      const ScopedBlasThreads config_threads(c.opt.threads);
      std::string mine;
      const double t = time_max_over_ranks(
          world,
          [&] {
            try {
              maybe_inject_fault(c.algo->name(), "multiply", world.rank(), world.size());
              p->plan->multiply(p->A, p->B, p->C);
            } catch (const std::exception& e) {
              mine = std::string("multiply: ") + e.what();
            }
          },
          p->plan->takes_part());
      out[i].failure = world.first_error(mine);
      if (!out[i].failure.empty()) {
        times[i].clear();
        continue;
      }
      out[i].times.push_back(t);
      times[i].push_back(t);
      // OpenBLAS's workers spin for a while after a call of several threads
      // and take a core from whatever runs next: interleaved after the
      // 2-thread peer, the 2-thread packed GEMM read 0.48-1.04x the BLAS at
      // n = 1024, steady 0.94x with the workers' spin cut short
      // (docs/results.md, "OpenBLAS's spinning workers"). Let them stop
      // before the next configuration is timed, as tune's threaded step does.
      if (!sim::simulated() && p->plan->as_run(c.opt, world.size()).opt.threads > 1) let_blas_workers_stop_spinning();
      if (round == 0) {
        verify_first_run(*p, s, world, out[i]);
        if (world.rank() == 0) out[i].warning = p->plan->warning();
        out[i].described = p->plan->describe();
        out[i].as_run = p->plan->as_run(c.opt, world.size());
      }
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
  return result;
}

}  // namespace mmbench::run
