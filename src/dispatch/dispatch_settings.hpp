// What libmmbench-dispatch.so does, from its environment variables (read
// once per process, at the first PDGEMM): the pure part, so that every bad
// value can be unit-tested without preloading anything. The variables and
// their defaults are in core/environment_variables.hpp and
// docs/environment.md.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "local/fast_gemm.hpp"

namespace mmbench::dispatch {

// Below this smallest dimension a call goes straight to ScaLAPACK: the
// panel updates of a factorization (k = the block size) and other small
// products, where converting layouts cannot pay.
inline constexpr std::int64_t kDefaultMinDim = 256;
// Memory the conversion buffers and the algorithm may hold per rank.
inline constexpr std::int64_t kDefaultMaxMiB = 4096;

struct DispatchSettings {
  bool enabled = true;    // MMBENCH_DISPATCH=off: every call to ScaLAPACK
  bool strassen = false;  // MMBENCH_DISPATCH_STRASSEN=1: Strassen members too (opt-in)
  // MMBENCH_DISPATCH_HYBRID=1: the model also prices each member as a ranks
  // x threads hybrid (every t-th process computes with t x the BLAS
  // threads, space/hybrid.hpp), up to the threads the profile measured
  // (opt-in: the idle processes' cores are lent for the call).
  bool hybrid = false;
  // MMBENCH_DISPATCH_FORCE: every call that may be dispatched runs this
  // member ("scalapack", or a member as parse_forced reads it), whatever
  // the model says; empty = the model.
  std::string force;
  // MMBENCH_DISPATCH_GEMM: the GEMM in each rank of mmbench's members:
  // auto (none here: the profile's faster leaf, tune's packed step), blas
  // or packed.
  std::optional<local::LeafGemm> gemm;
  std::int64_t min_dim = kDefaultMinDim;  // MMBENCH_DISPATCH_MIN_DIM
  std::int64_t max_mib = kDefaultMaxMiB;  // MMBENCH_DISPATCH_MAX_MB
  std::string log_path;                   // MMBENCH_DISPATCH_LOG: the census file (rank 0)
  std::string profile_path;               // MMBENCH_PROFILE
  bool verbose = false;                   // MMBENCH_VERBOSE
  // Values that were refused, each one line; the default stands for them.
  std::vector<std::string> problems;
};

// getenv: the variable's value or nullptr (std::getenv in the library,
// a table in the tests). Never throws for bad values: they go to problems.
DispatchSettings read_dispatch_settings(const std::function<const char*(const char*)>& getenv);

// The start-up line (no newline) rank 0 prints when verbose, e.g.
// "mmbench-dispatch: classical dispatch on (ring, tpmm, 2.5d against
// ScaLAPACK's PDGEMM), Strassen off, calls with min(M, N, K) < 256 to
// ScaLAPACK, conversion memory <= 4096 MiB per rank, profile configs/vm.json,
// census off".
std::string describe(const DispatchSettings& s);

// The dispatcher's members: mmbench's classical algorithms, and the
// parallel Strassen schemata the opt-in adds (those whose leaves are
// mmbench's own: no BLACS grid of mmbench's inside the caller's program).
const std::vector<std::string>& classical_members();
const std::vector<std::string>& strassen_members();

// A forced member, name[:L][/t]: the algorithm name, L local
// Strassen-Winograd levels (0 .. 6) and a ranks x threads hybrid of t
// (1 .. 64): "ring:2" -> ring, 2, 1; "tpmm/2" -> tpmm, 0, 2; "ring:1/4" ->
// ring, 1, 4; "scalapack" -> scalapack, 0, 1 (no suffix). Returns false
// for a malformed text or a name that is not a member (pdgemm, dgemm,
// strassen-q7+pdgemm, ...: algorithms of mmbench's own runs only).
struct ForcedMember {
  std::string name;
  int levels = 0;
  int hybrid = 1;
};
bool parse_forced(const std::string& text, ForcedMember* out);

}  // namespace mmbench::dispatch
