// The call census of libmmbench-dispatch.so: one CSV row per PDGEMM the
// process saw (MMBENCH_DISPATCH_LOG=FILE, written by the job's rank 0 as
// the calls happen), and the summary of a census -- which shapes took the
// time, what ran them and how close the model came -- printed by rank 0 at
// MPI_Finalize and by `mmbench census FILE`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mmbench::dispatch {

struct CensusRecord {
  long call = 0;  // 1, 2, ... in this process
  char transa = 'N', transb = 'N';
  std::int64_t m = 0, n = 0, k = 0;
  double alpha = 0, beta = 0;
  std::int64_t ia = 1, ja = 1, ib = 1, jb = 1, ic = 1, jc = 1;  // 1-based, as passed
  int pr = 0, pc = 0;                                           // the BLACS grid
  std::string blocking_a, blocking_b, blocking_c;               // "MBxNB+RSRC+CSRC"
  std::string choice;   // "scalapack lb=128", "ring gemm=packed", ...
  std::string reason;   // why
  bool cached = false;  // the decision came from the cache of its shape
  double t_pred = 0;           // the choice's predicted time (conversion included), 0 = no model
  double t_pred_scalapack = 0;  // ScaLAPACK's predicted time, 0 = no model
  double t_measured = 0;       // wall time of the call (max over the grid where dispatched, else rank 0's)
  // Of it, on rank 0 where an mmbench member ran: building the member's
  // plan and buffers (the first call of a shape; 0 after), and converting
  // the operands in and C back.
  double t_prepare = 0, t_convert = 0;
  // Of t_prepare, on rank 0 (0 where nothing was prepared): the decision
  // with the grid's agreement and, on a grid's first call, its
  // communicator; the member's plan; its matrices (allocation and first
  // touch). The rest of t_prepare is the eviction of older shapes.
  double t_decide = 0, t_plan = 0, t_matrices = 0;
  // MiB of the member's buffers served from memory the library already
  // held (the buffer pool) rather than fresh from the system, on rank 0.
  double pooled_mib = 0;
  // The decision's price of that preparation (0 where nothing was
  // prepared or without a model): t_prepare's prediction.
  double t_pred_prepare = 0;
};

// The census CSV's columns, in order (docs/dispatch.md lists them).
const std::vector<std::string>& census_columns();
// One row's values by column, as CsvFile::append takes them.
std::map<std::string, std::string> census_cells(const CensusRecord& r);

// Reads a census file. Throws std::runtime_error naming the file and line
// for a missing file, a wrong header or a malformed row.
std::vector<CensusRecord> read_census(const std::string& path);

// The summary: totals (calls, time, share dispatched), then the `top`
// shapes by measured time -- transposes, M x N x K, grid, calls, time and
// its share, the choice(s), the mean predicted and measured time per call.
std::string census_summary(const std::vector<CensusRecord>& records, int top);

}  // namespace mmbench::dispatch
