#include "core/machine/cpu_topology.hpp"

#include <fstream>
#include <set>
#include <string>
#include <utility>

namespace mmbench {

namespace {

// The integer in a one-line sysfs file; `fallback` where it cannot be read.
int read_int(const std::string& path, int fallback) {
  std::ifstream in(path);
  int v = fallback;
  if (!(in >> v)) return fallback;
  return v;
}

}  // namespace

std::vector<CpuPlace> read_cpu_places(const std::vector<int>& cpus) {
  std::vector<CpuPlace> out;
  out.reserve(cpus.size());
  for (int cpu : cpus) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    CpuPlace p;
    p.cpu = cpu;
    p.core = read_int(dir + "core_id", -1);
    p.package = p.core < 0 ? -1 : read_int(dir + "physical_package_id", -1);
    if (p.core < 0) p.core = cpu;  // unknown: a core of its own
    out.push_back(p);
  }
  return out;
}

std::vector<int> one_cpu_per_core(const std::vector<CpuPlace>& places) {
  std::set<std::pair<int, int>> seen;
  std::vector<int> cpus;
  for (const CpuPlace& p : places)
    if (seen.insert({p.package, p.core}).second) cpus.push_back(p.cpu);
  return cpus;
}

}  // namespace mmbench
