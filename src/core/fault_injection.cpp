#include "core/fault_injection.hpp"

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

namespace mmbench {

void maybe_inject_fault(std::string_view algo, std::string_view phase, int rank, int ranks) {
  static const std::string spec = [] {
    const char* v = std::getenv("MMBENCH_FAULT_INJECT");
    return std::string(v ? v : "");
  }();
  if (spec.empty()) return;
  // algo@phase[@rank]
  const auto a = spec.find('@');
  if (a == std::string::npos) return;
  const auto b = spec.find('@', a + 1);
  const std::string want_algo = spec.substr(0, a);
  const std::string want_phase = spec.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  const std::string who = b == std::string::npos ? "" : spec.substr(b + 1);
  const bool every_rank = who == "all";
  const int want_rank = who.empty() ? ranks - 1 : every_rank ? rank : std::atoi(who.c_str());
  if (want_algo != algo || want_phase != phase || want_rank != rank) return;
  if (phase == "alloc") throw std::bad_alloc();
  throw std::runtime_error("injected fault (MMBENCH_FAULT_INJECT=" + spec + ")");
}

}  // namespace mmbench
