// Optional hardware counters for the DGEMM profile (docs/method.md §8.1): total cycles
// and L2 cache misses per call, as in the thesis' Abb. 2.22.
//
// Counters are a luxury: virtual machines usually expose none (PAPI then
// fails with PAPI_ENOEVNT when the event is added), and a build may leave
// PAPI out entirely. So this class never throws for a missing counter: it
// reports available() == false and one message saying why, which the caller
// prints once. The profile simply has empty counter columns then.
//
// Build switch: MMBENCH_HAVE_PAPI = 1 uses <papi.h> (link -lpapi), 0 builds
// a stub that is never available. By default it is 1 where <papi.h> exists.
#pragma once

#include <cstdint>
#include <string>

#ifndef MMBENCH_HAVE_PAPI
#if __has_include(<papi.h>)
#define MMBENCH_HAVE_PAPI 1
#else
#define MMBENCH_HAVE_PAPI 0
#endif
#endif

namespace mmbench::tuner {

struct CounterValues {
  std::int64_t total_cycles = 0;  // PAPI_TOT_CYC
  std::int64_t l2_misses = 0;     // PAPI_L2_TCM
};

// Owns one PAPI event set with PAPI_TOT_CYC and PAPI_L2_TCM (RAII: the
// destructor stops, cleans up and destroys it). Not copyable; one per thread
// that measures.
class PapiCounters {
 public:
  PapiCounters();
  ~PapiCounters();
  PapiCounters(const PapiCounters&) = delete;
  PapiCounters& operator=(const PapiCounters&) = delete;

  // True if both events were added and counting works.
  bool available() const { return available_; }
  // Why not (empty when available), e.g. "no hardware counters: PAPI_add_event(PAPI_TOT_CYC)
  // failed: Event does not exist".
  const std::string& message() const { return message_; }

  // start() then stop() around the code to count. Without counters both do
  // nothing and stop() returns zeros. Throws std::runtime_error if PAPI
  // fails *after* having worked (then something is really wrong).
  void start();
  CounterValues stop();

 private:
  bool available_ = false;
  bool running_ = false;
  int event_set_ = -1;  // PAPI_NULL
  std::string message_;
};

}  // namespace mmbench::tuner
