// Measuring the configurations of one problem size in paired, interleaved
// rounds (core/stats/paired_stats.hpp says why).
//
//   round 0: c2 c0 c1      each round runs every applicable configuration
//   round 1: c1 c2 c0      once, in an order shuffled per round from the
//   round 2: c0 c1 c2      order seed, so drift of the machine hits all alike
//
// A configuration is prepared (plan, A and B generated, C allocated, the
// warm-up runs done) the first time it is needed and kept for the next
// rounds while the prepared set fits in memory. When it does not (large n,
// many candidates), the least recently used one is freed and prepared again
// when its turn comes, warm-up included, so every timed run is warm either
// way. The decisions depend only on the estimates and the order, which
// every rank computes alike, so all ranks agree without talking.
//
// The result of the first timed run of each configuration is verified
// (normwise residual) while it is certainly prepared; the algorithms are
// deterministic, so later runs compute the same C.
//
// Failures: a configuration whose plan, allocation or multiplication throws
// on any rank is dropped from the remaining rounds with the reason (the
// ranks agree on it with Comm::first_error at the end of each phase), and
// the sweep goes on. This holds for failures every rank reaches the end of
// the phase from: thrown on all ranks alike (a plan's precondition), or
// before a rank's first message of the phase (allocation). A rank that
// fails while others wait for it inside a collective leaves MPI unusable;
// the job then ends (main: MPI_Abort) with the rows already written intact.
//
// Interrupts: between timed runs the ranks ask core/mpi/interrupt.hpp whether
// SIGINT/SIGTERM arrived; if so the rounds stop and the result says which.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "run/configuration.hpp"
#include "core/mpi/comm.hpp"

namespace mmbench::run {

struct RoundSettings {
  int rounds = 3;           // fixed number of rounds; 0 = auto (--reps auto)
  int warmup = 1;           // untimed runs after each preparation
  double precision = 0.02;  // auto: target relative half-width of every ratio's interval
  double budget_s = std::numeric_limits<double>::infinity();  // auto: seconds of rounds for this problem size
  std::uint64_t order_seed = 1;                               // shuffles the order of every round
  std::uint64_t data_seed = 42;  // the generated matrices (A: seed, B: seed + 1, check vector: seed + 2)
  bool verify = true;
  double memory_doubles_per_rank = 0;  // for prepared configurations kept alive; 0 = keep one at a time
};

// One configuration after its rounds.
struct Measured {
  std::vector<double> times;                  // one per round: max over the ranks that took part
  double residual = -1, residual_limit = -1;  // -1: not verified
  double relative_residual = -1;              // core/matrix/verify.hpp
  double peak_mem_mb = 0;
  // The high-water mark of mmbench's own buffers from the plan's
  // construction through the first timed multiply (core/machine/memory_account.hpp),
  // MiB, the maximum over ranks: what the memory prediction is checked
  // against.
  double mem_hwm_mb = 0;
  // The growth of the process's peak resident set over the same window
  // (core/machine/process_memory.hpp: VmHWM after a reset), MiB, the maximum over
  // ranks; -1 where a rank could not measure it (no /proc/self/clear_refs,
  // a simulation).
  double mem_rss_mb = -1;
  std::map<std::string, std::string> described;  // Plan::describe() after the runs
  // Plan::as_run() after the first round: set for every configuration that
  // did not fail (rows and model prices read it).
  std::optional<algos::AsRun> as_run;
  std::string warning;  // Plan::warning(), rank 0
  std::string failure;  // why it failed ("" = it did not), same on every rank
};

struct RoundsResult {
  std::vector<Measured> measured;  // one per configuration
  int signal = 0;                  // SIGINT/SIGTERM that stopped the rounds early, 0 = ran to the end
};

// Runs `configs` (all applicable, one problem size) in rounds. peer: the
// index of the peer among them, if any (the reference for --reps auto).
// progress(round, rounds_planned, config) is called on every rank before
// each timed run. Collective over world.
RoundsResult measure_in_rounds(const std::vector<const Config*>& configs, std::optional<std::size_t> peer,
                               const RoundSettings& settings, const Comm& world,
                               const std::function<void(int, int, const Config&)>& progress);

}  // namespace mmbench::run
