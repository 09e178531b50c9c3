#include "core/machine/sysinfo.hpp"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#ifndef MMBENCH_SCALAPACK_VERSION
#define MMBENCH_SCALAPACK_VERSION "unknown"
#endif

namespace mmbench {

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto pos = line.find(':');
      if (pos != std::string::npos) return line.substr(line.find_first_not_of(' ', pos + 1));
    }
  return "unknown";
}

int cpu_cores() {
  // Counted once: a cpuset does not change under a running job.
  static const int cores = [] {
    const long online = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
#ifndef MMBENCH_SMPI
    // The CPUs a cpuset cgroup (a Slurm job's, a container's, a node of
    // scripts/netns-cluster.sh) allows are those a thread gets when it asks
    // for every online CPU: the kernel drops the others. A thread of its
    // own asks, so no thread of the process changes its mask. Example: a
    // node held to CPU 1 of a 2-CPU machine asks for {0, 1}, gets {1}: 1.
    int allowed = 0;
    std::thread probe([&] {
      cpu_set_t want;
      CPU_ZERO(&want);
      for (long c = 0; c < online && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &want);
      cpu_set_t got;
      CPU_ZERO(&got);
      if (sched_setaffinity(0, sizeof want, &want) == 0 && sched_getaffinity(0, sizeof got, &got) == 0)
        allowed = CPU_COUNT(&got);
    });
    probe.join();
    if (allowed > 0) return allowed;
#endif
    return static_cast<int>(online);
  }();
  return cores;
}

namespace {
std::int64_t meminfo_bytes(const std::string& field) {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::int64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == field) return kb * 1024;
  return 0;
}
}  // namespace

std::int64_t available_memory_bytes() { return meminfo_bytes("MemAvailable:"); }
std::int64_t total_memory_bytes() { return meminfo_bytes("MemTotal:"); }

std::string mpi_library_version() {
  char buf[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(buf, &len);
  // Open MPI counts the terminating NUL in len: stop at the first NUL.
  std::string s(buf, ::strnlen(buf, static_cast<std::size_t>(len)));
  auto nl = s.find_first_of("\n,");
  return nl == std::string::npos ? s : s.substr(0, nl);
}

std::string scalapack_version() { return MMBENCH_SCALAPACK_VERSION; }
// Generated at build time (cmake/WriteVersion.cmake): "0.1.0+<commit>",
// "-dirty" appended when the code differs from the commit.
std::string mmbench_version_string();

std::string mmbench_version() { return mmbench_version_string(); }

namespace {
std::string format_utc(const char* fmt) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, fmt, &tm);
  return buf;
}
}  // namespace

std::string utc_timestamp() { return format_utc("%Y-%m-%dT%H:%M:%SZ"); }
std::string utc_date() { return format_utc("%Y-%m-%d"); }

}  // namespace mmbench
