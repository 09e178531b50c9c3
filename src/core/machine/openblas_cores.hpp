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

// Vector width of a kernel or of a CPU, narrowest first (comparable).
enum class KernelWidth { sse, avx, avx2, avx512 };

// One x86-64 core of OpenBLAS's DYNAMIC_ARCH list (driver/others/dynamic.c),
// as OPENBLAS_CORETYPE names it: the width and instructions of its DGEMM
// kernels, and -- for the cores worth a try -- the /proc/cpuinfo flags they
// need (a core that needs more crashes with SIGILL).
struct OpenblasCore {
  std::string_view name;
  KernelWidth width;
  std::string_view isa;                 // "SSE3" for Prescott, "AVX2", "AVX-512", ...
  std::vector<std::string_view> needs;  // empty: not probed
};

// Every core, the probed ones narrowest first, one per kernel family
// (Nehalem's DGEMM is Core2's, Zen's is Haswell's own tuning,
// SapphireRapids' DGEMM is SkylakeX's with AMX elsewhere), so a probe
// costs a few seconds.
const std::vector<OpenblasCore>& openblas_cores();

// The core of that name (any case: openblas_get_config() writes "Haswell",
// OPENBLAS_CORETYPE accepts "haswell"); null for a name mmbench does not know.
const OpenblasCore* find_openblas_core(std::string_view name);

// The probed cores of openblas_cores() whose needed flags are all in
// cpu_flags (the "flags" line of /proc/cpuinfo), narrowest first.
std::vector<std::string> candidate_cores(const std::set<std::string>& cpu_flags);

// The flags of /proc/cpuinfo's first "flags" line; empty where unreadable.
std::set<std::string> cpu_flags();

}  // namespace mmbench
