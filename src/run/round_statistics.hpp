// What the rounds of one problem size say: per configuration its times and
// its speed relative to a reference configuration, formed round by round
// (core/stats/paired_stats.hpp explains why paired), and when `--reps auto` has
// measured enough. Pure functions: no MPI, unit-tested.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/stats/paired_stats.hpp"

namespace mmbench::run {

// Speed of x relative to ref, one ratio per round: t_ref[r] / t_x[r]
// (1.05 = x was 5 % faster in that round), summarized as the median with its
// order-statistics interval (coverage >= 95 % from 6 rounds, lower below:
// MedianInterval::coverage). Rounds where either time is missing (<= 0) are
// skipped.
// Throws std::invalid_argument when no round has both times.
MedianInterval paired_speed_ratio(const std::vector<double>& t_ref, const std::vector<double>& t_x);

// The configuration every ratio is taken against when --reps auto decides
// whether it has measured enough: the peer if the sweep has one, else the
// configuration with the smallest median time so far. nullopt: no times.
std::optional<std::size_t> reference_for_stopping(const std::vector<std::vector<double>>& times,
                                                  std::optional<std::size_t> peer);

// --reps auto: enough rounds when at least min_rounds are done and every
// configuration's ratio to the reference (see above) has an interval whose
// relative half-width is <= precision. A single configuration is judged by
// the interval of its own median time instead.
bool precise_enough(const std::vector<std::vector<double>>& times, std::optional<std::size_t> peer, double precision,
                    int min_rounds);

// Rounds --reps auto always does (so every figure has at least [min, max]
// of 3 paired samples even when the budget is tiny) and does before it
// looks at the precision (the first count whose order-statistics interval
// reaches 95 % coverage).
inline constexpr int kAutoMinRounds = 3;
inline constexpr int kAutoFirstPreciseRounds = 6;
inline constexpr int kAutoMaxRounds = 200;

}  // namespace mmbench::run
