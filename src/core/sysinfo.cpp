#include "core/sysinfo.hpp"

#include <mpi.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

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
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
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
