// MPI test of the whole tuner at a tiny size. Run with 2 ranks (1 x 2 grid):
//   mpirun -n 2 test_tune_small
// With 1 rank it checks the no-network path instead. Exit code 0 = pass;
// every failed check is printed by the rank that saw it.
#include "core/lb_in_force.hpp"
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/mpi/mpi_check.hpp"
#include "local/packed_gemm.hpp"
#include "tuner/lb_check.hpp"
#include "tuner/packed_ladder.hpp"
#include "tuner/kernel_timings.hpp"
#include "profile/machine_profile.hpp"
#include "tuner/shift_overlap.hpp"
#include "tuner/tuner.hpp"

namespace {

using namespace mmbench;
using namespace mmbench::tuner;
using namespace mmbench::profile;

int failures = 0;
int rank = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: FAILED: %s\n", rank, what.c_str());
  }
}

template <typename E>
void expect_throw(const std::function<void()>& f, const std::string& what, const std::string& word) {
  try {
    f();
    check(false, what + ": no exception");
  } catch (const E& e) {
    check(std::string(e.what()).find(word) != std::string::npos,
          what + ": message lacks '" + word + "': " + e.what());
  } catch (const std::exception& e) {
    check(false, what + ": wrong exception type: " + e.what());
  }
}

void run(int ranks) {
  // One set of file names for all ranks: rank 0's pid.
  long long pid = static_cast<long long>(::getpid());
  MMBENCH_MPI(MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
  const std::string base = "/tmp/mmbench_test_tune_small_" + std::to_string(pid);
  const std::string json_path = base + "/profile.json";
  const std::string csv_path = base + "/dgemm-profile.csv";
  const std::string check_csv_path = base + "/dgemm-profile-lb-check.csv";
  const std::string kernel_csv_path = base + "/dgemm-profile-kernel-model.csv";

  TuneOptions o;
  // No BLAS kernel probe: its children would be this test program, and the
  // probe runs other OpenBLAS cores (test_blas_kernel_probe covers it).
  o.blas_probe = false;
  o.n = 128;
  o.pr = 1;
  o.pc = ranks;
  o.kmin = 8;
  o.kmax = 64;
  o.reps = 1;
  o.warmup = 0;
  o.passes = 3;
  o.lb_check_rounds = 3;  // the PDGEMM check runs (default on), briefly
  o.lb_check_csv_path = check_csv_path;
  o.add_n = 256;
  o.network_reps = 2;
  o.profile_path = json_path;
  o.profile_csv_path = csv_path;
  o.kernel_model_csv_path = kernel_csv_path;
  o.scalapack_version = "test-scalapack";

  // Bad options are refused on every rank, before anything is measured.
  TuneOptions bad = o;
  bad.x = 1.5;
  expect_throw<std::invalid_argument>([&] { run_tuner(bad, MPI_COMM_WORLD, {}); }, "x = 1.5", "(0, 1]");
  bad = o;
  bad.pc = ranks + 1;
  expect_throw<std::invalid_argument>([&] { run_tuner(bad, MPI_COMM_WORLD, {}); }, "grid too big",
                                      "pr * pc");
  bad = o;
  bad.kmin = 1;
  expect_throw<std::invalid_argument>([&] { run_tuner(bad, MPI_COMM_WORLD, {}); }, "kmin = 1", "kmin = 1");
  bad = o;
  bad.passes = 0;
  expect_throw<std::invalid_argument>([&] { run_tuner(bad, MPI_COMM_WORLD, {}); }, "passes = 0", "passes = 0");
  bad = o;
  bad.lb_check_rounds = 0;
  expect_throw<std::invalid_argument>([&] { run_tuner(bad, MPI_COMM_WORLD, {}); }, "rounds = 0", "rounds = 0");
  bad = o;
  bad.kmin = 80;
  expect_throw<std::invalid_argument>([&] { run_tuner(bad, MPI_COMM_WORLD, {}); }, "kmin > kmax", "kmax = 64");

  int lines = 0, round_lines = 0;
  const MachineProfile returned = run_tuner(o, MPI_COMM_WORLD, [&](const std::string& line) {
    ++lines;
    if (line.rfind("lb check round ", 0) == 0) ++round_lines;
    std::printf("[tune] %s\n", line.c_str());
  });
  check(rank == 0 ? lines > 5 : lines == 0, "progress is reported on rank 0 only");
  check(rank != 0 || round_lines == 3, "one progress line per lb check round: " + std::to_string(round_lines));

  // Every rank returns the same profile.
  long long lb0[2] = {returned.lb, returned.rule_lb};
  MMBENCH_MPI(MPI_Bcast(lb0, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
  check(returned.lb == lb0[0] && returned.rule_lb == lb0[1], "all ranks return the same lb and rule_lb");

  // The step alone on a profile without a model (tune --kernel-model-only):
  // the profile is rewritten with the model and everything else as it was.
  MachineProfile without = returned;
  without.kernel_model = {};
  without.kernel_model_csv.clear();
  TuneOptions alone;
  alone.n = 128;
  alone.reps = 2;
  alone.warmup = 0;
  alone.profile_path = base + "/alone.json";
  alone.kernel_model_csv_path = base + "/alone-kernel-model.csv";
  const MachineProfile added = add_kernel_model(alone, without, MPI_COMM_WORLD, {});
  check(added.kernel_model.measured && added.kernel_model.rounds == 2 && added.lb == returned.lb &&
            added.host == returned.host,
        "add_kernel_model: the model added, the rest kept");
  if (rank == 0) {
    MachineProfile p;
    try {
      p = read_profile(json_path);
    } catch (const std::exception& e) {
      check(false, std::string("profile reads back: ") + e.what());
      return;
    }
    check(p.lb == returned.lb, "file and returned profile agree");
    check(p.rule_lb >= 8 && p.rule_lb <= 64 && p.rule_lb % 2 == 0,
          "rule_lb in [8, 64] and even: " + std::to_string(p.rule_lb));
    check(p.lb_at_max >= 8 && p.lb_at_max <= 64, "k of the maximum in [8, 64]");
    // The PDGEMM check: the rule's lb, a ladder around it and 32, all timed;
    // lb is one of them, the one with the highest median speed.
    check(p.lb_check.rounds == 3 && p.lb_check.n == 128 && p.lb_check.nb == 64 &&
              p.lb_check.reference_lb == 32 && p.lb_check.coverage > 0,
          "lb_check header");
    // The ladder goes past the cap of the check's problem up to one panel
    // per share (lb_cap(128, 1, ranks, 64, 1): 128 on 1 rank, 64 on 2), and
    // holds the cap itself (lb_cap(128, 1, ranks, 64) = 32: a share of 128 or
    // 64 holds fewer than 8 panels of anything wider).
    const std::int64_t width = lb_cap(128, 1, ranks, 64, 1);
    const std::int64_t cap8 = lb_cap(128, 1, ranks, 64);
    bool has_rule = false, has_cap = false, has_ref = false;
    double best = 0;
    std::int64_t best_lb = 0;
    for (const LbCheckCandidate& c : p.lb_check.candidates) {
      has_rule = has_rule || c.lb == std::min<std::int64_t>(p.rule_lb, width);
      has_cap = has_cap || c.lb == cap8;
      if (c.lb == 32) has_ref = c.ratio_median == 1.0 && c.ratio_ci_lo == 1.0 && c.ratio_ci_hi == 1.0;
      if (c.ratio_median > best) best = c.ratio_median, best_lb = c.lb;
      check(c.mflops_median > 0 && c.ratio_ci_lo <= c.ratio_median && c.ratio_median <= c.ratio_ci_hi,
            "candidate lb " + std::to_string(c.lb) + " has a rate and an interval around its median");
    }
    check(has_rule && has_cap && has_ref, "candidates hold the rule's lb, the cap and 32 (ratio 1)");
    // Exactly the documented candidates (lb_candidates, tuner/lb_check.hpp):
    // the ladder around the rule's lb (four at most) up to that width, with
    // the cap and 32. Its length follows the rule's lb, which this tiny
    // profile picks by timing noise.
    std::vector<std::int64_t> checked;
    std::string listed;
    for (const LbCheckCandidate& c : p.lb_check.candidates) {
      checked.push_back(c.lb);
      listed += ' ';
      listed += std::to_string(c.lb);
    }
    check(checked == lb_candidates(p.rule_lb, 128, 1, ranks, 64), "the candidates are lb_candidates(rule_lb " +
                                                                      std::to_string(p.rule_lb) + ", 128, 1 x " +
                                                                      std::to_string(ranks) + "); got" + listed);
    // The profile's lb is the check's best; its curve has the one size
    // (n = 128 is below kLbCurveMinN's halves) with that lb; readers
    // without curves keep share / lb panels.
    check(p.lb == best_lb, "lb " + std::to_string(p.lb) + ", expected the check's best " + std::to_string(best_lb));
    check(p.lb_curve.points.size() == 1 && p.lb_curve.points[0].n == 128 && p.lb_curve.points[0].share == 128 / ranks &&
              p.lb_curve.points[0].lb == best_lb && p.lb_curve.points[0].rounds == 3,
          "lb_curve: one point {128, share, the best, 3 rounds}");
    check(p.lb_panels == lb_panels_without_curve(best_lb, 128 / ranks),
          "lb_panels " + std::to_string(p.lb_panels) + ", expected share / lb");
    check(p.lb_check.csv == check_csv_path, "lb_check.csv names the check's CSV");
    // The threaded DGEMM.
    check(p.dgemm_threads == p.cores && p.dgemm_threaded_n == 1024 && p.dgemm_threaded_mflops > 0 &&
              p.dgemm_single_mflops > 0,
          "threaded DGEMM fields: threads " + std::to_string(p.dgemm_threads) + ", n " +
              std::to_string(p.dgemm_threaded_n));
    // The layout of the cores, from the threaded DGEMM: one rank per core
    // (this communicator's ranks) against one rank of the node's cores.
    check(p.core_layout.measured == (p.cores >= 2), "core_layout measured where there are two cores or more");
    if (p.core_layout.measured)
      check(p.core_layout.ranks == ranks && p.core_layout.threads == p.cores && p.core_layout.n == 1024 &&
                p.core_layout.ranks_mflops == p.dgemm_single_mflops * ranks &&
                p.core_layout.threads_mflops == p.dgemm_threaded_mflops &&
                (p.core_layout.better == CoreLayout::threads) ==
                    (p.core_layout.threads_per_core() > p.core_layout.ranks_per_core()),
            "core_layout: " + describe(p.core_layout));
    // The packed GEMM's ladder on this CPU's kernel at n = 128, and the leaf.
    check(p.packed.measured && p.packed.n == 128 && p.packed.rounds == 1 && p.packed.isa == local::packed_isa(),
          "packed_gemm group: n " + std::to_string(p.packed.n) + ", rounds " + std::to_string(p.packed.rounds));
    {
      const std::vector<local::PackedBlocking> ladder = packed_ladder(p.packed.isa);
      bool same = p.packed.candidates.size() == ladder.size(), best_found = false;
      for (std::size_t i = 0; same && i < ladder.size(); ++i) {
        same = p.packed.candidates[i].blocking == ladder[i] && p.packed.candidates[i].mflops_median > 0;
        if (p.packed.candidates[i].blocking == p.packed.best)
          best_found = p.packed.candidates[i].mflops_median == p.packed.packed_mflops;
      }
      check(same && best_found, "packed candidates are the ladder, best is the fastest of them");
      check(p.packed.blas_mflops > 0 && p.packed.speedup.measured() &&
                p.packed.leaf == packed_leaf_choice(p.packed.speedup),
            "packed leaf follows the two rates");
      check(to_params(p).packed_speed == p.packed.packed_mflops / p.packed.blas_mflops, "to_params packed_speed");
    }
    // The threaded addition: measured with the node's cores where it has two or more.
    check(p.add_threads == (p.cores >= 2 ? p.cores : 0) && (p.add_threads == 0) == (p.add_threaded_bytes_per_s == 0),
          "threaded addition fields: threads " + std::to_string(p.add_threads) + ", cores " +
              std::to_string(p.cores) + ", bytes/s " + std::to_string(p.add_threaded_bytes_per_s));
    check(p.peak_dgemm_mflops > 0, "peak DGEMM rate > 0");
    check(p.t_op_s > 0 && p.t_op_s >= 1.0 / (p.peak_dgemm_mflops * 1e6) * (1 - 1e-12),
          "t_op > 0 and not faster than the peak");
    check(p.problem.n == 128 && p.problem.pc == ranks && p.problem.kmax == 64, "tuning problem recorded");
    check(p.libraries.scalapack == "test-scalapack", "ScaLAPACK version passed through");
    check(!p.libraries.mpi.empty() && p.libraries.mpi.find('\n') == std::string::npos &&
              p.libraries.mpi.find('\0') == std::string::npos,
          "MPI version is one line of text: " + p.libraries.mpi);
    check(p.host.find('\0') == std::string::npos, "host name has no NUL");
    check(p.libraries.blas.find("OpenBLAS") != std::string::npos, "BLAS config: " + p.libraries.blas);
    check(!p.host.empty() && !p.cpu_model.empty() && p.cores >= 1, "host facts");
    check(p.date.size() == 20 && p.date.back() == 'Z', "ISO date: " + p.date);
    check(p.add_bytes_per_s > 0, "add bandwidth > 0");
    check(p.dgemm_profile.size() >= 2, "profile points");
    // Panel points of the lb search (m x n/ranks x k) and the square DGEMMs
    // of the local Strassen crossover step (n x n x n).
    std::size_t panels = 0, squares = 0;
    for (const auto& pt : p.dgemm_profile) {
      const bool panel = pt.m == 128 && pt.n == 128 / ranks && pt.k >= 8 && pt.k <= 64;
      const bool square = pt.m == pt.n && pt.n == pt.k && pt.n >= 256;
      panels += panel;
      squares += square;
      check((panel || square) && pt.mflops > 0, "profile point " + std::to_string(pt.m) + "x" + std::to_string(pt.n) +
                                                    "x" + std::to_string(pt.k));
    }
    if (ranks >= 2) {
      check(p.network_measured, "network measured");
      // A units check (seconds, not microseconds), not a speed check: under
      // ctest -j with oversubscribed ranks a ping-pong can wait for a time
      // slice of the scheduler (a few ms), so the bound is 50 ms; a latency
      // written in microseconds (~1-10) would still fail it.
      check(p.latency_s > 0 && p.latency_s < 50e-3, "latency in (0, 50 ms): " + std::to_string(p.latency_s));
      check(p.tau_pingpong > 0 && p.tau_alltoall > 0, "tau > 0");
      check(p.tau_model == TauModel::alltoall, "tau model is all-to-all");
      const model::MachineParams m = to_params(p);
      check(m.tau == p.tau_alltoall && m.latency_s == p.latency_s, "to_params");
      // Both ranks on this one machine: the ping-pong is the intra-node
      // level, every rank of the node exchanged at once, the inter-node
      // level is not known, so the models price one level.
      const NetworkLevelsRecord& lv = p.network_levels;
      check(lv.present && lv.levels.ranks_per_node == 2 && lv.nodes == 1, "network_levels: 2 ranks on 1 node");
      check(lv.levels.intra.latency_s == p.latency_s && lv.levels.intra.tau == p.tau_pingpong,
            "network_levels: the ping-pong is the intra-node level");
      check(lv.levels.intra_tau_concurrent > 0, "network_levels: the node's exchange at once measured");
      check(lv.levels.inter.tau == 0 && !m.network.two_level(), "network_levels: one node, one level priced");
      // The overlap step ran between ranks 0 and 1, on this one node, and
      // the models get its fraction.
      const ShiftOverlapRecord& ov = p.shift_overlap;
      check(ov.measured && ov.partner == 1 && !ov.across_nodes && ov.points.size() == std::size(kOverlapSizes),
            "shift_overlap: " + describe(ov));
      for (std::size_t i = 0; i < ov.points.size(); ++i) {
        const ShiftOverlapPoint& pt = ov.points[i];
        check(pt.bytes == kOverlapSizes[i] && pt.exchange_s > 0 && pt.compute_s > 0 && pt.both_s > 0 &&
                  pt.fraction >= 0 && pt.fraction <= 1 && pt.rounds >= 1 &&
                  m.shift_overlap.at(static_cast<double>(pt.bytes)) == pt.fraction,
              "shift_overlap point " + std::to_string(i) + ": " + describe(ov));
      }
    } else {
      check(!p.network_measured && p.latency_s == 0 && p.tau_alltoall == 0, "no network with one rank");
      check(!p.network_levels.present, "no network_levels with one rank");
      check(!p.shift_overlap.measured && !to_params(p).shift_overlap.measured(), "no shift_overlap with one rank");
    }

    // The CSV: the documented header and one row per profile point.
    std::ifstream csv(csv_path);
    std::string header, row;
    std::getline(csv, header);
    check(header ==
              "m,n,k,reps,t_median,mflops,mflops_max,papi_tot_cyc,papi_l2_tcm,x,lb,mflops_ci_lo,mflops_ci_hi,"
              "mflops_smooth,rule_lb",
          "CSV header: " + header);
    auto fields = [](const std::string& line) {
      std::vector<std::string> out;
      std::stringstream ss(line);
      std::string f;
      while (std::getline(ss, f, ',')) out.push_back(f);
      if (!line.empty() && line.back() == ',') out.push_back("");
      return out;
    };
    std::size_t rows = 0;
    while (std::getline(csv, row)) {
      ++rows;
      const auto f = fields(row);
      check(f.size() == 15 && f[3] == "3" && f[10] == std::to_string(p.lb) && f[14] == std::to_string(p.rule_lb),
            "CSV row has 15 columns, reps = passes = 3, lb and rule_lb: " + row);
    }
    check(rows == panels, "one CSV row per panel point");
    // The check's CSV: one row per candidate, the chosen one marked.
    std::ifstream check_csv(check_csv_path);
    std::getline(check_csv, header);
    check(header ==
              "n,pr,pc,nb,lb,rounds,mflops_median,ratio_median,ratio_ci_lo,ratio_ci_hi,coverage,reference_lb,"
              "rule_lb,chosen",
          "lb check CSV header: " + header);
    std::size_t check_rows = 0, chosen = 0;
    while (std::getline(check_csv, row)) {
      ++check_rows;
      const auto f = fields(row);
      check(f.size() == 14, "lb check CSV row has 14 columns: " + row);
      if (f.size() == 14 && f[13] == "1") {
        ++chosen;
        check(f[4] == std::to_string(best_lb), "the chosen row is the check's best, " + std::to_string(best_lb) + ": " + row);
      }
    }
    check(check_rows == p.lb_check.candidates.size() && chosen == 1, "one row per candidate, one chosen");
    check(squares >= 1 && p.strassen_tried_n >= 256, "square crossover points in the profile");
    // The kernel model (step 6c): every shape and pass of N = 128 timed once
    // on every rank at once, one sample per call (its slowest rank's),
    // fitted, its timings in the CSV beside the profile's.
    {
      const KernelTimeModel& k = p.kernel_model;
      const int shapes = static_cast<int>(kernel_model_shapes(128).size());
      const int sizes = static_cast<int>(kernel_model_pass_sizes(128).size());
      check(k.measured && k.max_dim == 128 && k.rounds == 1 && k.ranks == ranks,
            "kernel model measured at N = 128, 1 round, on every rank");
      check(k.dgemm.fitted() && k.dgemm.shapes == shapes && k.dgemm.points == shapes,
            "kernel model DGEMM fit: " + std::to_string(k.dgemm.shapes) + " shapes, " +
                std::to_string(k.dgemm.points) + " points");
      for (const BytesTimeFit* f : {&k.add, &k.copy, &k.pack})
        check(f->fitted() && f->sizes == sizes && f->points == sizes && f->log_sd >= 0,
              "kernel model pass fit: " + std::to_string(f->sizes) + " sizes");
      check(k.dgemm.a_s >= 0 && k.dgemm.c_s_per_mn >= 0 && k.dgemm.d_s_per_mk >= 0 && k.dgemm.e_s_per_nk >= 0 &&
                k.dgemm.log_sd >= 0,
            "kernel model coefficients >= 0");
      check(p.kernel_model_csv == kernel_csv_path, "kernel_model.csv names the timings' CSV");
      std::ifstream kcsv(kernel_csv_path);
      std::getline(kcsv, header);
      check(header == "kind,m,n,k,bytes,seconds,fitted_s", "kernel model CSV header: " + header);
      int krows = 0;
      while (std::getline(kcsv, row)) ++krows;
      check(krows == shapes + 3 * sizes, "one kernel model CSV row per timed call (its slowest rank): " + std::to_string(krows));
    }
    check(!std::filesystem::exists(json_path + ".tmp") && !std::filesystem::exists(csv_path + ".tmp") &&
              !std::filesystem::exists(kernel_csv_path + ".tmp") &&
              !std::filesystem::exists(check_csv_path + ".tmp"),
          "no temporary files left");
    std::printf("lb = %lld (rule %lld), peak %.0f MFLOPS at k = %lld, latency %.3g s, tau a2a %.3g doubles/s\n",
                static_cast<long long>(p.lb), static_cast<long long>(p.rule_lb), p.peak_dgemm_mflops,
                static_cast<long long>(p.lb_at_max),
                p.latency_s, p.tau_alltoall);
    std::printf("notes: %s\n", p.notes.c_str());
  }

  if (rank == 0) {
    const MachineProfile back = read_profile(alone.profile_path);
    check(back.kernel_model.measured && back.kernel_model.dgemm.points == added.kernel_model.dgemm.points &&
              back.kernel_model_csv == alone.kernel_model_csv_path &&
              std::filesystem::exists(alone.kernel_model_csv_path),
          "add_kernel_model wrote the profile and its CSV");
    std::filesystem::remove_all(base);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks > 2) {
    if (rank == 0) std::fprintf(stderr, "test_tune_small: run with 1 or 2 ranks (got %d)\n", ranks);
    MPI_Finalize();
    return 2;
  }
  try {
    run(ranks);
  } catch (const std::exception& e) {
    check(false, std::string("unexpected exception: ") + e.what());
  }
  int total = failures;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("test_tune_small: %s (%d failed checks)\n", total == 0 ? "PASS" : "FAIL", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
