// Which logical block size libmmbench-lb.so serves, and why: the pure part
// of the library (environment values in, a choice out), so that every bad
// input can be unit-tested without preloading anything.
#pragma once

#include <string>

#include "core/lb_in_force.hpp"

namespace mmbench::preload {

using mmbench::kScalapackDefaultLb;

struct LbChoice {
  int lb = kScalapackDefaultLb;
  std::string source;   // where lb came from: "MMBENCH_LB", "MMBENCH_PROFILE=<path>"; empty: the default
  std::string problem;  // why the configuration was refused (then lb is the default); empty: none
};

// lb_env = MMBENCH_LB, profile_env = MMBENCH_PROFILE (nullptr or "" = unset).
// MMBENCH_LB wins; it must be a positive decimal integer that fits an int.
// The profile must be an mmbench machine profile (schema
// "mmbench-profile/1") with a positive integer "lb", as `mmbench tune`
// writes it. Never throws.
LbChoice choose_lb(const char* lb_env, const char* profile_env) noexcept;

// The one line (no newline) the library prints for a choice: the problem,
// or, for MMBENCH_VERBOSE, the lb and its source.
std::string describe(const LbChoice& choice);

}  // namespace mmbench::preload
