#include "tuner/papi_counters.hpp"

#include <stdexcept>

#if MMBENCH_HAVE_PAPI
#include <papi.h>
#endif

namespace mmbench::tuner {

#if MMBENCH_HAVE_PAPI

namespace {

std::string papi_error(const char* call, int rc) {
  return std::string(call) + " failed: " + PAPI_strerror(rc);
}

}  // namespace

PapiCounters::PapiCounters() : event_set_(PAPI_NULL) {
  // PAPI_library_init may be called once per process; later objects find it
  // initialised already.
  if (PAPI_is_initialized() == PAPI_NOT_INITED) {
    const int version = PAPI_library_init(PAPI_VER_CURRENT);
    if (version != PAPI_VER_CURRENT) {
      message_ = "no hardware counters: " +
                 (version > 0 ? std::string("PAPI_library_init: header and library versions differ")
                              : papi_error("PAPI_library_init", version));
      return;
    }
  }
  if (int rc = PAPI_create_eventset(&event_set_); rc != PAPI_OK) {
    event_set_ = PAPI_NULL;
    message_ = "no hardware counters: " + papi_error("PAPI_create_eventset", rc);
    return;
  }
  if (int rc = PAPI_add_event(event_set_, PAPI_TOT_CYC); rc != PAPI_OK) {
    message_ = "no hardware counters: " + papi_error("PAPI_add_event(PAPI_TOT_CYC)", rc);
    return;
  }
  if (int rc = PAPI_add_event(event_set_, PAPI_L2_TCM); rc != PAPI_OK) {
    message_ = "no hardware counters: " + papi_error("PAPI_add_event(PAPI_L2_TCM)", rc);
    return;
  }
  // Adding can succeed while starting fails (no perf_event access): try once.
  if (int rc = PAPI_start(event_set_); rc != PAPI_OK) {
    message_ = "no hardware counters: " + papi_error("PAPI_start", rc);
    return;
  }
  long long scratch[2] = {0, 0};
  if (int rc = PAPI_stop(event_set_, scratch); rc != PAPI_OK) {
    message_ = "no hardware counters: " + papi_error("PAPI_stop", rc);
    return;
  }
  available_ = true;
}

PapiCounters::~PapiCounters() {
  if (event_set_ == PAPI_NULL) return;
  if (running_) {
    long long scratch[2];
    PAPI_stop(event_set_, scratch);
  }
  PAPI_cleanup_eventset(event_set_);
  PAPI_destroy_eventset(&event_set_);
}

void PapiCounters::start() {
  if (!available_) return;
  if (int rc = PAPI_start(event_set_); rc != PAPI_OK) {
    throw std::runtime_error(papi_error("PAPI_start", rc));
  }
  running_ = true;
}

CounterValues PapiCounters::stop() {
  if (!available_ || !running_) return {};
  long long values[2] = {0, 0};
  running_ = false;
  if (int rc = PAPI_stop(event_set_, values); rc != PAPI_OK) {
    throw std::runtime_error(papi_error("PAPI_stop", rc));
  }
  return {values[0], values[1]};
}

#else  // !MMBENCH_HAVE_PAPI

PapiCounters::PapiCounters() : message_("no hardware counters: mmbench was built without PAPI") {}
PapiCounters::~PapiCounters() = default;
void PapiCounters::start() {}
CounterValues PapiCounters::stop() { return {}; }

#endif

}  // namespace mmbench::tuner
