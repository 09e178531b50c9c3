// The measurement steps of `mmbench tune`, in the order run_tuner
// (tuner.cpp) runs them. A step reads the session (options, communicator,
// progress lines, the profile's notes) and returns what it measured with
// the seconds it took; no step writes a file (tune_outputs.hpp does).
// Internal to the tuner layer: the commands call tuner.hpp.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/kernel_time_model.hpp"
#include "core/mpi/mpi_check.hpp"
#include "tuner/add_bandwidth.hpp"
#include "profile/blas_kernel_record.hpp"
#include "profile/core_layout.hpp"
#include "tuner/dgemm_profile.hpp"
#include "tuner/lb_check.hpp"
#include "tuner/lb_rule.hpp"
#include "tuner/local_crossover.hpp"
#include "tuner/network_calibration.hpp"
#include "tuner/shift_overlap.hpp"
#include "profile/packed_tune_record.hpp"
#include "profile/peak_record.hpp"
#include "tuner/threaded_dgemm.hpp"
#include "tuner/tune_options.hpp"

namespace mmbench::tuner::steps {

// What every step reads: the options, the communicator, the typical local
// shape, where the progress lines go (rank 0) and the profile's notes.
struct Session {
  // whole_tune = false: a step run alone (add_kernel_model), which needs
  // no grid, so the tune's checks of it do not apply.
  Session(const TuneOptions& o, MPI_Comm c, const std::function<void(const std::string&)>& progress,
          bool whole_tune = true)
      : options(o), comm(c) {
    MMBENCH_MPI(MPI_Comm_rank(comm, &rank));
    MMBENCH_MPI(MPI_Comm_size(comm, &ranks));
    if (whole_tune) {
      validate(options, ranks);
      m_local = options.n / options.pr;
      n_local = options.n / options.pc;
      kmax = effective_kmax(options);
    }
    say = [this, progress](const std::string& line) {
      if (rank == 0 && progress) progress(line);
    };
  }
  void note(const std::string& text) {
    if (!notes.empty()) notes += "; ";
    notes += text;
  }
  // The line goes to the progress and into the notes.
  void say_and_note(const std::string& text) {
    say(text);
    note(text);
  }

  const TuneOptions& options;
  MPI_Comm comm;
  int rank = 0, ranks = 1;
  std::int64_t m_local = 0, n_local = 0, kmax = 0;
  std::function<void(const std::string&)> say;
  std::string notes;
};

// A step's result and the seconds it took.
template <class T>
struct Timed {
  T value{};
  double seconds = 0;
};

// Step 1: the DGEMM profile and the rule's lb.
struct DgemmProfileStep {
  std::map<std::int64_t, std::vector<DgemmTiming>> timings;  // every timed call, by k
  RobustLb rule;
  RobustPoint best;  // the point of the highest median
  double seconds = 0;
};

// Step 6: multi-thread DGEMM against one thread per rank, and from it the
// better layout of the cores.
struct ThreadsStep {
  ThreadedDgemm dgemm;
  profile::CoreLayoutRecord layout;
  int blas_threads_per_rank = 0;  // as the caller set it
  double seconds = 0;
};

// Step 6c: the kernel model; its fit on rank 0, which alone holds the
// timings (unless turned off, or the fit fails: then a note and no model).
struct KernelModelStep {
  KernelTimeModel model;
  std::string csv;  // the timings' CSV text (rank 0; empty: no model)
  double seconds = 0;
};

// Step 0: the CPU's peak and the BLAS's one-thread DGEMM against it, on rank 0
// alone (tuner/machine_check.hpp; DGEMM at the threaded step's size).
profile::PeakRecord measure_peak(Session& s);

// Step 1 (DgemmProfileStep above).
DgemmProfileStep profile_dgemm(Session& s);

// Step 2: PDGEMM checks of lb candidates around the rule's (unless
// --no-lb-check) at the tuning size and the smaller sizes of the lb curve
// (lb_curve_sizes, lb_check.hpp); at_n.lb is the rule's where the check at
// the tuning size was not done.
struct LbChecks {
  LbCheckOutcome at_n;                  // the tuning size: the profile's lb_check
  std::vector<LbCheckOutcome> smaller;  // the curve's smaller sizes that were checked, ascending n
};
Timed<LbChecks> check_lb(Session& s, const RobustLb& rule);
// What the profile records of them: lb (the check's best at the tuning
// size, or the rule's without a check), the curve (lb_curve_from_checks)
// and the panels a reader without curves keeps (lb_panels_without_curve),
// said with the lb the curve gives from n/4 to 4n.
struct RecordedLb {
  std::int64_t lb = 0;
  int panels = kLbPanelsPerProcess;
  profile::LbCurveRecord curve;
};
RecordedLb record_lb(Session& s, const LbChecks& checks, const RobustLb& rule);

// Step 3: the network.
Timed<NetworkCalibration> calibrate(Session& s);

// Step 3b: does a transfer move while the ranks compute (ring's pattern,
// tuner/shift_overlap.hpp)? Between rank 0 and its first rank on another
// node where the job spans nodes (ring's slowest shift crosses them), else
// ranks 0 and 1; nothing with one rank.
Timed<ShiftOverlap> measure_overlap(Session& s, const NetworkCalibration& net);

// Step 4: the memory bandwidth of an addition.
Timed<AddBandwidth> measure_add(Session& s);

// Step 5: the local Strassen-Winograd crossover (unless turned off; sizes up
// to the typical local block, at most 3072 so the step stays within seconds).
Timed<LocalCrossover> measure_crossover(Session& s);

// Step 6 (ThreadsStep above).
ThreadsStep measure_threads(Session& s);

// Step 6b: the packed GEMM's blockings and the leaf that pays (unless turned off).
Timed<profile::PackedTuneRecord> tune_packed(Session& s);

// Step 6c (KernelModelStep above).
KernelModelStep measure_kernel_model(Session& s);

// Step 7a: OpenBLAS's cores, each in a child process of rank 0 while the
// other ranks wait (tuner/blas_kernel_probe.hpp). Not under SMPI: the
// simulated ranks share one process and one OpenBLAS.
Timed<profile::BlasKernelRecord> probe_kernels(Session& s);

// Everything the steps measured.
struct Measurements {
  profile::PeakRecord cpu_peak;
  DgemmProfileStep dgemm;
  Timed<LbChecks> check;
  RecordedLb lb;  // the lb, its curve and panels the profile records
  Timed<NetworkCalibration> net;
  Timed<ShiftOverlap> overlap;
  Timed<AddBandwidth> add;
  Timed<LocalCrossover> cross;
  ThreadsStep threads;
  Timed<profile::PackedTuneRecord> packed;
  Timed<profile::BlasKernelRecord> kernels;
  KernelModelStep kernel_model;
};

}  // namespace mmbench::tuner::steps
