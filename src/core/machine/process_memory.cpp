#include "core/machine/process_memory.hpp"

#include <fstream>
#include <string>

#include "core/machine/heap_policy.hpp"

namespace mmbench::process_memory {

namespace {
// A "Key:   1234 kB" line of /proc/self/status, in bytes; -1 if absent.
std::int64_t status_field(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const std::size_t colon = line.find(':');
    try {
      return std::stoll(line.substr(colon + 1)) * 1024;
    } catch (const std::exception&) {
      return -1;
    }
  }
  return -1;
}
}  // namespace

std::int64_t resident_bytes() { return status_field("VmRSS:"); }
std::int64_t peak_resident_bytes() { return status_field("VmHWM:"); }

bool reset_peak_resident() {
  // Free heap pages the allocator kept go back to the system first, so that
  // memory reused from earlier configurations is faulted in again and shows
  // in the peak (glibc; elsewhere the peak may miss such reuse).
  heap_policy::release_free_memory();
  std::ofstream out("/proc/self/clear_refs");
  if (!out) return false;
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace mmbench::process_memory
