#include "core/simulation.hpp"

#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>

#ifdef MMBENCH_SMPI
#include <smpi/smpi.h>

#include <new>

#include "core/matrix/large_buffer.hpp"
#include "core/stats/lognormal_noise.hpp"
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
// executable's data), and the rank's noise generator.
ChargedPrices g_prices;
std::optional<LognormalNoise> g_noise;
int g_rank_threads = 1;

bool priced() { return g_prices.s_per_flop > 0; }
bool fitted() { return g_prices.kernel.measured && g_prices.kernel.dgemm.fitted(); }

// A fitted price times this call's noise (1 without noise).
double noisy(double seconds, double log_sd) {
  if (!g_noise) return seconds;
  return seconds * g_noise->factor(log_sd);
}

double dgemm_speedup() {
  if (g_rank_threads <= 1) return 1.0;
  return g_prices.dgemm_speedup ? g_prices.dgemm_speedup(g_rank_threads) : g_rank_threads;
}
double pass_speedup() {
  if (g_rank_threads <= 1) return 1.0;
  return g_prices.pass_speedup ? g_prices.pass_speedup(g_rank_threads) : g_rank_threads;
}

// One fitted elementwise pass: its fit's time, noise, the rank's threads.
void charge_fitted_pass(const BytesTimeFit& fit, std::int64_t bytes) {
  if (!fit.fitted() || bytes <= 0) return;
  smpi_execute(noisy(fit.seconds(static_cast<double>(bytes)), fit.log_sd) / pass_speedup());
}
}  // namespace

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

std::string compute_pricing() {
  if (!charged()) return "real";
  if (!fitted()) return "flat";
  return g_noise ? "fitted+noise" : "fitted";
}

bool noise_requested() {
  const std::string v = env("MMBENCH_SIM_NOISE");
  if (v.empty() || v == "on") return true;
  if (v == "off") return false;
  throw std::invalid_argument("MMBENCH_SIM_NOISE = '" + v + "' must be on or off");
}

std::uint64_t noise_seed() {
  const std::string v = env("MMBENCH_SIM_SEED");
  if (v.empty()) return 1;
  const bool digits = v.size() <= 19 && v.find_first_not_of("0123456789") == std::string::npos;
  const unsigned long long s = digits ? std::strtoull(v.c_str(), nullptr, 10) : 0;
  if (!digits || s > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()))
    throw std::invalid_argument("MMBENCH_SIM_SEED = '" + v + "' must be an integer in [0, 9223372036854775807]");
  return s;
}

void set_charged_prices(const ChargedPrices& prices) {
  g_prices = prices;
  g_noise.reset();
  if (fitted() && prices.noise) g_noise.emplace(prices.seed, prices.stream);
}

void set_rank_threads(int threads) { g_rank_threads = threads > 0 ? threads : 1; }
int rank_threads() { return g_rank_threads; }

void charge_dgemm(std::int64_t m, std::int64_t n, std::int64_t k) {
  if (!charged() || m <= 0 || n <= 0 || k <= 0) return;
  if (fitted()) {
    const DgemmTimeFit& f = g_prices.kernel.dgemm;
    const double busy = g_prices.busy_speed ? g_prices.busy_speed(g_rank_threads) : 1.0;
    smpi_execute(noisy(f.seconds(double(m), double(n), double(k)), f.log_sd) / dgemm_speedup() / busy);
    return;
  }
  const double flops = 2.0 * double(m) * double(n) * double(k) / g_rank_threads;
  if (priced()) smpi_execute(flops * g_prices.s_per_flop);
  else smpi_execute_flops(flops);
}

void charge_add(std::int64_t sums, std::int64_t bytes) {
  if (!charged() || sums <= 0) return;
  if (fitted()) return charge_fitted_pass(g_prices.kernel.add, bytes);
  const double e = double(sums) / g_rank_threads;
  if (priced() && g_prices.s_per_element > 0) smpi_execute(e * g_prices.s_per_element);
  else smpi_execute_flops(e);
}

void charge_copy(std::int64_t bytes) {
  if (charged() && fitted()) charge_fitted_pass(g_prices.kernel.copy, bytes);
}

void charge_pack(std::int64_t bytes) {
  if (charged() && fitted()) charge_fitted_pass(g_prices.kernel.pack, bytes);
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
std::string compute_pricing() { return {}; }
bool noise_requested() { return false; }
std::uint64_t noise_seed() { return 1; }
void charge_dgemm(std::int64_t, std::int64_t, std::int64_t) {}
void charge_add(std::int64_t, std::int64_t) {}
void charge_copy(std::int64_t) {}
void charge_pack(std::int64_t) {}
void set_charged_prices(const ChargedPrices&) {}
void set_rank_threads(int) {}
int rank_threads() { return 1; }
bool shares_buffer(std::size_t) { return false; }
void* shared_allocate(std::size_t) { throw std::logic_error("shared buffers exist only in the SMPI build"); }
void shared_free(void*) noexcept {}
#endif

}  // namespace mmbench::sim
