#include "core/simulation.hpp"

#include <cstdlib>
#include <stdexcept>

#ifdef MMBENCH_SMPI
#include <smpi/smpi.h>

#include <new>

#endif

namespace mmbench::sim {

#ifdef MMBENCH_SMPI
namespace {
std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// Prices of charged work, set once per rank by the CLI (each simulated
// rank has its own copy of these globals: SMPI privatizes the
// executable's data).
ChargedPrices g_prices;
bool priced() { return g_prices.s_per_flop > 0; }
}  // namespace
#endif

#ifdef MMBENCH_SMPI
bool simulated() { return true; }
std::string platform() { return env("MMBENCH_SIM_PLATFORM").empty() ? "smpi" : env("MMBENCH_SIM_PLATFORM"); }
std::string platform_sha256() { return env("MMBENCH_SIM_PLATFORM_SHA256"); }
bool charged() {
  static const bool c = [] {
    const std::string m = env("MMBENCH_SIM_COMPUTE");
    if (m.empty() || m == "real") return false;
    if (m == "charged") return true;
    throw std::invalid_argument("MMBENCH_SIM_COMPUTE must be real or charged, not '" + m + "'");
  }();
  return c;
}
std::string compute_mode() { return charged() ? "charged" : "real"; }
std::string profile_path() { return env("MMBENCH_SIM_PROFILE"); }

namespace {
int g_rank_threads = 1;  // per simulated rank (SMPI privatizes globals)
}  // namespace

void set_charged_prices(const ChargedPrices& prices) { g_prices = prices; }

void set_rank_threads(int threads) { g_rank_threads = threads > 0 ? threads : 1; }
int rank_threads() { return g_rank_threads; }

void charge_dgemm(std::int64_t m, std::int64_t n, std::int64_t k) {
  if (!charged() || m <= 0 || n <= 0 || k <= 0) return;
  const double flops = 2.0 * double(m) * double(n) * double(k) / g_rank_threads;
  if (priced()) smpi_execute(flops * g_prices.s_per_flop);
  else smpi_execute_flops(flops);
}

void charge_add(std::int64_t elements) {
  if (!charged() || elements <= 0) return;
  const double e = double(elements) / g_rank_threads;
  if (priced() && g_prices.s_per_element > 0) smpi_execute(e * g_prices.s_per_element);
  else smpi_execute_flops(e);
}

bool shares_buffer(std::size_t bytes) { return bytes >= kSharedBufferBytes && charged(); }

void* shared_allocate(std::size_t bytes) {
  void* p = smpi_shared_malloc(bytes, __FILE__, __LINE__);
  if (!p) throw std::bad_alloc();
  return p;
}

void shared_free(void* p) noexcept { smpi_shared_free(p); }
#else
bool simulated() { return false; }
std::string platform() { return {}; }
std::string platform_sha256() { return {}; }
bool charged() { return false; }
std::string compute_mode() { return {}; }
std::string profile_path() { return {}; }
void charge_dgemm(std::int64_t, std::int64_t, std::int64_t) {}
void charge_add(std::int64_t) {}
void set_charged_prices(const ChargedPrices&) {}
void set_rank_threads(int) {}
int rank_threads() { return 1; }
bool shares_buffer(std::size_t) { return false; }
void* shared_allocate(std::size_t) { throw std::logic_error("shared buffers exist only in the SMPI build"); }
void shared_free(void*) noexcept {}
#endif

}  // namespace mmbench::sim
