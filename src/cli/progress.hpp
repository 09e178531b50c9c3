// Progress of a long sweep on stderr (rank 0 only): what runs, i of N,
// elapsed and estimated remaining time. Quiet when stderr is not a terminal
// unless forced, so it never leaks into redirected output; it never touches
// stdout, where the result table goes.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace mmbench::cli {

class Progress {
 public:
  // active: this rank reports at all; force: report even to a non-terminal.
  Progress(bool active, bool force, std::size_t total);
  void start(const std::string& what);  // begins item i+1 of total
  void clear();                          // erase the status line before stdout output
  void finish();

 private:
  bool on_ = false, tty_ = false;
  std::size_t total_ = 0, done_ = 0;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace mmbench::cli
