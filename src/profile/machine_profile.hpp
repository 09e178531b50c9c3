// The machine profile: everything `mmbench tune` measured on a machine, in a
// JSON file under configs/ that `run`, `predict` and `auto` read (docs/method.md §8.4).
//
// The file is plain data, readable and editable by hand (e.g. to reproduce
// the thesis' Opteron predictions from its published parameters). Units are
// part of every key name ("latency_s", "tau_alltoall_doubles_per_s") so a
// reader never has to guess them. Example (abridged):
//
//   {
//     "schema": "mmbench-profile/1",
//     "host": "node17", "cpu_model": "AMD EPYC 9R14", "cores": 2,
//     "date": "2025-03-01T12:00:00Z",
//     "libraries": {"mpi": "Open MPI v4.1.4", "blas": "OpenBLAS 0.3.21 ...", "scalapack": ""},
//     "tuning_problem": {"n": 4096, "pr": 1, "pc": 2, "kmin": 32, "kmax": 2048,
//                        "x": 0.98, "exhaustive": false},
//     "lb": 256, "rule_lb": 78, "lb_at_max": 1100, "peak_dgemm_mflops": 49000.0,
//     "t_op_s_per_flop": 2.06e-11,
//     "lb_check": {"n": 4096, "nb": 64, "rounds": 7, "reference_lb": 32, "coverage": 0.984,
//                  "candidates": [{"lb": 32, "mflops_median": 36000.0, "ratio_median": 1.0,
//                                  "ratio_ci_lo": 1.0, "ratio_ci_hi": 1.0}, ...],
//                  "csv": "results/local/dgemm-profile-node17-n4096-lb-check.csv"},
//     "network_measured": true, "latency_s": 2.1e-7,
//     "tau_pingpong_doubles_per_s": 1.1e9, "tau_alltoall_doubles_per_s": 8.0e8,
//     "tau_model": "alltoall",
//     "two_regime": {"eager_latency_s": 2e-7, "eager_tau_doubles_per_s": 6e8,
//                    "rendezvous_latency_s": 4e-6, "rendezvous_tau_doubles_per_s": 1.2e9,
//                    "break_bytes": 4096},
//     "add_bandwidth_bytes_per_s": 1.5e10,
//     "add_threads": 2, "add_threaded_bytes_per_s": 2.1e10,
//     "strassen_crossover": {"local_l1_n": 1536, "local_l2_n": 3072, "largest_n_tried": 3072},
//     "dgemm_threads": 2, "dgemm_threaded_n": 2048, "dgemm_threaded_mflops": 90000.0,
//     "dgemm_single_mflops": 47000.0,
//     "notes": "",
//     "dgemm_profile": [{"m": 4096, "n": 2048, "k": 32, "mflops": 30000.0}, ...,
//                       {"m": 1024, "n": 1024, "k": 1024, "mflops": 40000.0}, ...],
//       (the lb search's panels, plus the square DGEMMs the local Strassen
//        crossover step timed, for the model of local levels)
//     "dgemm_profile_csv": "results/local/dgemm-profile-node17.csv"
//   }
//
// Unknown keys are ignored (a newer writer may add some); "strassen_crossover",
// "notes", "rule_lb", "lb_check", the four "dgemm_thread..." keys, the two
// "add_thread..." keys, "blas_kernels", "packed_gemm", "core_layout", "network_levels" and "kernel_model" may be left
// out (older profiles; all keys of a group or none). Every other key is required. The full list with meanings:
// docs/machine-profile.md.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/kernel_time_model.hpp"
#include "core/lb_in_force.hpp"
#include "model/machine_params.hpp"
#include "profile/profile_error.hpp"
#include "profile/peak_record.hpp"
#include "profile/blas_kernel_record.hpp"
#include "profile/core_layout.hpp"
#include "profile/lb_curve_record.hpp"
#include "profile/network_levels_record.hpp"
#include "profile/packed_tune_record.hpp"
#include "profile/shift_overlap_record.hpp"

namespace mmbench::profile {

struct LibraryVersions {
  std::string mpi;        // first line of MPI_Get_library_version
  std::string blas;       // openblas_get_config()
  std::string scalapack;  // filled by the caller (the tuner does not know it)
};

// The typical problem the DGEMM profile was taken for (docs/method.md §8.1).
struct TuningProblem {
  std::int64_t n = 0;
  int pr = 0, pc = 0;
  std::int64_t kmin = 0, kmax = 0;
  double x = 0.98;
  bool exhaustive = false;
};

// Eager / rendezvous fit of the ping-pong sweep. break_bytes: largest size
// of the eager regime; 0 = one regime fits (eager and rendezvous equal).
struct TwoRegimeNetwork {
  double eager_latency_s = 0;
  double eager_tau = 0;  // doubles per second
  double rendezvous_latency_s = 0;
  double rendezvous_tau = 0;  // doubles per second
  std::int64_t break_bytes = 0;
};

// One lb the PDGEMM check timed (tuner/lb_check.hpp).
struct LbCheckCandidate {
  std::int64_t lb = 0;
  double mflops_median = 0;  // MFLOPS per rank: 2 n^3 / p / (median time) / 1e6
  // Speed relative to the reference lb, t(reference) / t(lb) per round: the
  // median over the rounds and its confidence interval (median_interval).
  double ratio_median = 0;
  double ratio_ci_lo = 0, ratio_ci_hi = 0;
};

// The PDGEMM check of the lb candidates; rounds == 0: not done (tune
// --no-lb-check, or a profile written before the check existed).
struct LbCheckRecord {
  std::int64_t n = 0;                        // PDGEMM n x n x n on the tuning problem's grid
  int nb = 0;                                // block-cyclic block size
  int rounds = 0;                            // interleaved rounds (one call per candidate each)
  std::int64_t reference_lb = 0;             // the ratios' denominator (32, ScaLAPACK's default)
  double coverage = 0;                       // true coverage of the ratio intervals
  std::vector<LbCheckCandidate> candidates;  // sorted by lb
  std::string csv;                           // path of the check's CSV ("" = not written)
};

// Which measured throughput the cost models use as tau. The thesis uses the
// all-to-all rate because its algorithms load the whole network at once.
enum class TauModel { alltoall, pingpong };

struct MachineProfile {
  std::string schema = kProfileSchema;
  std::string host;
  std::string cpu_model;
  int cores = 0;
  std::string date;  // ISO 8601 UTC, e.g. 2025-03-01T12:00:00Z
  LibraryVersions libraries;
  TuningProblem problem;

  // The lb every consumer reads (run --lb auto, predict, explain): the
  // PDGEMM check's best candidate at the tuning size, or rule_lb where there
  // was no check. Each PDGEMM runs lb_curve's lb for its own size where the
  // profile has a curve (profile_facts.hpp tuned_lb).
  std::int64_t lb = 0;
  // Eq. 2.26 on the smoothed profile with the statistical tie
  // (tuner/lb_rule.hpp). Profiles written before the field existed: lb.
  std::int64_t rule_lb = 0;
  // Panels per process share that every PDGEMM keeps of lb (lb_cap,
  // core/lb_in_force.hpp) where the profile has no lb_curve: the tuning
  // size's share over lb (at most 64), kLbPanelsPerProcess in profiles from
  // before the curve. A reader that knows no curve gets lb at the tuning
  // size and proportionally less below it from this.
  int lb_panels = kLbPanelsPerProcess;
  LbCurveRecord lb_curve;        // empty: none (older profiles, tune --no-lb-check)
  std::int64_t lb_at_max = 0;    // k of the largest per-k median (smallest on ties)
  double peak_dgemm_mflops = 0;  // that median
  double t_op_s = 0;             // seconds per flop the models use (DGEMM rate at lb)
  LbCheckRecord lb_check;

  // Network; all 0 and network_measured = false with one rank.
  bool network_measured = false;
  double latency_s = 0;     // ping-pong, small messages
  double tau_pingpong = 0;  // doubles per second, large ping-pong messages
  double tau_alltoall = 0;  // doubles per second and rank, all-to-all
  TauModel tau_model = TauModel::alltoall;
  TwoRegimeNetwork two_regime;
  // The two-level network (profile/network_levels_record.hpp, key
  // "network_levels"); present = false: none (one level, as before).
  NetworkLevelsRecord network_levels;
  // How much of a transfer moves while the ranks compute (profile/shift_overlap_record.hpp,
  // key "shift_overlap"); measured = false: none (taken as fully hidden, as before).
  ShiftOverlapRecord shift_overlap;

  double add_bytes_per_s = 0;  // C = A + B, 24 bytes per element; 0 = not measured
  // The same addition on rank 0 alone, split over add_threads threads (the
  // cores of its node) while the other ranks idle (tuner/add_bandwidth.hpp).
  // Both 0: not measured (older profiles): the models then let additions
  // scale with threads like DGEMM.
  int add_threads = 0;
  double add_threaded_bytes_per_s = 0;
  // Fresh memory allocated and written once, every rank at once, per rank
  // (tuner/add_bandwidth.hpp); 0 = not measured (older profiles).
  double first_touch_bytes_per_s = 0;

  // Local Strassen-Winograd crossover: smallest n at which 1 (2) levels beat
  // plain DGEMM; 0 = not measured, or no win up to strassen_tried_n.
  std::int64_t strassen_l1_n = 0;
  std::int64_t strassen_l2_n = 0;
  // Largest n the crossover step measured; 0 = not measured (tune
  // --no-local). Profiles written before this field existed count as
  // measured up to max(l1_n, l2_n).
  std::int64_t strassen_tried_n = 0;

  // Multi-thread DGEMM (tuner/threaded_dgemm.hpp): DGEMM(n, n, n) on rank 0
  // with dgemm_threads BLAS threads (the cores of its node) while the other
  // ranks idle, and the single-thread rate of the same DGEMM with every rank
  // running one at once (the conditions of the DGEMM profile). All 0: not
  // measured (profiles written before the fields existed): the models then
  // assume ideal thread scaling.
  int dgemm_threads = 0;
  std::int64_t dgemm_threaded_n = 0;
  double dgemm_threaded_mflops = 0;
  double dgemm_single_mflops = 0;

  // The CPU, its measured peak and the BLAS's DGEMM against it
  // (profile/peak_record.hpp); empty in profiles written before it existed.
  std::optional<PeakRecord> cpu_peak;
  // tune's BLAS kernel probe (profile/blas_kernel_record.hpp); probed = false: none.
  BlasKernelRecord blas_kernels;
  // The packed GEMM's block-size ladder and leaf (profile/packed_tune_record.hpp,
  // key "packed_gemm"); measured = false: none.
  PackedTuneRecord packed;
  // One rank per core or one rank of threads (profile/core_layout.hpp, key
  // "core_layout"); measured = false: none.
  CoreLayoutRecord core_layout;
  // The kernel model (core/kernel_time_model.hpp, profile/kernel_model_record.hpp,
  // key "kernel_model"): fitted DGEMM and pass prices for charged
  // simulations; measured = false: none (flat prices).
  KernelTimeModel kernel_model;
  std::string kernel_model_csv;  // its raw timings ("" = not written)

  // Memory one rank may use: the node's memory over its cores (a rank per
  // core), for the memory limits of run, predict and explain; 0 = not
  // recorded (profiles written before the field existed, or by hand).
  std::int64_t memory_per_rank_bytes = 0;

  std::string notes;
  std::vector<model::DgemmPoint> dgemm_profile;  // sorted by k
  // The DGEMM profile's timing noise: the median over its panel points of
  // the median interval's half-width over the median (0.03 = +-3 %); 0 =
  // not recorded. A run's peer that disagrees with the profile by more than
  // this (and its own interval) finds the profile stale (cli/profile_drift.hpp).
  double dgemm_profile_noise = 0;
  // The last `tune --refresh` (tuner/profile_refresh.hpp): the compute
  // prices measured again and scaled by `factor` (new rate / old rate, the
  // median over the re-timed points); date "" = never refreshed.
  struct Refresh {
    std::string date;
    double factor = 0;
    int points = 0;
    double seconds = 0;
  } refreshed;
  std::string dgemm_profile_csv;  // path of the raw profile CSV
};

std::string to_string(TauModel model);  // "alltoall" / "pingpong"

// JSON text of a profile (2-space indent, trailing newline). Throws
// ProfileError(origin, ...) if the profile would not read back (a value out
// of range or not finite).
std::string profile_to_json(const MachineProfile& profile, const std::string& origin = "<profile>");

// Parses and validates JSON text; origin (a file name) leads every error.
MachineProfile parse_profile(const std::string& json_text, const std::string& origin);

// Reads and validates a profile file. Throws ProfileError naming the file
// and the problem: missing or unreadable file, malformed JSON (line and
// column), missing or unsupported schema, a missing or wrongly typed field,
// a value out of range (e.g. "field 'lb' must be > 0, got 0").
MachineProfile read_profile(const std::string& path);

// Writes the profile atomically: the text goes to path + ".tmp", which is
// then renamed onto path, so a reader never sees half a file and a crash
// leaves the old profile intact. Creates missing parent directories. Throws
// ProfileError (naming path) on an invalid profile or an I/O failure.
void write_profile(const MachineProfile& profile, const std::string& path);

// The parameters the cost models read: tau is the throughput named by
// tau_model, t_op the profile's; the refined fields come from the
// two-regime fit, the add bandwidth, the DGEMM profile and the threaded
// DGEMM (thread_efficiency = threaded / (threads x single), where measured
// with threads >= 2) and the threaded addition (add_thread_speedup =
// add_threaded_bytes_per_s / add_bytes_per_s, where measured with
// add_threads >= 2), and the packed GEMM's speed relative to DGEMM
// (packed_speed = packed.packed_mflops / packed.blas_mflops, where measured)
// and of one level fused into it (packed_level_speed =
// packed.level.packed_vs_dgemm, where measured),
// and the two-level network where the profile has one (network).
model::MachineParams to_params(const MachineProfile& profile);

// "configs/<host>.json". Throws std::invalid_argument for an empty host or
// one that is not a plain file name ("/", ".", "..").
std::string default_profile_path(const std::string& host);

}  // namespace mmbench::profile
