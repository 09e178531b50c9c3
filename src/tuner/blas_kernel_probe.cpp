#include "tuner/blas_kernel_probe.hpp"

#include <cblas.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "core/machine/openblas_cores.hpp"

extern char** environ;

namespace mmbench::tuner {

namespace {

using Clock = std::chrono::steady_clock;

// The child's environment: ours without OPENBLAS_CORETYPE (and with one
// BLAS thread), plus OPENBLAS_CORETYPE=core when a core is asked for.
std::vector<std::string> child_environment(const std::string& core) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string var = *e;
    if (var.rfind("OPENBLAS_CORETYPE=", 0) == 0 || var.rfind("OPENBLAS_NUM_THREADS=", 0) == 0) continue;
    env.push_back(var);
  }
  env.emplace_back("OPENBLAS_NUM_THREADS=1");
  if (!core.empty()) env.push_back("OPENBLAS_CORETYPE=" + core);
  return env;
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return fmt::format("killed by signal {} ({})", sig, strsignal(sig));
  }
  if (WIFEXITED(status)) return fmt::format("exited with code {}", WEXITSTATUS(status));
  return "ended abnormally";
}

}  // namespace

profile::KernelProbe probe_kernel(const std::string& core, const ProbeOptions& options) {
  profile::KernelProbe r;
  r.asked = core;
  int fds[2];
  if (pipe(fds) != 0) {
    r.reason = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  const std::string n = std::to_string(options.n);
  std::vector<char*> argv = {const_cast<char*>(options.executable.c_str()), const_cast<char*>("blas-probe"),
                             const_cast<char*>("--n"), const_cast<char*>(n.c_str()), nullptr};
  std::vector<std::string> env = child_environment(core);
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, options.executable.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    r.reason = fmt::format("cannot start {}: {}", options.executable, std::strerror(spawned));
    return r;
  }
  // Read until EOF or the deadline; a child past it is killed.
  const auto deadline = Clock::now() + std::chrono::duration<double>(options.timeout_s);
  std::string out;
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    char buf[4096];
    const ssize_t got = read(fds[0], buf, sizeof buf);
    if (got <= 0) break;  // EOF: the child closed its output (it ended, or is about to)
    out.append(buf, static_cast<std::size_t>(got));
  }
  close(fds[0]);
  int status = 0;
  if (!timed_out) {
    // Output closed: the child ends within moments; wait for it, bounded.
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  if (timed_out) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    r.reason = fmt::format("no answer within {:g} s (killed)", options.timeout_s);
    return r;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    r.reason = describe_status(status);
    return r;
  }
  try {
    const nlohmann::json j = nlohmann::json::parse(out);
    r.ran = j.at("core").get<std::string>();
    r.max_rel_err = j.at("max_rel_err").get<double>();
    r.mflops = j.at("mflops").get<double>();
    r.verified = j.at("verified").get<bool>();
    if (!r.verified) r.reason = fmt::format("wrong results (relative error {:.2g})", r.max_rel_err);
  } catch (const std::exception&) {
    r.verified = false;
    r.mflops = 0;
    std::string shown = out.substr(0, 60);
    std::replace(shown.begin(), shown.end(), '\n', ' ');
    r.reason = "unreadable answer '" + shown + "'";
  }
  return r;
}

std::vector<profile::KernelProbe> probe_blas_kernels(const ProbeOptions& options) {
  std::vector<profile::KernelProbe> probes;
  probes.push_back(probe_kernel("", options));
  for (const std::string& core : candidate_cores(cpu_flags())) probes.push_back(probe_kernel(core, options));
  return probes;
}

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

profile::KernelChoice choose_kernel(const std::vector<profile::KernelProbe>& probes, const std::string& running,
                                    bool pinned) {
  profile::KernelChoice c;
  c.running = running;
  c.pinned = pinned;
  for (const profile::KernelProbe& p : probes) {
    if (!p.verified) continue;
    if (lower(p.ran) == lower(running)) c.running_mflops = std::max(c.running_mflops, p.mflops);
    // A name OpenBLAS ignored (ran differs from asked) is no choice of its own.
    if (!p.asked.empty() && lower(p.ran) != lower(p.asked)) continue;
    if (p.mflops > c.fastest_mflops) {
      c.fastest_mflops = p.mflops;
      c.fastest = p.asked.empty() ? p.ran : p.asked;
    }
  }
  if (c.fastest.empty() || lower(c.fastest) == lower(running)) return c;
  c.switch_pays = c.running_mflops <= 0 || c.fastest_mflops >= kWorthSwitching * c.running_mflops;
  if (!c.switch_pays) return c;
  const std::string gain =
      c.running_mflops > 0 ? fmt::format("{:.2f}x", c.fastest_mflops / c.running_mflops) : std::string("faster");
  c.advice = fmt::format(
      "OpenBLAS runs its {} kernels{}; {} verified and ran DGEMM {} ({:.1f} against {:.1f} GFLOP/s, one thread): "
      "set OPENBLAS_CORETYPE={} (for MPI programs: mpirun -x OPENBLAS_CORETYPE={} ...)",
      running, pinned ? " (pinned by OPENBLAS_CORETYPE)" : "", c.fastest, gain, c.fastest_mflops / 1e3,
      c.running_mflops / 1e3, c.fastest, c.fastest);
  return c;
}

// ---- the child ----

namespace {

// max |C - C_ref| / (|alpha| k max|A| max|B| + |beta| max|C0|): a normwise
// error that a correct DGEMM keeps within a few units of roundoff.
double check_product(int m, int n, int k, bool ta, bool tb, std::mt19937_64& gen, bool corrupt) {
  std::uniform_real_distribution<double> u(-1, 1);
  const int lda = ta ? k : m, ldb = tb ? n : k;
  std::vector<double> A(static_cast<std::size_t>(lda) * (ta ? m : k)), B(static_cast<std::size_t>(ldb) * (tb ? k : n)),
      C(static_cast<std::size_t>(m) * n);
  for (double& x : A) x = u(gen);
  for (double& x : B) x = u(gen);
  for (double& x : C) x = u(gen);
  const double alpha = 1.5, beta = -0.75;
  std::vector<double> R = C;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l) {
        const double a = ta ? A[static_cast<std::size_t>(i) * lda + l] : A[static_cast<std::size_t>(l) * lda + i];
        const double b = tb ? B[static_cast<std::size_t>(l) * ldb + j] : B[static_cast<std::size_t>(j) * ldb + l];
        s += a * b;
      }
      R[static_cast<std::size_t>(j) * m + i] = alpha * s + beta * R[static_cast<std::size_t>(j) * m + i];
    }
  cblas_dgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, A.data(),
              lda, B.data(), ldb, beta, C.data(), m);
  if (corrupt) C[C.size() / 2] += 1.0;
  double diff = 0;
  for (std::size_t i = 0; i < C.size(); ++i) diff = std::max(diff, std::abs(C[i] - R[i]));
  return diff / (std::abs(alpha) * k + std::abs(beta));
}

}  // namespace

int blas_probe_child(int argc, char** argv) {
  int n = 1536;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--n") == 0) n = std::max(64, std::atoi(argv[i + 1]));
  const char* fault_env = std::getenv("MMBENCH_BLAS_PROBE_FAULT");
  const std::string fault = fault_env != nullptr ? fault_env : "";
  if (fault == "abort") std::abort();
  if (fault == "hang")
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  if (fault == "garbage") {
    std::printf("Illegal instruction?\n");
    return 0;
  }
  openblas_set_num_threads(1);
  std::mt19937_64 gen(12345);
  double err = 0;
  // Odd shapes, so no kernel's edge handling is skipped, and every
  // transpose combination; the last one's k = 520 spans more than one of
  // the kernels' k-blocks (OpenBLAS's GEMM_Q is 256 to 384 on x86 cores),
  // so the accumulation across blocks is checked too.
  constexpr int shapes[][3] = {{37, 53, 29}, {129, 67, 131}, {200, 201, 97}, {300, 257, 520}};
  for (const auto& s : shapes)
    for (int t = 0; t < 4; ++t) err = std::max(err, check_product(s[0], s[1], s[2], t & 1, t & 2, gen, fault == "wrong"));
  bool verified = err <= 1e-12;
  double mflops = 0;
  if (verified) {
    std::vector<double> A(static_cast<std::size_t>(n) * n, 0.5), B(A.size(), 0.25), C(A.size(), 0.0);
    double best = 1e300;
    for (int rep = 0; rep < 4; ++rep) {  // the first call warms up
      const auto t0 = Clock::now();
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A.data(), n, B.data(), n, 0.0, C.data(), n);
      const double t = std::chrono::duration<double>(Clock::now() - t0).count();
      if (rep > 0) best = std::min(best, t);
    }
    // The timed product is checked too: every element of C is exactly
    // n * 0.5 * 0.25 (sums of 0.125 stay exact in double for these n).
    const double want = 0.125 * n;
    for (const double c : C)
      if (c != want) {
        verified = false;
        err = std::max(err, std::abs(c - want) / want);
      }
    mflops = verified ? 2.0 * n * n * static_cast<double>(n) / best / 1e6 : 0.0;
  }
  const nlohmann::json j = {{"core", openblas_get_corename()}, {"verified", verified}, {"max_rel_err", err},
                            {"n", n}, {"mflops", mflops}};
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

}  // namespace mmbench::tuner
