// How the mmbench executable's processes keep the heap memory they free
// (glibc malloc), so that a library's per-call buffers cost what they cost
// in a program that keeps calling it.
//
// Why: ScaLAPACK's PBLAS allocates its lb-wide panels on every PDGEMM call
// and frees them at its end. Under glibc's defaults a block that is freed at
// the top of the heap goes back to the system once the free top exceeds the
// trim threshold, and the next call maps and first-touches it again. Whether
// that happens depends on what else the process holds: in mmbench run's
// process it did on every call, in a plain ScaLAPACK program calling PDGEMM
// repeatedly only on its first calls. Where first touching is slow, `run`
// then ranked a wide lb far behind a narrow one that the plain program and
// tune's lb check ran alike (docs/results.md, "2.5D's reduction, and
// PDGEMM's panels").
//
// What: keep_freed_heap_memory() sets glibc's mmap threshold to 32 MiB (the
// largest value its own dynamic threshold reaches) and turns the automatic
// trim off: blocks under 32 MiB come from the heap and stay there when
// freed, as in a long-running program whose allocator has settled; larger
// ones are mapped per allocation, as glibc always does. It changes nothing
// where the user set any of glibc's malloc variables (MALLOC_MMAP_THRESHOLD_,
// MALLOC_TRIM_THRESHOLD_, MALLOC_TOP_PAD_, MALLOC_MMAP_MAX_, GLIBC_TUNABLES):
// those are the user's choice. Only the executable calls it; the preload
// libraries live in the user's program and leave its allocator alone.
#pragma once

#include <string>

namespace mmbench::heap_policy {

inline constexpr long kMmapThresholdBytes = 32L << 20;

// Applies the policy above once per process (later calls return the first
// call's description).
void keep_freed_heap_memory();

// One line for the run header and the sidecar: "glibc: freed heap memory
// kept (mmap threshold 32 MiB, no trim)", "glibc defaults (MALLOC_TRIM_THRESHOLD_
// set by the user)", or "not glibc: the allocator's defaults". Before
// keep_freed_heap_memory(): "glibc defaults".
std::string describe();

// Gives free heap memory back to the system now (malloc_trim), so that the
// next allocations are fresh pages: for measuring the first touch itself.
void release_free_memory();

}  // namespace mmbench::heap_policy
