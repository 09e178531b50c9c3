// Which logical CPUs share a physical core (SMT siblings), from the
// kernel's topology files (/sys/devices/system/cpu/cpuN/topology).
//
// Why it matters: a peak measured with one thread per logical CPU on an SMT
// host runs two threads on each core, so its rate "per core" is per
// hardware thread -- about half a core's. mmbench's peak_fraction divides a
// row by the peak of the cores it used, so the peak is measured with one
// thread per physical core (tuner/peak.hpp).
#pragma once

#include <vector>

namespace mmbench {

// Where one logical CPU sits: its package (socket) and core id inside it.
// package = -1 where the kernel does not say; core ids repeat per package.
struct CpuPlace {
  int cpu = 0;
  int package = -1;
  int core = -1;
};

// The places of `cpus`, read from sysfs. A CPU whose files are missing or
// unreadable counts as a core of its own (package -1, core = its number).
std::vector<CpuPlace> read_cpu_places(const std::vector<int>& cpus);

// One CPU per physical core: the first CPU listed of each (package, core),
// in the order of `places`. Example: places (cpu, package, core)
// (0,0,0) (1,0,1) (2,0,0) (3,0,1) -- 2 cores with 2 threads each, Linux's
// usual numbering -- gives {0, 1}; without SMT every CPU is kept.
std::vector<int> one_cpu_per_core(const std::vector<CpuPlace>& places);

}  // namespace mmbench
