#include "tuner/machine_check.hpp"

#include <cblas.h>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <cstdlib>

#include "core/machine/blas.hpp"
#include "core/mpi/comm.hpp"
#include "core/stats/timing.hpp"
#include "local/peak_loop.hpp"

namespace mmbench::tuner {

profile::PeakRecord make_peak_record(const CpuInfo& cpu, const PeakMeasurement& peak, const std::string& blas_core,
                                     const std::string& blas_pin, std::int64_t dgemm_n, double dgemm_gflops) {
  profile::PeakRecord r;
  r.cpu_model = cpu.model;
  r.vendor = cpu.vendor;
  r.family = cpu.family;
  r.model = cpu.model_number;
  r.flags = to_string(cpu.flags);
  r.cores = peak.threads;
  r.logical_cpus = peak.logical_cpus;
  const IsaPeak* fastest = nullptr;
  for (const IsaPeak& p : peak.isas) {
    profile::IsaPeakRecord i{std::string(isa_name(p.isa)),
                             local::peak_flops_per_iteration(p.isa),
                             p.one_core_gflops,
                             p.all_cores_gflops_per_core,
                             {},
                             p.all_threads_gflops_per_thread,
                             p.gemm_mix_l1_gflops,
                             p.gemm_mix_l2_gflops};
    for (const BusyCoresRate& b : p.by_busy_cores) i.by_busy_cores.push_back({b.cores, b.gflops_per_core});
    r.isas.push_back(std::move(i));
    if (fastest == nullptr || p.one_core_gflops > fastest->one_core_gflops) fastest = &p;
  }
  r.one_core_gflops = peak.one_core_gflops();
  r.all_cores_gflops_per_core = peak.all_cores_gflops_per_core();
  if (fastest != nullptr) {
    r.by_busy_cores = r.isas[static_cast<std::size_t>(fastest - peak.isas.data())].by_busy_cores;
    r.all_threads_gflops_per_thread = fastest->all_threads_gflops_per_thread;
    r.gemm_mix_l1_gflops = fastest->gemm_mix_l1_gflops;
    r.gemm_mix_l2_gflops = fastest->gemm_mix_l2_gflops;
  }
  r.blas_core = blas_core;
  r.blas_pin = blas_pin;
  if (dgemm_n > 0 && dgemm_gflops > 0) {
    r.dgemm_n = dgemm_n;
    r.dgemm_gflops = dgemm_gflops;
    profile::derive_dgemm_fraction(r);  // against the peak DGEMM may have raised
  }
  return r;
}

profile::PeakRecord check_machine(const MachineCheckOptions& o, MPI_Comm comm_handle) {
  const Comm comm = Comm::view(comm_handle);
  const bool root = comm.rank() == 0;
  const PeakMeasurement peak = measure_peak_on_rank0(o.peak, comm_handle);
  double gflops = 0;
  std::string error;
  run_taking_part(
      comm,
      [&] {
        try {
          if (o.dgemm_n > 0) gflops = measure_dgemm_gflops(o.dgemm_n);
        } catch (const std::exception& e) {
          error = e.what();
        }
      },
      root);
  error = comm.bcast_string(error, 0);
  if (!error.empty()) throw std::runtime_error("machine check: rank 0: " + error);
  std::string text;
  if (root) {
    nlohmann::ordered_json doc = nlohmann::ordered_json::object();
    profile::write_peak_record(make_peak_record(detect_cpu(), peak, blas_core_name(openblas_get_config()),
                                                pinned_blas_core(), o.dgemm_n, gflops),
                               doc);
    text = doc.dump();
  }
  text = comm.bcast_string(text, 0);
  return profile::read_peak_record(nlohmann::ordered_json::parse(text), "<machine check from rank 0>").value();
}

std::string describe_recorded_peak(const profile::PeakRecord& r) {
  const profile::IsaPeakRecord* best = nullptr;
  for (const profile::IsaPeakRecord& i : r.isas)
    if (best == nullptr || i.one_core_gflops > best->one_core_gflops) best = &i;
  if (best == nullptr) return "not measured (no vector ISA mmbench has a loop for)";
  std::string s = fmt::format("{} {:.1f} GFLOP/s one core", best->isa, r.one_core_gflops);
  // The ladder's middle (4 of 16 busy: ...) where there is one.
  for (std::size_t i = 0; i + 1 < r.by_busy_cores.size(); ++i)
    s += fmt::format(", {:.1f} per core with {} busy", r.by_busy_cores[i].gflops_per_core, r.by_busy_cores[i].cores);
  if (r.all_cores_gflops_per_core > 0)
    s += fmt::format(", {:.1f} per core on {} cores at once ({:.1f} in all)", r.all_cores_gflops_per_core, r.cores,
                     r.all_cores_gflops_per_core * r.cores);
  if (r.all_threads_gflops_per_thread > 0)
    s += fmt::format("; SMT: {:.1f} per thread on {} logical CPUs", r.all_threads_gflops_per_thread, r.logical_cpus);
  const double peak = profile::one_core_peak_gflops(r);
  // The ceiling as gemm_ceiling_gflops takes it (never above the peak, so
  // a positive ceiling has a positive peak): a GEMM measured faster than
  // the mix loop means the loop was held back (another job's spell on this
  // core), and the line says so rather than print a ceiling below a GEMM's
  // rate.
  if (const double ceiling = profile::gemm_ceiling_gflops(r); ceiling > 0) {
    s += fmt::format(
        "; GEMM ceiling (the FMA rate under a micro-kernel's loads) {:.1f} GFLOP/s with A in L2 = {:.0f} "
        "% of the one-core peak ({:.1f} in L1)",
        ceiling, 100 * ceiling / peak, std::max(ceiling, r.gemm_mix_l1_gflops));
    if (ceiling > r.gemm_mix_l2_gflops)
      s += fmt::format(
          " -- taken from a GEMM measured here: the mix loop itself read {:.1f} in L2 and {:.1f} in L1, held back",
          r.gemm_mix_l2_gflops, r.gemm_mix_l1_gflops);
  }
  // A faster rate elsewhere means the loop was held back: say which rate
  // the fractions divide by, and why it is not the loop's.
  // Within kPeakNoise of the loop the difference is the loop's own spread
  // from one measurement to the next (a few per cent, docs/results.md), no
  // finding: the value is still taken, without the explanation.
  constexpr double kPeakNoise = 1.05;
  const std::string source = profile::one_core_peak_source(r);
  if (!source.empty() && peak > kPeakNoise * r.one_core_gflops)
    s += fmt::format(
        "; one-core peak taken as {:.1f} GFLOP/s, reached by {}: faster than the FMA loop alone, which this "
        "core ran at a lower clock (a dense FMA loop draws the most power) or while other load took it",
        peak, source);
  else if (!source.empty())
    s += fmt::format("; one-core peak taken as {:.1f} GFLOP/s, reached by {} (within the loop's spread)", peak, source);
  return s;
}

std::string describe_recorded_dgemm(const profile::PeakRecord& r) {
  if (r.dgemm_n <= 0) return "not measured";
  const std::string core = r.blas_core.empty() ? "the BLAS" : "OpenBLAS core " + r.blas_core;
  std::string s = fmt::format("{:.1f} GFLOP/s at n = {}, one thread, {}: {:.0f} % of the one-core peak", r.dgemm_gflops,
                              static_cast<long long>(r.dgemm_n), core, 100 * r.dgemm_fraction);
  if (const double ceiling = profile::gemm_ceiling_gflops(r); ceiling > 0)
    s += fmt::format(", {:.0f} % of the GEMM ceiling", 100 * r.dgemm_gflops / ceiling);
  return s;
}

std::string describe_peak_record(const profile::PeakRecord& r) {
  return "peak " + describe_recorded_peak(r) + "; DGEMM " + describe_recorded_dgemm(r);
}

}  // namespace mmbench::tuner
