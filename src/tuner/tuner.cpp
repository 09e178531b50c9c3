#include "tuner/tuner.hpp"

#include <fmt/format.h>

#include <exception>
#include <stdexcept>

#include "core/mpi/comm.hpp"
#include "core/simulation.hpp"
#include "core/machine/sysinfo.hpp"
#include "tuner/lb_rule.hpp"
#include "tuner/profile_refresh.hpp"
#include "tuner/tune_outputs.hpp"
#include "tuner/tune_steps.hpp"

// run_tuner is its list of steps (tune_steps.hpp), each a function; the
// profile and files come from tune_outputs.hpp.

namespace mmbench::tuner {

using namespace steps;

namespace {

// The profile as rank 0 builds (and writes) it, on every rank: build() runs
// on rank 0 alone and returns the profile's JSON text; its error, if any,
// stops every rank with the same message.
profile::MachineProfile profile_from_rank0(const Session& s, MPI_Comm comm, const std::function<std::string()>& build) {
  std::string text, error;
  if (s.rank == 0) {
    try {
      text = build();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  const Comm all = Comm::view(comm);
  error = all.bcast_string(error, 0);
  if (!error.empty()) throw std::runtime_error("tune: rank 0 failed: " + error);
  text = all.bcast_string(text, 0);
  return profile::parse_profile(text, "<profile from rank 0>");
}

// The one-thread GEMM rates the later steps timed, given to the peak record:
// where one beats the FMA loop, the loop was held back and the fractions
// divide by that rate instead (profile/peak_record.hpp).
void record_gemm_rates(steps::Measurements& m) {
  // Under SMPI the steps' rates are simulated time; the peak is the host's.
  if (sim::simulated()) return;
  // The DGEMM profile runs on the caller's BLAS threads: a one-core rate
  // only with one.
  const RobustPoint& best = m.dgemm.best;
  if (best.median > 0 && m.threads.blas_threads_per_rank == 1)
    profile::record_gemm_rate(m.cpu_peak, best.median / 1e3,
                              fmt::format("the DGEMM profile's median at k = {}", static_cast<long long>(best.k)));
  if (m.threads.dgemm.single_mflops > 0)
    profile::record_gemm_rate(
        m.cpu_peak, m.threads.dgemm.single_mflops / 1e3,
        fmt::format("the threads step's one-thread DGEMM at n = {}", static_cast<long long>(m.threads.dgemm.n)));
  // Rank 0's threads over its node's cores, all at once: a per-core rate
  // the busy-core peak must not fall below.
  const ThreadedDgemm& threaded = m.threads.dgemm;
  if (threaded.threads > 1 && threaded.threaded_mflops > 0)
    profile::record_busy_cores_rate(m.cpu_peak, threaded.threads, threaded.threaded_mflops / 1e3 / threaded.threads);
  const profile::PackedTuneRecord& packed = m.packed.value;
  if (packed.blas_mflops > 0)
    profile::record_gemm_rate(m.cpu_peak, packed.blas_mflops / 1e3,
                              fmt::format("the packed step's DGEMM at n = {}", static_cast<long long>(packed.n)));
  if (packed.packed_mflops > 0)
    profile::record_gemm_rate(m.cpu_peak, packed.packed_mflops / 1e3,
                              fmt::format("the packed GEMM at n = {}", static_cast<long long>(packed.n)));
}

}  // namespace

profile::MachineProfile run_tuner(const TuneOptions& options, MPI_Comm comm,
                                  const std::function<void(const std::string&)>& progress) {
  Session s(options, comm, progress);
  Measurements m;
  m.cpu_peak = measure_peak(s);
  m.dgemm = profile_dgemm(s);
  m.check = check_lb(s, m.dgemm.rule);
  m.lb = record_lb(s, m.check.value, m.dgemm.rule);
  m.net = calibrate(s);
  m.overlap = measure_overlap(s, m.net.value);
  m.add = measure_add(s);
  m.cross = measure_crossover(s);
  m.threads = measure_threads(s);
  m.packed = tune_packed(s);
  m.kernel_model = measure_kernel_model(s);
  m.kernels = probe_kernels(s);
  record_gemm_rates(m);
  s.note(fmt::format("BLAS threads per rank: {}", m.threads.blas_threads_per_rank));
  s.note(fmt::format(
      "durations: DGEMM profile {:.1f} s, lb check {:.1f} s, network {:.1f} s, overlap {:.1f} s, add {:.1f} s, local "
      "Strassen {:.1f} s, threaded DGEMM {:.1f} s, packed GEMM {:.1f} s, kernel model {:.1f} s, BLAS cores {:.1f} s",
      m.dgemm.seconds, m.check.seconds, m.net.seconds, m.overlap.seconds, m.add.seconds, m.cross.seconds,
      m.threads.seconds, m.packed.seconds, m.kernel_model.seconds, m.kernels.seconds));

  // Assembled and written on rank 0, broadcast to every rank.
  return profile_from_rank0(s, comm, [&] { return write_outputs(s, m, assemble_profile(s, m)); });
}

profile::MachineProfile add_kernel_model(const TuneOptions& options, const profile::MachineProfile& existing,
                                         MPI_Comm comm, const std::function<void(const std::string&)>& progress) {
  validate_timing(options);
  TuneOptions o = options;
  o.kernel_model = true;
  Session s(o, comm, progress, false);
  const KernelModelStep step = measure_kernel_model(s);
  return profile_from_rank0(s, comm, [&] {
    if (!step.model.measured) throw std::runtime_error(s.notes.empty() ? "the kernel model was not fitted" : s.notes);
    profile::MachineProfile p = existing;
    p.kernel_model = step.model;
    p.kernel_model_csv = o.kernel_model_csv_path;
    if (!p.notes.empty()) p.notes += "; ";
    p.notes += fmt::format("kernel model measured alone at {} ({:.1f} s, tune --kernel-model-only)", utc_timestamp(),
                           step.seconds);
    write_text(s, o.kernel_model_csv_path, step.csv);
    return write_profile_json(s, p);
  });
}

profile::MachineProfile refresh_profile(const TuneOptions& options, const profile::MachineProfile& existing,
                                        MPI_Comm comm, const std::function<void(const std::string&)>& progress) {
  Session s(options, comm, progress, false);
  // Alike on every rank (the rates are the slowest rank's, the peak rank 0's
  // broadcast); rank 0 writes it.
  const profile::MachineProfile p = refresh_compute(options, existing, comm, s.say);
  return profile_from_rank0(s, comm, [&] { return write_profile_json(s, p); });
}

}  // namespace mmbench::tuner

