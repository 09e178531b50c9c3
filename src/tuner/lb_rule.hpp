// The logical block size rule of the thesis (section 2.5.5, eq. 2.26) and
// a search that finds it with far fewer DGEMM timings than a full sweep.
//
// ScaLAPACK's PDGEMM multiplies in k-panels of width lb, so every local
// update is a DGEMM(m_local, n_local, lb). The tuner times that DGEMM for a
// range of k (the "DGEMM profile") and picks
//
//     lb = min { k : MFLOPS(k) >= x * max_k MFLOPS(k) },   x = 0.98   (eq. 2.26)
//
// i.e. the smallest panel that already runs within (1 - x) of DGEMM's best
// rate. Why the *smallest*: a larger lb buys at most another (1 - x) of DGEMM
// speed but means fewer, longer pipeline steps in PDGEMM, so less overlap of
// communication with computation (and bigger broadcast buffers). Why not the
// argmax itself: on most BLAS the profile is a long, noisy plateau and its
// argmax lands anywhere on it (the thesis' Opteron profile peaks at k = 732
// while k = 668 is already within 2 %).
//
// Failure modes of the rule (worth knowing when reading a profile):
//  - Noise raises the maximum: the max of many noisy points is biased upward,
//    which raises the threshold and pushes lb to the right. Use medians of
//    repetitions for each point and a quiet machine.
//  - A single lucky low-k point that reaches the threshold (noise spike, or a
//    real sweet spot of the BLAS blocking) wins even if the curve around it is
//    lower; the rule looks only at the first crossing, not at a plateau.
//  - A flat profile (BLAS saturated already at kmin) gives lb = kmin, which
//    is right: nothing is gained by larger panels.
//  - The rule ignores the network entirely; it is a heuristic that trades
//    DGEMM speed for overlap with a fixed x (0.98 from the thesis' experience).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace mmbench::tuner {

// One point of a DGEMM profile: the rate of DGEMM(m_local, n_local, k).
struct ProfilePoint {
  std::int64_t k = 0;
  double mflops = 0;
};

// Eq. 2.26 on a measured profile (any order; duplicates of k allowed).
// Returns the smallest k whose rate is >= x * (largest rate). Ties at the
// threshold or at the maximum resolve to the smallest k.
// Throws std::invalid_argument if points is empty, x is not in (0, 1], or a
// rate is not finite or negative.
std::int64_t choose_lb(const std::vector<ProfilePoint>& points, double x);

struct LbSearchResult {
  std::int64_t lb = 0;
  std::vector<ProfilePoint> measured;  // every point measured, sorted by k
};

// The even k values an exhaustive sweep of [kmin, kmax] measures: kmin is
// rounded up and kmax down to even. Example: [31, 40] -> 32, 34, ..., 40.
std::vector<std::int64_t> even_grid(std::int64_t kmin, std::int64_t kmax);

// The coarse pass of the smart search: even values from kmin to kmax growing
// geometrically by `ratio` (at least by 2), with both ends always included.
// Example: [32, 256] with ratio 1.25 -> 32, 40, 50, 62, 78, 98, 122, 152,
// 190, 238, 256 (each value is the previous * 1.25 rounded to even).
std::vector<std::int64_t> coarse_grid(std::int64_t kmin, std::int64_t kmax,
                                      double ratio = 1.25);

// Finds lb for the DGEMM profile k in [kmin, kmax] (even k only), calling
// measure_mflops(k) at most once per k.
//
// exhaustive = true measures every even k (the thesis' method).
// exhaustive = false (smart): coarse_grid() first, then
//   1. around the best point so far, a bracketed golden-section search at
//      resolution 2 until the best point is a local maximum (its even
//      neighbours are measured and not higher);
//   2. every even k between the first measured point that reaches x * max
//      and the measured point before it (the crossing bracket), so the first
//      crossing is found exactly; a bracket with more than 24 even k inside
//      is first cut into 8 pieces, and the piece where the crossing lies is
//      refined in the next round (assumes no dip below the threshold inside
//      a piece);
//   3. coarse local maxima lying before the crossing and within 5 % below the
//      threshold get the same local search, because a hump there might reach
//      the threshold between two coarse points;
//   repeated until nothing new is measured.
// For a deterministic profile that is unimodal between coarse neighbours and
// has no excursion above the threshold narrower than the coarse spacing, the
// smart search returns the same lb as the exhaustive sweep (tested on many
// synthetic saturating profiles with bumps). With noisy measurements the two
// differ within the noise: a spike between coarse points can raise the max of
// the exhaustive sweep, or reach the threshold early, where the smart search
// does not look.
//
// tolerance (relative, default 0) makes step 1 stop at a point whose even
// neighbours are higher by no more than that fraction: on a noisy plateau a
// neighbour that is higher by noise alone would otherwise start a golden-
// section search of expensive large-k points. The maximum found is then
// within a factor (1 + tolerance) of the local maximum, so the threshold is
// at most that fraction too low. Use 0 for exactness on deterministic data.
//
// measure_mflops is called in a deterministic order that depends only on the
// values it returned, so in an MPI program every rank can run this search
// in lockstep as long as all ranks see the same values (e.g. reduced over
// ranks).
//
// Throws std::invalid_argument for x outside (0, 1], kmin < 2, kmin > kmax,
// a range without an even k (e.g. [33, 33]) or tolerance outside [0, 1);
// std::runtime_error if measure_mflops returns a negative or non-finite
// rate; whatever measure_mflops throws propagates.
LbSearchResult search_lb(std::int64_t kmin, std::int64_t kmax, double x,
                         const std::function<double(std::int64_t k)>& measure_mflops,
                         bool exhaustive, double tolerance = 0.0);

}  // namespace mmbench::tuner
