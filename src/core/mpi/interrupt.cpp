#include "core/mpi/interrupt.hpp"

#include <csignal>

namespace mmbench {

namespace {
volatile std::sig_atomic_t g_signal = 0;

extern "C" void record_signal(int sig) { g_signal = sig; }
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = record_signal;
  sigemptyset(&sa.sa_mask);
  // SA_RESTART: a system call the signal lands in (a write of a CSV row)
  // resumes instead of failing half-way.
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int interrupted(const Comm& comm) { return static_cast<int>(comm.max(static_cast<long long>(g_signal))); }

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

}  // namespace mmbench
