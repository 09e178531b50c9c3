// The machine facts the dispatcher decides with, read from a machine
// profile (`mmbench tune`) once per process.
#pragma once

#include <string>

#include "dispatch/decision.hpp"

namespace mmbench::dispatch {

// From MMBENCH_PROFILE (path; "" = none) and the lb ScaLAPACK's PDGEMM gets
// (the lb library's choice). A profile that cannot be read gives no model
// and its error in *problem (one line); never throws.
MachineFacts machine_facts(const std::string& profile_path, int lb, LbCap lb_cap, std::string* problem);

}  // namespace mmbench::dispatch
