#include "tuner/local_crossover.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "core/machine/blas.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/generate.hpp"
#include "core/stats/timing.hpp"
#include "local/fast_gemm.hpp"

namespace mmbench::tuner {

std::int64_t crossover_n(const std::vector<std::int64_t>& n, const std::vector<double>& t_dgemm,
                         const std::vector<double>& t_fast) {
  std::int64_t found = 0;
  // Walk from the largest size down; stop at the first size where DGEMM wins.
  for (std::size_t i = n.size(); i-- > 0;) {
    if (t_fast[i] < t_dgemm[i]) found = n[i];
    else break;
  }
  return found;
}

LocalCrossover measure_local_crossover(const std::vector<std::int64_t>& sizes, int reps, int warmup, MPI_Comm comm,
                                       const std::function<void(const std::string&)>& say) {
  const Comm all = Comm::view(comm);
  LocalCrossover out;
  std::vector<std::int64_t> ns;
  std::vector<double> td, t1, t2;
  for (std::int64_t n : sizes) {
    std::vector<double> A(static_cast<std::size_t>(n * n)), B(A.size()), C(A.size());
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        A[static_cast<std::size_t>(i + j * n)] = matrix_entry(i, j, 1);
        B[static_cast<std::size_t>(i + j * n)] = matrix_entry(i, j, 2);
      }
    // min_dim = 2 forces the levels to apply at this n: we are asking
    // whether they pay here, not whether the threshold lets them run.
    local::FastGemm l1({.levels = 1, .min_dim = 2}), l2({.levels = 2, .min_dim = 2});
    auto best = [&](const std::function<void()>& f) {
      for (int w = 0; w < warmup; ++w) f();
      double b = std::numeric_limits<double>::infinity();
      for (int r = 0; r < reps; ++r) b = std::min(b, time_max_over_ranks(all, f));
      return b;
    };
    CrossoverPoint pt;
    pt.n = n;
    pt.t_dgemm = best([&] { dgemm(n, n, n, A.data(), n, B.data(), n, 0.0, C.data(), n); });
    pt.t_l1 = best([&] { l1.multiply(n, n, n, A.data(), n, B.data(), n, C.data(), n); });
    pt.t_l2 = best([&] { l2.multiply(n, n, n, A.data(), n, B.data(), n, C.data(), n); });
    if (say)
      say(fmt::format("local Strassen n={}: DGEMM {:.3g} s, L=1 {:.3f}x, L=2 {:.3f}x", n, pt.t_dgemm,
                      pt.t_dgemm / pt.t_l1, pt.t_dgemm / pt.t_l2));
    out.points.push_back(pt);
    ns.push_back(n);
    td.push_back(pt.t_dgemm);
    t1.push_back(pt.t_l1);
    t2.push_back(pt.t_l2);
  }
  out.l1_n = crossover_n(ns, td, t1);
  out.l2_n = crossover_n(ns, td, t2);
  return out;
}

}  // namespace mmbench::tuner
