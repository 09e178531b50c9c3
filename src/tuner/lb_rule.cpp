#include "tuner/lb_rule.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace mmbench::tuner {

namespace {

void check_x(double x) {
  // Written as a negation so that NaN is rejected as well.
  if (!(x > 0.0 && x <= 1.0)) {
    throw std::invalid_argument("lb rule: x = " + std::to_string(x) +
                                " is outside the allowed range (0, 1]");
  }
}

void check_rate(std::int64_t k, double mflops) {
  if (!std::isfinite(mflops) || mflops < 0.0) {
    throw std::invalid_argument("lb rule: the rate at k = " + std::to_string(k) + " is " +
                                std::to_string(mflops) + "; expected a finite value >= 0");
  }
}

// Both choose_lb and the search compare against exactly this expression, so
// a point that passes in one passes in the other (no rounding mismatch).
double threshold_of(double max_mflops, double x) { return x * max_mflops; }

// Nearest even integer: 62.5 -> 62, 77.5 -> 78 (v / 2 rounded half away
// from zero, times 2).
std::int64_t round_even(double v) { return 2 * static_cast<std::int64_t>(std::llround(v / 2.0)); }

// The smart search keeps every measurement in a map ordered by k. All
// decisions depend only on measured values, so the call order is a pure
// function of them (which lets MPI ranks run the search in lockstep).
class SmartSearch {
 public:
  SmartSearch(std::int64_t kmin_even, std::int64_t kmax_even, double x, double tolerance,
              const std::function<double(std::int64_t)>& measure)
      : lo_(kmin_even), hi_(kmax_even), x_(x), tolerance_(tolerance), measure_(measure) {}

  double at(std::int64_t k) {
    auto it = points_.find(k);
    if (it != points_.end()) return it->second;
    const double mflops = measure_(k);
    if (!std::isfinite(mflops) || mflops < 0.0) {
      throw std::runtime_error("search_lb: measure_mflops(" + std::to_string(k) + ") returned " +
                               std::to_string(mflops) + "; expected a finite rate >= 0");
    }
    points_.emplace(k, mflops);
    return mflops;
  }

  void run(const std::vector<std::int64_t>& coarse) {
    for (std::int64_t k : coarse) at(k);
    for (;;) {
      const std::size_t before = points_.size();

      // 1. Make the best point a local maximum at resolution 2. Climbing
      //    only ever moves to higher values, so the result is the maximum
      //    of everything measured.
      const double best = at(climb(argmax()));
      const double thr = threshold_of(best, x_);

      // 3. Humps before the crossing that come close to the threshold: a
      //    smooth hump whose top lies between two coarse points is sampled
      //    below its peak, so give it the same local search. Copy the
      //    candidates first: climbing inserts into the map.
      std::vector<std::int64_t> humps;
      for (auto it = points_.begin(); it != points_.end() && it->second < thr; ++it) {
        const bool left_ok = it == points_.begin() || std::prev(it)->second <= it->second;
        const bool right_ok = std::next(it) == points_.end() || std::next(it)->second <= it->second;
        if (left_ok && right_ok && it->second >= kHumpMargin * thr) humps.push_back(it->first);
      }
      for (std::int64_t h : humps) climb(h);

      // 2. Refine the bracket below the first point that reaches the
      //    threshold (recomputed: a hump may have raised the maximum). A
      //    narrow bracket is measured at every even k; a wide one first at
      //    kSubdivisions evenly spaced points, and the next round of the
      //    loop refines the narrower bracket that leaves. Example: bracket
      //    (1200, 1500) has 149 even k inside; probe 1238, 1276, ..., 1466
      //    (step 38); if 1314 is the first to reach the threshold, the next
      //    round measures 1278 ... 1312 (18 values, dense).
      const double thr_now = threshold_of(points_.at(argmax()), x_);
      auto first = std::find_if(points_.begin(), points_.end(),
                                [&](const auto& p) { return p.second >= thr_now; });
      if (first != points_.begin()) {
        const std::int64_t below = std::prev(first)->first;
        const std::int64_t inside = (first->first - below) / 2 - 1;  // even k strictly between
        const std::int64_t step =
            inside <= kDenseBracket
                ? 2
                : std::max<std::int64_t>(
                      2, round_even(static_cast<double>(first->first - below) / kSubdivisions));
        for (std::int64_t k = below + step; k < first->first; k += step) at(k);
      }

      if (points_.size() == before) break;
    }
  }

  std::vector<ProfilePoint> measured() const {
    std::vector<ProfilePoint> out;
    out.reserve(points_.size());
    for (const auto& [k, mflops] : points_) out.push_back({k, mflops});
    return out;
  }

 private:
  // Coarse local maxima this far below the threshold (as a fraction of it)
  // are still searched for a hidden hump.
  static constexpr double kHumpMargin = 0.95;
  // Crossing brackets with at most this many even k inside are measured
  // densely; wider ones are cut into kSubdivisions pieces first.
  static constexpr std::int64_t kDenseBracket = 24;
  static constexpr double kSubdivisions = 8.0;
  // Golden section: probe 0.382 of the way into the larger sub-interval.
  static constexpr double kGolden = 0.3819660112501051;

  std::int64_t argmax() const {
    auto best = points_.begin();
    for (auto it = points_.begin(); it != points_.end(); ++it) {
      if (it->second > best->second) best = it;  // strict: ties keep the smaller k
    }
    return best->first;
  }

  // From c, climb to a local maximum at resolution 2: measure c - 2 and
  // c + 2; if one is higher, walk along the already measured points on that
  // side while they keep rising, then golden-section search the bracket
  // (lo, m, hi) in which m is the highest. Repeats until the neighbours of
  // the current point are both measured and not higher (by more than the
  // tolerance: a neighbour within noise of c is no reason to search on).
  std::int64_t climb(std::int64_t c) {
    for (;;) {
      const double fc = at(c);
      const double left = c - 2 >= lo_ ? at(c - 2) : -std::numeric_limits<double>::infinity();
      const double right = c + 2 <= hi_ ? at(c + 2) : -std::numeric_limits<double>::infinity();
      const double enough = fc * (1.0 + tolerance_);
      if (left <= enough && right <= enough) return c;
      const int dir = right > left ? +1 : -1;  // ties go left (smaller k)

      std::int64_t prev = c;
      std::int64_t m = c + 2 * dir;
      std::int64_t next = 0;
      bool has_next = false;
      for (;;) {
        auto it = points_.find(m);
        auto nx = dir > 0 ? std::next(it) : (it == points_.begin() ? points_.end() : std::prev(it));
        if (nx == points_.end()) break;
        if (nx->second > it->second) {
          prev = m;
          m = nx->first;
          continue;
        }
        next = nx->first;
        has_next = true;
        break;
      }
      if (!has_next) {  // still rising at the edge of the range: check m's neighbours
        c = m;
        continue;
      }
      c = golden(std::min(prev, next), m, std::max(prev, next));
    }
  }

  // Bracketed golden-section search over even k with f(m) >= f(a), f(b).
  // Shrinks (a, b) around m until b - a == 4, i.e. m's even neighbours are
  // both measured and not higher. Example: a = 100, m = 102, b = 200: the
  // right side is larger, probe t = 102 + round_even(98 * 0.382) = 140; if
  // f(140) > f(102) the new bracket is (102, 140, 200), else (100, 102, 140).
  std::int64_t golden(std::int64_t a, std::int64_t m, std::int64_t b) {
    while (b - a > 4) {
      if (m - a >= b - m) {
        const std::int64_t t =
            std::clamp(m - round_even(static_cast<double>(m - a) * kGolden), a + 2, m - 2);
        if (at(t) > at(m)) {
          b = m;
          m = t;
        } else {
          a = t;
        }
      } else {
        const std::int64_t t =
            std::clamp(m + round_even(static_cast<double>(b - m) * kGolden), m + 2, b - 2);
        if (at(t) > at(m)) {
          a = m;
          m = t;
        } else {
          b = t;
        }
      }
    }
    return m;
  }

  std::int64_t lo_, hi_;
  double x_;
  double tolerance_;
  const std::function<double(std::int64_t)>& measure_;
  std::map<std::int64_t, double> points_;
};

}  // namespace

std::int64_t choose_lb(const std::vector<ProfilePoint>& points, double x) {
  check_x(x);
  if (points.empty()) throw std::invalid_argument("lb rule: the DGEMM profile is empty");
  double max_mflops = 0.0;
  for (const ProfilePoint& p : points) {
    check_rate(p.k, p.mflops);
    max_mflops = std::max(max_mflops, p.mflops);
  }
  const double thr = threshold_of(max_mflops, x);
  std::int64_t lb = std::numeric_limits<std::int64_t>::max();
  for (const ProfilePoint& p : points) {
    if (p.mflops >= thr) lb = std::min(lb, p.k);
  }
  return lb;  // the maximum itself always qualifies (x <= 1), so lb is set
}

std::vector<std::int64_t> even_grid(std::int64_t kmin, std::int64_t kmax) {
  std::vector<std::int64_t> ks;
  const std::int64_t first = kmin + (kmin % 2 != 0 ? 1 : 0);
  for (std::int64_t k = first; k <= kmax; k += 2) ks.push_back(k);
  return ks;
}

std::vector<std::int64_t> coarse_grid(std::int64_t kmin, std::int64_t kmax, double ratio) {
  if (!(ratio > 1.0)) {
    throw std::invalid_argument("coarse_grid: ratio = " + std::to_string(ratio) +
                                " must be > 1");
  }
  const std::vector<std::int64_t> all = even_grid(kmin, kmax);
  if (all.empty()) return {};
  const std::int64_t last = all.back();
  std::vector<std::int64_t> ks{all.front()};
  while (ks.back() < last) {
    const double grown = static_cast<double>(ks.back()) * ratio;
    const std::int64_t next = std::max(ks.back() + 2, round_even(grown));
    ks.push_back(std::min(next, last));
  }
  return ks;
}

LbSearchResult search_lb(std::int64_t kmin, std::int64_t kmax, double x,
                         const std::function<double(std::int64_t k)>& measure_mflops,
                         bool exhaustive, double tolerance) {
  check_x(x);
  if (!(tolerance >= 0.0 && tolerance < 1.0)) {
    throw std::invalid_argument("search_lb: tolerance = " + std::to_string(tolerance) +
                                " is outside the allowed range [0, 1)");
  }
  if (kmin < 2) {
    throw std::invalid_argument("search_lb: kmin = " + std::to_string(kmin) +
                                " is below the allowed minimum 2");
  }
  if (kmin > kmax) {
    throw std::invalid_argument("search_lb: kmin = " + std::to_string(kmin) +
                                " exceeds kmax = " + std::to_string(kmax));
  }
  const std::vector<std::int64_t> all = even_grid(kmin, kmax);
  if (all.empty()) {
    throw std::invalid_argument("search_lb: [" + std::to_string(kmin) + ", " +
                                std::to_string(kmax) + "] contains no even k");
  }

  SmartSearch search(all.front(), all.back(), x, tolerance, measure_mflops);
  if (exhaustive) {
    for (std::int64_t k : all) search.at(k);
  } else {
    search.run(coarse_grid(kmin, kmax));
  }
  LbSearchResult result;
  result.measured = search.measured();
  result.lb = choose_lb(result.measured, x);
  return result;
}

}  // namespace mmbench::tuner
