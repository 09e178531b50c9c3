// `tune --refresh`: a profile's compute prices measured again, in a fraction of a tune.
//
// A machine's DGEMM rate moves with its clock, its neighbours and its
// memory's history, within the hour on a shared VM, and every compute price
// that predict, --algo auto, the dispatcher and the charged simulation use
// rests on the rate tune measured. The network, the lb and the core layout
// take minutes to measure and move far less: a refresh keeps them. It
// re-times the DGEMM profile's own points, each rank its own DGEMM at once
// in shuffled passes as tune timed them, and the peak (tuner/machine_check.hpp).
//
// The points take their new rates. Every other compute price the profile
// holds -- t_op, peak_dgemm_mflops, the single-thread and threaded DGEMM
// rates, the kernel model's DGEMM fit -- is scaled by the median over the
// points of new rate / old rate, which `refreshed.factor` records.
// Example: points at 16.0, 17.0 and 18.0 GFLOP/s re-timed at 18.4, 19.6
// and 20.5: ratios 1.15, 1.153, 1.139, factor 1.15; t_op is divided by it
// and the kernel model's DGEMM times too.
#pragma once

#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "profile/machine_profile.hpp"
#include "tuner/tune_options.hpp"

namespace mmbench::tuner {

// Pure: `old` with its DGEMM points' rates replaced by `new_mflops` (one per
// point, in the profile's order) and its other compute prices scaled by the
// median ratio; `peak` replaces the peak record where it holds one.
// Throws std::invalid_argument if the counts differ, the profile has no
// points, or a rate is not positive and finite.
profile::MachineProfile apply_refresh(const profile::MachineProfile& old, const std::vector<double>& new_mflops,
                                      const std::optional<profile::PeakRecord>& peak, const std::string& date,
                                      double seconds);

// Collective over comm: rank 0 measures the peak, then every rank times
// DGEMM at each of the profile's points as tune did (the slowest rank's
// time, the median of `options.passes` shuffled passes after an untimed
// one); returns apply_refresh's profile on every rank (not written).
profile::MachineProfile refresh_compute(const TuneOptions& options, const profile::MachineProfile& existing,
                                        MPI_Comm comm, const std::function<void(const std::string&)>& progress);

}  // namespace mmbench::tuner
