// The dispatcher behind libmmbench-dispatch.so's pdgemm_: per call, the
// decision (cached per shape), the member's run or ScaLAPACK's, the census;
// at the end, the summary and every MPI resource freed. The preload
// (src/preload/dispatch_preload.cpp) owns what touches BLACS and the
// dynamic linker and hands this class plain values.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/comm.hpp"
#include "dispatch/census.hpp"
#include "dispatch/decision.hpp"
#include "dispatch/dispatch_settings.hpp"
#include "dispatch/member_run.hpp"
#include "dispatch/pdgemm_call.hpp"

namespace mmbench {
class CsvFile;
}

namespace mmbench::dispatch {

// The caller's BLACS grid as the preload reads it.
class CallerGrid {
 public:
  virtual ~CallerGrid() = default;
  virtual int pr() const = 0;
  virtual int pc() const = 0;
  // Who the grid's processes are; equal vectors = the same processes in the
  // same places. Collective over the grid.
  virtual std::vector<long> identity() = 0;
  // A communicator of the grid's processes with rank = prow * pc + pcol.
  // Collective over the grid.
  virtual Comm communicator() = 0;
};

class Dispatcher {
 public:
  // writer: this process writes the census and prints (the job's rank 0).
  Dispatcher(DispatchSettings settings, MachineFacts machine, bool writer);
  ~Dispatcher();

  // One PDGEMM; scalapack() calls ScaLAPACK's with the caller's arguments.
  void pdgemm(const PdgemmCall& call, CallerGrid& grid, const std::function<void()>& scalapack);
  // A call the dispatcher could not even read (a bad TRANS): to ScaLAPACK,
  // into the census.
  void passed(char transa, char transb, long m, long n, long k, const std::string& why,
              const std::function<void()>& scalapack);

  // Force a member (as MMBENCH_DISPATCH_FORCE; "" = the model); false for
  // an unknown one. Clears the decisions made so far.
  bool force(const std::string& member);
  long calls() const { return calls_; }
  long dispatched() const { return dispatched_; }
  // The choice of the last call ("scalapack lb=32", "ring", ...).
  const std::string& last_choice() const { return last_choice_; }

  // The census summary (writer), then every plan and communicator freed:
  // called while MPI is still up (at MPI_Finalize).
  void finish();

 private:
  // Shapes whose member stays prepared per grid (a factorization's
  // trailing updates shrink call by call: keeping every shape would keep
  // every size's buffers).
  static constexpr std::size_t kMaxPrepared = 4;
  struct Prepared {
    std::string label;
    Index m, n, k;
    double bytes;  // the decision's estimate per rank
    std::unique_ptr<MemberRun> run;
  };
  struct GridState {
    Comm comm;
    std::vector<Prepared> prepared;  // least recently used first
  };
  GridState& grid_state(CallerGrid& grid);
  MemberRun* prepare(GridState& g, const Member& member, const PdgemmCall& call, std::string* why);
  void record(CensusRecord r);

  DispatchSettings settings_;
  MachineFacts machine_;
  bool writer_;
  long calls_ = 0, dispatched_ = 0;
  std::string last_choice_;
  std::map<std::tuple<ShapeKey, int, int>, Decision> decisions_;
  std::map<std::vector<long>, GridState> grids_;
  std::unique_ptr<CsvFile> census_;
  bool census_failed_ = false;
  std::vector<CensusRecord> records_;
};

}  // namespace mmbench::dispatch
