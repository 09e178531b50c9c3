// Which member runs one PDGEMM: ScaLAPACK's own (with the profile's lb,
// capped per call) or one of mmbench's algorithms on the caller's grid,
// with the cost of converting the caller's block-cyclic operands into the
// member's layout and C back (docs/dispatch.md, "The decision").
//
// The decision depends only on the call's global arguments (never on a
// rank's LLD or data), the settings and the profile; the dispatcher caches
// it per grid and shape (pdgemm_call.hpp, price_key) and has the grid agree
// on it, since the profile or the BLAS threads could differ between
// processes. Whether a call may be dispatched at all (alpha = 0, bounds,
// ...) is checked per call before this (pdgemm_call.hpp, pass_reason).
#pragma once

#include <string>
#include <vector>

#include "algos/algorithm.hpp"
#include "core/lb_in_force.hpp"
#include "core/mpi/comm.hpp"
#include "dispatch/dispatch_settings.hpp"
#include "dispatch/pdgemm_call.hpp"
#include "local/packed_gemm.hpp"
#include "profile/profile_facts.hpp"
#include "model/machine_params.hpp"

namespace mmbench::dispatch {

// A member must be predicted this much faster than ScaLAPACK's PDGEMM,
// conversion included, before the call leaves ScaLAPACK: the refined
// model's PDGEMM error (docs/results.md) is of that order, and a wrong
// dispatch costs more than a missed one.
inline constexpr double kDispatchMargin = 1.10;

// What a ranks x threads hybrid member adds to a call: its idle processes
// sleep while the others compute (Comm::idle_barrier) and notice the end up
// to one longest pause late for C's conversion. A multiply of more than a
// few milliseconds ends at no particular point of their pause, so the
// expected delay is half of it (measured: docs/results.md, "The hybrids'
// wake-up").
inline constexpr double kHybridWakeSeconds = 0.5 * kIdleBarrierLongestPauseSeconds;

// The machine as the decision knows it (from MMBENCH_PROFILE).
struct MachineFacts {
  bool has_model = false;     // no profile: no model decisions
  model::MachineParams params;
  // The lb ScaLAPACK's PDGEMM gets (the lb library's choice: MMBENCH_LB as
  // given, else the profile's lb following its curve or lb_panels); 0 =
  // ScaLAPACK's 32.
  int lb = 0;
  LbCap lb_cap = LbCap::none();
  // The profile's facts (its local Strassen crossover, packed GEMM step)
  // and what they choose (profile::leaf_choice), once per process, so that
  // a bad MMBENCH_PACKED_ISA is found when the profile is read: the GEMM
  // `auto` runs, and the blocking a packed GEMM runs.
  profile::ProfileFacts facts;
  local::LeafGemm auto_gemm = local::LeafGemm::blas;
  local::PackedBlocking packed_blocking{};
  int threads = 1;            // BLAS threads per process
  int cores_per_node = 0;     // the profile's cores (the hybrids' bound); 0: unknown
};

struct Member {
  const algos::Algorithm* algo = nullptr;  // nullptr: ScaLAPACK's PDGEMM
  algos::Options opt;
  std::string label;      // "scalapack lb=128", "ring gemm=packed", "ring L=2", "tpmm hybrid=2"
  double t_run = 0;       // predicted time of the member itself
  double t_convert = 0;   // converting the operands in and C back
  double t_prepare = 0;   // the first call of a shape: plan, buffers, first touch
  double bytes_per_rank = 0;  // the member's memory and the conversion's scratch and message buffers
  double total() const { return t_run + t_convert; }
};

struct Decision {
  Member choice;              // choice.algo == nullptr: ScaLAPACK
  double t_scalapack = 0;     // ScaLAPACK's predicted time; 0 = not priced
  std::string reason;         // one line: why this choice
  bool forced = false;        // MMBENCH_DISPATCH_FORCE chose, not the model
  bool scalapack() const { return choice.algo == nullptr; }
};

// ScaLAPACK's PDGEMM for this call: its label (the lb in force) and, with
// a model, its predicted time.
Member scalapack_member(const PdgemmCall& call, int pr, int pc, const MachineFacts& m);

// Why this call goes to ScaLAPACK whatever was decided for its shape, or
// "": the settings (MMBENCH_DISPATCH=off, MIN_DIM) and pass_reason, from
// arguments every process of the grid passes alike. Checked on every call.
std::string call_reason(const PdgemmCall& call, int pr, int pc, const DispatchSettings& s);

// The t >= 2 a hybrid member may take for a call on p processes in the
// model's search (the plain member is always tried): with
// MMBENCH_DISPATCH_HYBRID=1 and a model, space::hybrid_values up to the
// threads the profile measured and its cores per node
// (ranking::hybrid_max_for); none otherwise. Example: p = 8, threads
// measured to 4, 16 cores a node -> 2, 4.
std::vector<int> hybrid_choices(int p, const DispatchSettings& s, const MachineFacts& m);

// The decision for one call on a pr x pc grid that call_reason let through:
// the best member against ScaLAPACK, per call once prepared (the first
// call's preparation is the dispatcher's to weigh: Member::t_prepare prices
// it from fresh memory; the dispatcher prices the chosen member's again
// with the buffers it can reuse).
Decision decide(const PdgemmCall& call, int pr, int pc, const DispatchSettings& s, const MachineFacts& m);

// The predicted time of moving op(sub(A)), op(sub(B)) into a member's
// layout and its C back (docs/dispatch.md): per matrix of S doubles on p
// ranks, (p - 1) messages carrying S/p (1 - 1/p) doubles in all, and local
// passes over S/p doubles at the profile's copy bandwidth (pack and unpack,
// a transposition for a transposed operand, alpha C' + beta C for C). A
// hybrid of t (`hybrid`) gathers each group's share on its computing
// process: that process receives and unpacks t S/p (its messages t times
// larger), while every process still packs its own S/p and updates its
// part of C.
double conversion_time(const PdgemmCall& call, int p, const model::MachineParams& mp, int hybrid = 1);

// From which call of a shape preparing d's member pays (a ski-rental
// rule): the first n with n (t_scalapack - margin total) >= margin
// t_prepare -- n = 1 when it wins on the first call with its preparation
// priced in, t_scalapack >= margin (total + t_prepare); 0 for ScaLAPACK or
// a member that never saves.
long calls_to_pay(const Decision& d);

// The predicted time of preparing a member whose buffers hold
// bytes_per_rank, of which pooled_bytes (at most) come from memory the
// library already holds (core/matrix/buffer_pool.hpp): fresh memory at the
// profile's first-touch rate, pooled memory rewritten at its add bandwidth.
double preparation_time(double bytes_per_rank, const model::MachineParams& mp, double pooled_bytes = 0);

// Bytes per rank of the conversion's message buffers (send and receive),
// which the first call of a shape allocates and touches; a hybrid's
// computing process holds t times the share.
double first_message_bytes(const PdgemmCall& call, int p, int hybrid = 1);

// Doubles per rank the conversion holds besides the member's own matrices:
// C's scratch in the caller's layout and the scratch of a transposed A or B
// (in the member's layout: t times the share on a hybrid's computing
// process).
double conversion_doubles(const PdgemmCall& call, int p, int hybrid = 1);

}  // namespace mmbench::dispatch
