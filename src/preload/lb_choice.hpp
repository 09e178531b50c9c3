// Which logical block size libmmbench-lb.so serves, and why: the pure part
// of the library (environment values in, a choice out), so that every bad
// input can be unit-tested without preloading anything.
#pragma once

#include <cstdint>
#include <string>

#include "core/lb_in_force.hpp"

namespace mmbench::preload {

using mmbench::kScalapackDefaultLb;

struct LbChoice {
  int lb = kScalapackDefaultLb;
  // A profile's lb was tuned at one size: each PDGEMM gets the profile's lb
  // curve's lb for its own k, grid and nb, or without a curve lb capped to
  // keep the profile's lb_panels panels per share (lb_for_call). MMBENCH_LB
  // is a value the user asked for and is served as given (LbCap::none()).
  LbCap cap = LbCap::none();
  std::string source;   // where lb came from: "MMBENCH_LB", "MMBENCH_PROFILE=<path>"; empty: the default
  std::string problem;  // why the configuration was refused (then lb is the default); empty: none
};

// lb_env = MMBENCH_LB, profile_env = MMBENCH_PROFILE (nullptr or "" = unset).
// MMBENCH_LB wins; it must be a positive decimal integer that fits an int.
// The profile must be an mmbench machine profile (schema
// "mmbench-profile/1") with a positive integer "lb" and, if present, an
// "lb_panels" from 1 to 64 (absent: kLbPanelsPerProcess) and, if present, a
// well-formed "lb_curve" (profile/lb_curve_record.hpp) and a positive
// integer "rule_lb", as `mmbench tune` writes them. Never throws.
LbChoice choose_lb(const char* lb_env, const char* profile_env) noexcept;

// The lb served to one PILAENV call: choice.lb, or for a profile's lb
// lb_in_force(choice.lb, choice.cap, k, pr, pc, nb, length) of the PDGEMM in progress
// (core/lb_in_force.hpp). k <= 0 means no PDGEMM is known to be in
// progress (another PBLAS routine asked): then choice.lb as it is.
int lb_for_call(const LbChoice& choice, std::int64_t k, int pr, int pc, int nb, std::int64_t length) noexcept;

// The one line (no newline) the library prints for a choice: the problem,
// or, for MMBENCH_VERBOSE, the lb and its source.
std::string describe(const LbChoice& choice);

}  // namespace mmbench::preload
