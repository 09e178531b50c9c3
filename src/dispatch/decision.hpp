// Which member runs one PDGEMM: ScaLAPACK's own (with the profile's lb,
// capped per call) or one of mmbench's algorithms on the caller's grid,
// with the cost of converting the caller's block-cyclic operands into the
// member's layout and C back (docs/dispatch.md, "The decision").
//
// The decision depends only on the call's global arguments (never on a
// rank's LLD or data), the settings and the profile, so every process of
// the grid takes the same one without a message.
#pragma once

#include <string>

#include "algos/algorithm.hpp"
#include "dispatch/dispatch_settings.hpp"
#include "dispatch/pdgemm_call.hpp"
#include "local/packed_gemm.hpp"
#include "model/machine_params.hpp"

namespace mmbench::dispatch {

// A member must be predicted this much faster than ScaLAPACK's PDGEMM,
// conversion included, before the call leaves ScaLAPACK: the refined
// model's PDGEMM error (docs/results.md) is of that order, and a wrong
// dispatch costs more than a missed one.
inline constexpr double kDispatchMargin = 1.10;

// The machine as the decision knows it (from MMBENCH_PROFILE).
struct MachineFacts {
  bool has_model = false;     // no profile: no model decisions
  model::MachineParams params;
  // The lb ScaLAPACK's PDGEMM gets (the lb library's choice: MMBENCH_LB as
  // given, else the profile's lb capped per call); 0 = ScaLAPACK's 32.
  int lb = 0;
  bool lb_capped = false;
  std::int64_t local_cutoff = 0;  // local Strassen crossover (0 = the kernel's 256)
  std::string leaf = "blas";  // the profile's faster GEMM in a rank: blas or packed
  local::PackedBlocking blocking{};  // the profile's packed blocking for this CPU's kernel
  int threads = 1;            // BLAS threads per process
};

struct Member {
  const algos::Algorithm* algo = nullptr;  // nullptr: ScaLAPACK's PDGEMM
  algos::Options opt;
  std::string label;      // "scalapack lb=128", "ring gemm=packed", "ring L=2"
  double t_run = 0;       // predicted time of the member itself
  double t_convert = 0;   // converting the operands in and C back
  double bytes_per_rank = 0;  // the member's memory and the conversion's buffers
  double total() const { return t_run + t_convert; }
};

struct Decision {
  Member choice;              // choice.algo == nullptr: ScaLAPACK
  double t_scalapack = 0;     // ScaLAPACK's predicted time; 0 = not priced
  std::string reason;         // one line: why this choice
  bool scalapack() const { return choice.algo == nullptr; }
};

// ScaLAPACK's PDGEMM for this call: its label (the lb in force) and, with
// a model, its predicted time.
Member scalapack_member(const PdgemmCall& call, int pr, int pc, const MachineFacts& m);

// The decision for one call on a pr x pc grid.
Decision decide(const PdgemmCall& call, int pr, int pc, const DispatchSettings& s, const MachineFacts& m);

// The predicted time of moving op(sub(A)), op(sub(B)) into a member's
// layout and its C back (docs/dispatch.md): per matrix of S doubles on p
// ranks, (p - 1) messages carrying S/p (1 - 1/p) doubles in all, and local
// passes over S/p doubles at the profile's copy bandwidth (pack and unpack,
// a transposition for a transposed operand, alpha C' + beta C for C).
double conversion_time(const PdgemmCall& call, int p, const model::MachineParams& mp);

// Doubles per rank the conversion holds besides the member's own matrices:
// C's scratch in the caller's layout and the scratch of a transposed A or B.
double conversion_doubles(const PdgemmCall& call, int p);

}  // namespace mmbench::dispatch
