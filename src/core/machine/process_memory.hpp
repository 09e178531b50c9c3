// This process's memory as the operating system sees it (Linux
// /proc/self/status): the resident set now (VmRSS) and its high-water mark
// (VmHWM), which writing "5" to /proc/self/clear_refs resets to the
// resident set of that moment. The peak's growth over a window therefore
// includes what mmbench's own count (core/machine/memory_account.hpp) cannot see:
// MPI's buffers, ScaLAPACK's and OpenBLAS's workspaces. reset_peak_resident
// first returns the heap's free pages to the system (glibc malloc_trim), so
// that memory the allocator hands out again is counted again; pages never
// touched are not counted, and neither are pages a library keeps cached from
// an earlier configuration (OpenBLAS's buffers, MPI's registered memory).
// In a simulation (SMPI) the process holds every simulated rank: callers do
// not read it there.
#pragma once

#include <cstdint>

namespace mmbench::process_memory {

std::int64_t resident_bytes();       // VmRSS; -1 where unknown
std::int64_t peak_resident_bytes();  // VmHWM; -1 where unknown
// Gives free heap pages back (glibc), then resets VmHWM to the resident set
// now; false where the kernel does not allow the reset (no /proc, a kernel
// before 4.0, a sandbox).
bool reset_peak_resident();

}  // namespace mmbench::process_memory
