#include "results/layout_summary.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "ranking/selection.hpp"
#include "run/round_statistics.hpp"

namespace mmbench::results {

namespace {

std::string layout_of(const ResultRow& r) {
  return fmt::format("{} rank{} x {} thread{}", r.p, r.p == 1 ? "" : "s", r.threads, r.threads == 1 ? "" : "s");
}

}  // namespace

std::vector<std::string> layout_summary(const std::vector<ResultRow>& rows, const std::vector<run::Measured>& measured,
                                        const std::vector<run::Config>& configs) {
  // Per problem: the fastest row of each layout kind (median time).
  struct Best {
    std::optional<std::size_t> plain, hybrid;
  };
  std::map<std::tuple<Index, Index, Index>, Best> best;
  std::vector<std::tuple<Index, Index, Index>> order;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ResultRow& r = rows[i];
    // The dgemm peer (and any dgemm row) cannot run as a hybrid: not a layout here.
    if (r.status != ResultRow::Status::ok || !r.timing || !configs[i].algo->uses().hybrid) continue;
    const auto key = std::make_tuple(r.pb.m, r.pb.n, r.pb.k);
    if (!best.count(key)) order.push_back(key);
    std::optional<std::size_t>& slot = r.hybrid > 1 ? best[key].hybrid : best[key].plain;
    if (!slot || r.timing->interval.median < rows[*slot].timing->interval.median) slot = i;
  }
  std::vector<std::string> out;
  for (const auto& key : order) {
    const Best& b = best.at(key);
    if (!b.plain || !b.hybrid) continue;
    const auto label = [&](std::size_t i) {
      return ranking::Candidate{configs[i].algo, configs[i].opt, {}, {}, {}}.label();
    };
    MedianInterval ratio;
    try {
      ratio = run::paired_speed_ratio(measured[*b.plain].times, measured[*b.hybrid].times);
    } catch (const std::invalid_argument&) {
      continue;  // no round with both: nothing to pair
    }
    const ResultRow& h = rows[*b.hybrid];
    const ResultRow& p = rows[*b.plain];
    out.push_back(
        fmt::format("layouts, m={} n={} k={}: {} ({}) {:.3f}x [{:.3f}, {:.3f}] the speed of {} ({}), {:.0f} % "
                    "interval, {} rounds: {}",
                    h.pb.m, h.pb.n, h.pb.k, label(*b.hybrid), layout_of(h), ratio.median, ratio.lo, ratio.hi,
                    label(*b.plain), layout_of(p), 100 * ratio.coverage, ratio.n,
                    !(ratio.coverage > 0) ? "too few rounds to say"
                    : ratio.lo > 1        ? "the hybrid won"
                    : ratio.hi < 1        ? "one thread per rank won"
                                          : "no clear winner"));
  }
  return out;
}

}  // namespace mmbench::results
