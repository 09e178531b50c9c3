#include "tuner/profile_refresh.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "core/machine/blas.hpp"
#include "core/mpi/comm.hpp"
#include "core/machine/sysinfo.hpp"
#include "core/stats/timing.hpp"
#include "tuner/dgemm_profile.hpp"
#include "tuner/lb_rule.hpp"
#include "tuner/machine_check.hpp"
#include "tuner/threaded_dgemm.hpp"

namespace mmbench::tuner {

namespace {

// The profile's points re-timed as tune timed them (tuner/dgemm_profile.hpp,
// C += A B on every rank at once, the slowest rank's time): one untimed
// pass over every point, then `passes` passes each visiting every point
// once in a shuffled order; a point's rate is its median over the passes.
// A process's first DGEMMs run slower (OpenBLAS's buffers, pages, clocks):
// timed one point after another, the first points of a refresh came out
// at half their rate, so the passes spread that over every point and the
// untimed pass takes most of it. Points of one (m, n) share one profiler,
// as the panel points of tune's profile did. MFLOPS, in the points' order.
std::vector<double> time_points(const std::vector<model::DgemmPoint>& points, int passes, MPI_Comm comm) {
  using Shape = std::pair<std::int64_t, std::int64_t>;  // (m, n)
  std::map<Shape, std::int64_t> kmax;
  for (const model::DgemmPoint& pt : points) kmax[{pt.m, pt.n}] = std::max(kmax[{pt.m, pt.n}], pt.k);
  // Made in the map's order, the same on every rank (the constructor is collective).
  std::map<Shape, std::unique_ptr<DgemmProfiler>> profilers;
  for (const auto& [shape, k] : kmax)
    profilers.emplace(shape, std::make_unique<DgemmProfiler>(shape.first, shape.second, k, 1, 0, comm));
  std::vector<std::int64_t> index(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) index[i] = static_cast<std::int64_t>(i);
  auto measure = [&](std::int64_t i, int) {
    const model::DgemmPoint& pt = points[static_cast<std::size_t>(i)];
    return profilers.at({pt.m, pt.n})->measure(pt.k).mflops;
  };
  constexpr std::uint64_t kSeed = 0x72656672657368ULL;  // "refresh"
  (void)measure_in_passes(index, 1, kSeed ^ 1, measure);  // untimed
  const std::vector<ProfileSamples> samples = measure_in_passes(index, passes, kSeed, measure);
  std::vector<double> rates(points.size());
  for (const ProfileSamples& s : samples) rates[static_cast<std::size_t>(s.k)] = summarize(s.mflops).median;
  return rates;
}

}  // namespace

profile::MachineProfile apply_refresh(const profile::MachineProfile& old, const std::vector<double>& new_mflops,
                                      const std::optional<profile::PeakRecord>& peak, const std::string& date,
                                      double seconds) {
  if (old.dgemm_profile.empty()) throw std::invalid_argument("refresh: the profile has no DGEMM points");
  if (new_mflops.size() != old.dgemm_profile.size()) {
    throw std::invalid_argument(fmt::format("refresh: {} rates for {} DGEMM points", new_mflops.size(),
                                            old.dgemm_profile.size()));
  }
  profile::MachineProfile p = old;
  std::vector<double> ratios;
  for (std::size_t i = 0; i < new_mflops.size(); ++i) {
    if (!(std::isfinite(new_mflops[i]) && new_mflops[i] > 0)) {
      throw std::invalid_argument(fmt::format("refresh: point {} re-timed at {} MFLOPS", i, new_mflops[i]));
    }
    ratios.push_back(new_mflops[i] / old.dgemm_profile[i].mflops);
    p.dgemm_profile[i].mflops = new_mflops[i];
  }
  const double f = summarize(ratios).median;
  p.t_op_s = old.t_op_s / f;
  p.peak_dgemm_mflops = old.peak_dgemm_mflops * f;
  p.dgemm_single_mflops = old.dgemm_single_mflops * f;
  p.dgemm_threaded_mflops = old.dgemm_threaded_mflops * f;
  if (p.kernel_model.measured) {
    DgemmTimeFit& d = p.kernel_model.dgemm;
    for (double* c : {&d.a_s, &d.b_s_per_mnk, &d.c_s_per_mn, &d.d_s_per_mk, &d.e_s_per_nk}) *c /= f;
  }
  if (peak) p.cpu_peak = peak;
  p.refreshed = {date, f, static_cast<int>(ratios.size()), seconds};
  if (!p.notes.empty()) p.notes += "; ";
  p.notes += fmt::format("refreshed {} (tune --refresh): {} DGEMM points re-timed, compute prices x {:.3f}", date,
                         ratios.size(), f);
  return p;
}

profile::MachineProfile refresh_compute(const TuneOptions& o, const profile::MachineProfile& existing,
                                        MPI_Comm comm_handle, const std::function<void(const std::string&)>& progress) {
  if (o.passes < 1) throw std::invalid_argument(fmt::format("tune --refresh: --passes {} must be >= 1", o.passes));
  const Comm comm = Comm::view(comm_handle);
  auto say = [&](const std::string& line) {
    if (comm.rank() == 0 && progress) progress(line);
  };
  const double t0 = MPI_Wtime();
  profile::PeakRecord peak = check_machine({{}, threaded_dgemm_size(existing.problem.n)}, comm_handle);
  const std::vector<double> rates = time_points(existing.dgemm_profile, o.passes, comm_handle);
  // A re-timed point faster than the FMA loop raises the peak, as in tune
  // (profile/peak_record.hpp); a one-core rate only on one BLAS thread.
  if (!rates.empty() && blas_threads() == 1)
    profile::record_gemm_rate(peak, *std::max_element(rates.begin(), rates.end()) / 1e3,
                              "the DGEMM profile's fastest re-timed point");
  say(describe_peak_record(peak));
  say(fmt::format("re-timed {} DGEMM points in {} passes ({:.1f} s)", rates.size(), o.passes, MPI_Wtime() - t0));
  return apply_refresh(existing, rates, peak, utc_timestamp(), MPI_Wtime() - t0);
}

}  // namespace mmbench::tuner
