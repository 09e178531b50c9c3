#include "tuner/tune_options.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "tuner/lb_rule.hpp"

namespace mmbench::tuner {

namespace {

void fail(const std::string& what) { throw std::invalid_argument("tune: " + what); }

}  // namespace

std::int64_t effective_kmax(const TuneOptions& o) {
  if (o.kmax > 0) return o.kmax;
  return o.pr > o.pc ? o.n / o.pr : o.n / o.pc;
}

void validate_timing(const TuneOptions& o) {
  if (o.n < 1) fail(fmt::format("n = {} must be >= 1", static_cast<long long>(o.n)));
  if (o.reps < 1) fail(fmt::format("reps = {} must be >= 1", o.reps));
  if (o.warmup < 0) fail(fmt::format("warmup = {} must be >= 0", o.warmup));
}

void validate(const TuneOptions& o, int ranks) {
  validate_timing(o);
  if (o.pr < 1 || o.pc < 1) fail(fmt::format("grid {}x{}: pr and pc must be >= 1", o.pr, o.pc));
  if (static_cast<long long>(o.pr) * o.pc != ranks) {
    fail(fmt::format("grid {}x{} has {} ranks, but the communicator has {} (pr * pc must equal it)", o.pr, o.pc,
                     static_cast<long long>(o.pr) * o.pc, ranks));
  }
  if (o.n < o.pr || o.n < o.pc) {
    fail(fmt::format("n = {} is smaller than the grid {}x{} (n must be >= pr and >= pc)", static_cast<long long>(o.n),
                     o.pr, o.pc));
  }
  if (!(o.x > 0.0 && o.x <= 1.0)) fail(fmt::format("x = {:g} is outside the allowed range (0, 1]", o.x));
  if (o.kmin < 2) fail(fmt::format("kmin = {} is below the allowed minimum 2", static_cast<long long>(o.kmin)));
  const std::int64_t kmax = effective_kmax(o);
  if (o.kmin > kmax) {
    fail(fmt::format("kmin = {} exceeds kmax = {}{}", static_cast<long long>(o.kmin), static_cast<long long>(kmax),
                     o.kmax > 0 ? "" : " (the default n/pc, or n/pr if pr > pc)"));
  }
  if (even_grid(o.kmin, kmax).empty()) {
    fail(fmt::format("[kmin, kmax] = [{}, {}] contains no even k", static_cast<long long>(o.kmin),
                     static_cast<long long>(kmax)));
  }
  if (o.passes < 1) fail(fmt::format("passes = {} must be >= 1", o.passes));
  if (o.lb_check_rounds < 1) fail(fmt::format("lb check rounds = {} must be >= 1", o.lb_check_rounds));
  if (o.lb_check_nb < 1) fail(fmt::format("lb check nb = {} must be >= 1", o.lb_check_nb));
  if (o.add_n < 1) fail(fmt::format("add_n = {} must be >= 1", static_cast<long long>(o.add_n)));
  if (o.network_reps < 1) fail(fmt::format("network_reps = {} must be >= 1", o.network_reps));
}

}  // namespace mmbench::tuner
