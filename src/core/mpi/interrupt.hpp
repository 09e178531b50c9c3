// SIGINT / SIGTERM during a sweep: finish cleanly instead of dying mid-row.
//
// The handlers only record the signal (async-signal-safe). The sweep asks
// interrupted() collectively between timed runs -- a signal may reach some
// ranks only (mpirun forwards it to each process in turn) -- so all ranks
// stop at the same point, the rows already written stay complete, and the
// run exits with 128 + the signal (130 for SIGINT, 143 for SIGTERM) after
// saying how many rows it wrote. A run in progress is not cut short: the
// check comes after it (at most one multiplication's time).
#pragma once

#include <string>

#include "core/mpi/comm.hpp"

namespace mmbench {

// Installs the handlers (idempotent).
void install_interrupt_handlers();

// The signal number any rank of comm has received, 0 if none. Collective.
int interrupted(const Comm& comm);

// How a message names the signal interrupted() returned: "SIGINT",
// "SIGTERM", else "signal N".
std::string signal_name(int signal);

}  // namespace mmbench
