// A test hook: make one phase of one algorithm's configuration fail on one
// rank, to prove that a sweep survives a failing configuration.
//
//   MMBENCH_FAULT_INJECT=ring@alloc        std::bad_alloc on the last rank while
//                                          ring's matrices are allocated
//   MMBENCH_FAULT_INJECT=tpmm@plan@0       std::runtime_error on rank 0 in plan()
//   MMBENCH_FAULT_INJECT=ring@multiply@all std::runtime_error on every rank before
//                                          the multiplication
//
// A fault on one rank inside a collective phase (multiply) leaves the other
// ranks waiting for it -- the case the sweep cannot survive (see
// run/sweep_rounds.hpp); inject multiply faults on all ranks.
// Phases: plan, alloc, multiply (thrown before the rank's multiplication
// starts). Unset (the normal case) costs one getenv at start. Not for users:
// documented in README's testing section only.
#pragma once

#include <string_view>

namespace mmbench {

// Throws as configured when (algo, phase, rank) matches; otherwise nothing.
void maybe_inject_fault(std::string_view algo, std::string_view phase, int rank, int ranks);

}  // namespace mmbench
