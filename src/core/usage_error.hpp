// Bad user input: rank 0 prints the message once, every rank exits with
// code 2. Every rank parses the same arguments, so every rank throws the
// same UsageError without talking to the others.
#pragma once

#include <stdexcept>

namespace mmbench {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr int kExitUsage = 2;

}  // namespace mmbench
