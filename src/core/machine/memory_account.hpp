// The count of mmbench's own buffers on this rank: every matrix, message
// and workspace buffer comes from one allocation path (core/matrix/large_buffer.hpp
// for LargeVector, the local kernel's workspace), which reports here. The
// high-water mark since the last reset_peak() is what a configuration's
// plan, matrices and multiply held at most -- the measured side of the
// memory prediction (algos/memory_estimate.hpp, docs/method.md §7.7).
//
// What it counts: the bytes mmbench asked for (not the allocator's rounding
// or the pages the kernel maps). What it cannot see: MPI's own buffers,
// ScaLAPACK's and OpenBLAS's workspaces, small bookkeeping (layouts,
// request lists). core/machine/process_memory.hpp reports the process as the
// operating system sees it.
//
// One count per process; in a simulation (SMPI) each simulated rank has its
// own (SMPI privatizes the executable's globals).
#pragma once

#include <cstddef>

namespace mmbench::memory_account {

void add(std::size_t bytes);
void remove(std::size_t bytes);

std::size_t current_bytes();  // held now
std::size_t peak_bytes();     // most held since the last reset_peak()
void reset_peak();            // the peak restarts from what is held now

}  // namespace mmbench::memory_account
