#include "tuner/tuner.hpp"

#include <fmt/format.h>

#include <exception>
#include <stdexcept>

#include "core/comm.hpp"
#include "core/sysinfo.hpp"
#include "tuner/lb_rule.hpp"
#include "tuner/profile_refresh.hpp"
#include "tuner/tune_outputs.hpp"
#include "tuner/tune_steps.hpp"

// run_tuner is its list of steps (tune_steps.hpp), each a function; the
// profile and files come from tune_outputs.hpp.

namespace mmbench::tuner {

namespace {

void fail(const std::string& what) { throw std::invalid_argument("tune: " + what); }

}  // namespace

std::int64_t effective_kmax(const TuneOptions& o) {
  if (o.kmax > 0) return o.kmax;
  return o.pr > o.pc ? o.n / o.pr : o.n / o.pc;
}

void validate(const TuneOptions& o, int ranks) {
  if (o.n < 1) fail(fmt::format("n = {} must be >= 1", static_cast<long long>(o.n)));
  if (o.pr < 1 || o.pc < 1) fail(fmt::format("grid {}x{}: pr and pc must be >= 1", o.pr, o.pc));
  if (static_cast<long long>(o.pr) * o.pc != ranks) {
    fail(fmt::format("grid {}x{} has {} ranks, but the communicator has {} (pr * pc must equal it)",
                o.pr, o.pc, static_cast<long long>(o.pr) * o.pc, ranks));
  }
  if (o.n < o.pr || o.n < o.pc) {
    fail(fmt::format("n = {} is smaller than the grid {}x{} (n must be >= pr and >= pc)",
                static_cast<long long>(o.n), o.pr, o.pc));
  }
  if (!(o.x > 0.0 && o.x <= 1.0)) fail(fmt::format("x = {:g} is outside the allowed range (0, 1]", o.x));
  if (o.kmin < 2) fail(fmt::format("kmin = {} is below the allowed minimum 2", static_cast<long long>(o.kmin)));
  const std::int64_t kmax = effective_kmax(o);
  if (o.kmin > kmax) {
    fail(fmt::format("kmin = {} exceeds kmax = {}{}", static_cast<long long>(o.kmin),
                static_cast<long long>(kmax), o.kmax > 0 ? "" : " (the default n/pc, or n/pr if pr > pc)"));
  }
  if (even_grid(o.kmin, kmax).empty()) {
    fail(fmt::format("[kmin, kmax] = [{}, {}] contains no even k", static_cast<long long>(o.kmin),
                static_cast<long long>(kmax)));
  }
  if (o.passes < 1) fail(fmt::format("passes = {} must be >= 1", o.passes));
  if (o.reps < 1) fail(fmt::format("reps = {} must be >= 1", o.reps));
  if (o.warmup < 0) fail(fmt::format("warmup = {} must be >= 0", o.warmup));
  if (o.lb_check_rounds < 1) fail(fmt::format("lb check rounds = {} must be >= 1", o.lb_check_rounds));
  if (o.lb_check_nb < 1) fail(fmt::format("lb check nb = {} must be >= 1", o.lb_check_nb));
  if (o.add_n < 1) fail(fmt::format("add_n = {} must be >= 1", static_cast<long long>(o.add_n)));
  if (o.network_reps < 1) fail(fmt::format("network_reps = {} must be >= 1", o.network_reps));
}

using namespace steps;

namespace {

// The profile as rank 0 builds (and writes) it, on every rank: build() runs
// on rank 0 alone and returns the profile's JSON text; its error, if any,
// stops every rank with the same message.
MachineProfile profile_from_rank0(const Session& s, MPI_Comm comm, const std::function<std::string()>& build) {
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
  return parse_profile(text, "<profile from rank 0>");
}

}  // namespace

MachineProfile run_tuner(const TuneOptions& options, MPI_Comm comm,
                         const std::function<void(const std::string&)>& progress) {
  Session s(options, comm, progress);
  Measurements m;
  m.cpu_peak = measure_peak(s);
  m.dgemm = profile_dgemm(s);
  m.check = check_lb(s, m.dgemm.rule);
  m.lb = m.check.value.done ? m.check.value.lb : m.dgemm.rule.lb;
  const RecordedLb recorded = record_lb(s, m.check.value, m.dgemm.rule);
  m.recorded_lb = recorded.lb;
  m.lb_panels = recorded.panels;
  m.net = calibrate(s);
  m.add = measure_add(s);
  m.cross = measure_crossover(s);
  m.threads = measure_threads(s);
  m.packed = tune_packed(s);
  m.kernel_model = measure_kernel_model(s);
  m.kernels = probe_kernels(s);
  s.note(fmt::format("BLAS threads per rank: {}", m.threads.blas_threads_per_rank));
  s.note(fmt::format("durations: DGEMM profile {:.1f} s, lb check {:.1f} s, network {:.1f} s, add {:.1f} s, local "
                     "Strassen {:.1f} s, threaded DGEMM {:.1f} s, packed GEMM {:.1f} s, kernel model {:.1f} s, BLAS cores {:.1f} s",
                     m.dgemm.seconds, m.check.seconds, m.net.seconds, m.add.seconds, m.cross.seconds,
                     m.threads.seconds, m.packed.seconds, m.kernel_model.seconds, m.kernels.seconds));

  // Assembled and written on rank 0, broadcast to every rank.
  return profile_from_rank0(s, comm, [&] { return write_outputs(s, m, assemble_profile(s, m)); });
}

MachineProfile add_kernel_model(const TuneOptions& options, const MachineProfile& existing, MPI_Comm comm,
                                const std::function<void(const std::string&)>& progress) {
  if (options.n < 1) fail(fmt::format("n = {} must be >= 1", static_cast<long long>(options.n)));
  if (options.reps < 1) fail(fmt::format("reps = {} must be >= 1", options.reps));
  if (options.warmup < 0) fail(fmt::format("warmup = {} must be >= 0", options.warmup));
  TuneOptions o = options;
  o.kernel_model = true;
  Session s(o, comm, progress, false);
  const KernelModelStep step = measure_kernel_model(s);
  return profile_from_rank0(s, comm, [&] {
    if (!step.model.measured) throw std::runtime_error(s.notes.empty() ? "the kernel model was not fitted" : s.notes);
    MachineProfile p = existing;
    p.kernel_model = step.model;
    p.kernel_model_csv = o.kernel_model_csv_path;
    if (!p.notes.empty()) p.notes += "; ";
    p.notes += fmt::format("kernel model measured alone at {} ({:.1f} s, tune --kernel-model-only)", utc_timestamp(),
                           step.seconds);
    write_text(s, o.kernel_model_csv_path, step.csv);
    return write_profile_json(s, p);
  });
}

MachineProfile refresh_profile(const TuneOptions& options, const MachineProfile& existing, MPI_Comm comm,
                               const std::function<void(const std::string&)>& progress) {
  Session s(options, comm, progress, false);
  // Alike on every rank (the rates are the slowest rank's, the peak rank 0's
  // broadcast); rank 0 writes it.
  const MachineProfile p = refresh_compute(options, existing, comm, s.say);
  return profile_from_rank0(s, comm, [&] { return write_profile_json(s, p); });
}

}  // namespace mmbench::tuner

