// What `mmbench tune` writes from its steps' measurements
// (tune_steps.hpp): the machine profile, the raw DGEMM profile CSV, the lb
// check CSV and the kernel model's timings CSV (docs/csv-columns.md,
// docs/machine-profile.md). Internal to the tuner layer.
#pragma once

#include <string>

#include "core/kernel_time_model.hpp"
#include "profile/machine_profile.hpp"
#include "tuner/network_calibration.hpp"
#include "profile/network_levels_record.hpp"
#include "tuner/tune_steps.hpp"

namespace mmbench::tuner::steps {

// The two-level section from what this job saw: the ping-pong is the
// level its pair crossed, the node exchange the intra-node throughput at
// once; the other level stays 0 (not known: the models keep pricing one
// level until a platform or a hand adds it), and so do the capacities
// shared between nodes, which one node cannot see.
profile::NetworkLevelsRecord network_levels_of(const NetworkCalibration& net);

// The machine profile from the measurements (rank 0: the host facts are its own).
profile::MachineProfile assemble_profile(const Session& s, const Measurements& m);

// Rank 0: `text` into `path` (atomically; nothing where path is empty),
// and a progress line saying so.
void write_text(const Session& s, const std::string& path, const std::string& text);

// Rank 0: the profile as JSON text, written to options.profile_path where
// that is set.
std::string write_profile_json(const Session& s, const profile::MachineProfile& p);

// Step 7: rank 0 writes the raw profile CSV, the lb check CSV and the
// profile JSON; returns the profile as JSON text.
std::string write_outputs(const Session& s, const Measurements& m, const profile::MachineProfile& p);

}  // namespace mmbench::tuner::steps
