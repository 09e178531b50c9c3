// OpenBLAS's DYNAMIC_ARCH cores that can run on this CPU: the kernels a
// user can select with OPENBLAS_CORETYPE, and which of them to try.
//
// A DYNAMIC_ARCH build picks a core from cpuid when it is loaded; an old
// build that does not know a new CPU falls back to an old core (OpenBLAS
// 0.3.21 runs its Prescott SSE3 kernels on an Emerald Rapids Xeon), and an
// environment may pin a narrower core on purpose. Either way the DGEMM runs
// at a fraction of what the CPU can do, and only a measurement of the
// alternatives shows it: the alternatives are the cores whose instructions
// the CPU has (a core that needs more crashes with SIGILL).
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mmbench {

// One x86-64 core of OpenBLAS's DYNAMIC_ARCH list, as OPENBLAS_CORETYPE
// names it, with the /proc/cpuinfo flags its kernels need.
struct OpenblasCore {
  std::string_view name;
  std::vector<std::string_view> needs;
};

// The cores worth a try, narrowest first: one per kernel family (Nehalem's
// DGEMM is Core2's, Zen's is Haswell's own tuning, SapphireRapids' DGEMM is
// SkylakeX's with AMX elsewhere), so a probe costs a few seconds.
const std::vector<OpenblasCore>& openblas_cores();

// The cores of openblas_cores() whose needed flags are all in cpu_flags
// (the "flags" line of /proc/cpuinfo), narrowest first.
std::vector<std::string> candidate_cores(const std::set<std::string>& cpu_flags);

// The flags of /proc/cpuinfo's first "flags" line; empty where unreadable.
std::set<std::string> cpu_flags();

}  // namespace mmbench
