#include "cli/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace mmbench::cli {

Progress::Progress(bool active, bool force, std::size_t total)
    : tty_(isatty(STDERR_FILENO) != 0), total_(total), t0_(std::chrono::steady_clock::now()) {
  on_ = active && (tty_ || force);
}

void Progress::start(const std::string& what) {
  if (!on_) return;
  double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  std::string eta = done_ ? fmt::format(", ~{:.0f}s left", el / done_ * (total_ - done_)) : "";
  std::string line = fmt::format("[{}/{}] {} ({:.0f}s elapsed{})", done_ + 1, total_, what, el, eta);
  if (tty_) fmt::print(stderr, "\r\033[K{}", line);
  else fmt::print(stderr, "{}\n", line);
  std::fflush(stderr);
  ++done_;
}

void Progress::clear() {
  if (on_ && tty_) {
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
  }
}

void Progress::finish() { clear(); }

}  // namespace mmbench::cli
