// The dispatcher behind libmmbench-dispatch.so's pdgemm_: per call, the
// checks, the decision (cached per grid and shape, agreed by the grid), the
// member's run or ScaLAPACK's, the census; at the end, the summary and every
// MPI resource freed. The preload (src/preload/dispatch_preload.cpp) owns
// what touches BLACS and the dynamic linker and hands this class plain
// values.
//
// A call, in order (docs/dispatch.md, "What a call goes through"):
//   1. the checks every call gets, before any cache: the arguments all of
//      the grid's processes pass alike (pass_reason, the settings'
//      MIN_DIM), then this process's own (local_reason);
//   2. the grid's state, found by the grid's processes -- their ranks in
//      MPI_COMM_WORLD in grid order, never a handle that BLACS or MPI hands
//      out again after the program frees a grid;
//   3. the decision, cached per grid by what prices it (price_key); on a
//      miss the grid's processes take the least idle pool any of them
//      holds (one small reduction), agree on the decision with another and
//      fall back to ScaLAPACK where they differ (a profile one process
//      cannot read, other BLAS threads);
//   4. a member not yet prepared for the shape is prepared only when that
//      pays: on a shape's first call if it wins with its preparation
//      priced in, later once the calls seen have saved what it costs.
//
// Memory: a grid keeps the members of its last few shapes prepared; the
// buffers of members it lets go (an older shape, a freed grid) wait in the
// process's buffer pool (core/matrix/buffer_pool.hpp) for the next shape's, so a
// program whose shapes change pays the first touch of fresh memory once,
// not per shape. Prepared members and the idle pool together stay within
// MMBENCH_DISPATCH_MAX_MB per grid; the pool is emptied at finish().
//
// Threads: each grid has its own lock, held across that grid's collectives
// only; the dispatcher's own lock is never held across a collective. Calls
// on one grid must come from one thread at a time (as BLACS requires);
// calls on different grids from different threads do not wait for each
// other here (they need MPI_THREAD_MULTIPLE, as they would without the
// library).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/mpi/comm.hpp"
#include "dispatch/census.hpp"
#include "dispatch/decision.hpp"
#include "dispatch/dispatch_settings.hpp"
#include "dispatch/member_run.hpp"
#include "dispatch/pdgemm_call.hpp"

namespace mmbench {
class CsvFile;
}

namespace mmbench::dispatch {

// A grid by its processes: pr x pc and the MPI_COMM_WORLD rank of the
// process at (r, c) at processes[r * pc + c]. Two BLACS contexts over the
// same processes in the same places are the same grid here.
struct GridKey {
  int pr = 0, pc = 0;
  std::vector<int> processes;
  auto operator<=>(const GridKey&) const = default;
};

// The caller's BLACS grid as the preload reads it.
class CallerGrid {
 public:
  virtual ~CallerGrid() = default;
  virtual int context() const = 0;  // the BLACS context handle
  virtual int pr() const = 0;
  virtual int pc() const = 0;
  virtual int myrow() const = 0;
  virtual int mycol() const = 0;
  // The grid's processes (GridKey::processes) without a message; empty
  // when one is not a process of MPI_COMM_WORLD.
  virtual std::vector<int> processes() = 0;
  // A new communicator of the grid's processes with rank = prow * pc +
  // pcol. Collective over the grid.
  virtual Comm communicator() = 0;
};

// What the dispatcher did with a call, for mmbench_dispatch_last_*.
struct CallReport {
  std::string choice;        // "scalapack lb=32", "ring", ...
  double error_growth = 1;   // the member's error bound over the classical one (1: classical)
};

class Dispatcher {
 public:
  // rank: this process's rank in MPI_COMM_WORLD; rank 0 writes the census
  // and the summary. Every process with a settings or profile problem
  // prints it once, here.
  Dispatcher(DispatchSettings settings, MachineFacts machine, int rank);
  ~Dispatcher();

  // One PDGEMM; scalapack() calls ScaLAPACK's with the caller's arguments.
  CallReport pdgemm(const PdgemmCall& call, CallerGrid& grid, const std::function<void()>& scalapack);
  // A call the dispatcher could not even read (a bad TRANS): to ScaLAPACK,
  // into the census.
  CallReport passed(char transa, char transb, long m, long n, long k, const std::string& why,
                    const std::function<void()>& scalapack);

  // The program freed BLACS context `ctxt` (collective over its grid, as
  // BLACS's gridexit is): a grid no live context of the program's still
  // names loses its prepared members and communicator.
  void context_freed(int ctxt);
  // BLACS freed every context (blacs_exit).
  void all_contexts_freed();

  // Force a member (as MMBENCH_DISPATCH_FORCE; "" = the model); false for
  // one that is not a member. Clears the decisions made so far; every
  // process must call it alike.
  bool force(const std::string& member);
  long calls() const { return calls_; }
  long dispatched() const { return dispatched_; }

  // The census summary (rank 0), then every plan and communicator freed:
  // called while MPI is still up (at MPI_Finalize).
  void finish();

 private:
  // Shapes whose member stays prepared per grid (a factorization's
  // trailing updates shrink call by call: keeping every shape would keep
  // every size's buffers).
  static constexpr std::size_t kMaxPrepared = 4;
  // Decisions kept per grid; past this many shapes the grid forgets them
  // all at once -- alike on every process, since they all see the grid's
  // calls in the same order.
  static constexpr std::size_t kMaxShapes = 4096;
  struct Prepared {
    std::string label;
    Index m, n, k;
    double bytes;  // the decision's estimate per rank
    std::unique_ptr<MemberRun> run;
  };
  struct Shape {
    Decision decision;
    long pays = 0;   // calls_to_pay(decision), as the grid agreed on it
    long calls = 0;  // of this shape on this grid, this one included
  };
  struct GridState {
    std::mutex mutex;  // held across this grid's collectives
    Comm comm;
    std::map<PriceKey, Shape> shapes;
    std::vector<Prepared> prepared;  // least recently used first
    double held() const;             // the prepared members' estimates, bytes per rank
    // How many of the oldest prepared members go to make room for one of
    // `bytes` per rank under `cap` (and kMaxPrepared), and their bytes.
    std::size_t evictions(double bytes, double cap, double* freed = nullptr) const;
  };
  std::shared_ptr<GridState> grid_state(const GridKey& key, int ctxt);
  Decision agreed(GridState& g, const GridKey& key, const PdgemmCall& call, Decision d, long pays);
  double cap_bytes() const;  // MMBENCH_DISPATCH_MAX_MB
  MemberRun* prepared_run(GridState& g, const Member& member, const PdgemmCall& call);
  MemberRun* prepare(GridState& g, const Member& member, const PdgemmCall& call, std::string* why);
  void record(CensusRecord r);
  void say_once(const std::string& line);

  mutable std::mutex mutex_;  // the fields below; never held across a collective
  DispatchSettings settings_;
  const MachineFacts machine_;
  const int rank_;
  std::atomic<long> calls_{0}, dispatched_{0};
  std::map<GridKey, std::shared_ptr<GridState>> grids_;
  std::map<int, GridKey> contexts_;  // live contexts seen in calls, by handle
  std::unique_ptr<CsvFile> census_;
  bool census_failed_ = false, disagreement_said_ = false;
  std::vector<CensusRecord> records_;
};

}  // namespace mmbench::dispatch
