// MPI test of the whole tuner at a tiny size. Run with 2 ranks (1 x 2 grid):
//   mpirun -n 2 test_tune_small
// With 1 rank it checks the no-network path instead. Exit code 0 = pass;
// every failed check is printed by the rank that saw it.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/mpi_check.hpp"
#include "tuner/machine_profile.hpp"
#include "tuner/tuner.hpp"

namespace {

using namespace mmbench;
using namespace mmbench::tuner;

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

  TuneOptions o;
  o.n = 128;
  o.pr = 1;
  o.pc = ranks;
  o.kmin = 8;
  o.kmax = 64;
  o.reps = 1;
  o.warmup = 0;
  o.add_n = 256;
  o.network_reps = 2;
  o.profile_path = json_path;
  o.profile_csv_path = csv_path;
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
  bad.kmin = 80;
  expect_throw<std::invalid_argument>([&] { run_tuner(bad, MPI_COMM_WORLD, {}); }, "kmin > kmax", "kmax = 64");

  int lines = 0;
  const MachineProfile returned = run_tuner(o, MPI_COMM_WORLD, [&](const std::string& line) {
    ++lines;
    std::printf("[tune] %s\n", line.c_str());
  });
  check(rank == 0 ? lines > 5 : lines == 0, "progress is reported on rank 0 only");

  // Every rank returns the same profile.
  long long lb0 = returned.lb;
  MMBENCH_MPI(MPI_Bcast(&lb0, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
  check(returned.lb == lb0, "all ranks return the same lb");

  if (rank == 0) {
    MachineProfile p;
    try {
      p = read_profile(json_path);
    } catch (const std::exception& e) {
      check(false, std::string("profile reads back: ") + e.what());
      return;
    }
    check(p.lb == returned.lb, "file and returned profile agree");
    check(p.lb >= 8 && p.lb <= 64 && p.lb % 2 == 0, "lb in [8, 64] and even: " + std::to_string(p.lb));
    check(p.lb_at_max >= p.lb, "lb <= k of the maximum");
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
      check(p.latency_s > 0 && p.latency_s < 1e-3, "latency in (0, 1 ms): " + std::to_string(p.latency_s));
      check(p.tau_pingpong > 0 && p.tau_alltoall > 0, "tau > 0");
      check(p.tau_model == TauModel::alltoall, "tau model is all-to-all");
      const model::MachineParams m = to_params(p);
      check(m.tau == p.tau_alltoall && m.latency_s == p.latency_s, "to_params");
    } else {
      check(!p.network_measured && p.latency_s == 0 && p.tau_alltoall == 0, "no network with one rank");
    }

    // The CSV: the documented header and one row per profile point.
    std::ifstream csv(csv_path);
    std::string header, row;
    std::getline(csv, header);
    check(header == "m,n,k,reps,t_median,mflops,mflops_max,papi_tot_cyc,papi_l2_tcm,x,lb",
          "CSV header: " + header);
    std::size_t rows = 0;
    while (std::getline(csv, row)) {
      ++rows;
      check(row.size() > 3 && row.substr(row.size() - std::to_string(p.lb).size() - 1) ==
                                  "," + std::to_string(p.lb),
            "CSV row ends with lb: " + row);
    }
    check(rows == panels, "one CSV row per panel point");
    check(squares >= 1 && p.strassen_tried_n >= 256, "square crossover points in the profile");
    check(!std::filesystem::exists(json_path + ".tmp") && !std::filesystem::exists(csv_path + ".tmp"),
          "no temporary files left");
    std::printf("lb = %lld, peak %.0f MFLOPS at k = %lld, latency %.3g s, tau a2a %.3g doubles/s\n",
                static_cast<long long>(p.lb), p.peak_dgemm_mflops, static_cast<long long>(p.lb_at_max),
                p.latency_s, p.tau_alltoall);
    std::printf("notes: %s\n", p.notes.c_str());
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
