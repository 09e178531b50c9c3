// How much of a transfer moves while the ranks compute, by the transfer's
// size: tune's overlap step (tuner/shift_overlap.hpp) at a few sizes, read
// between them. The refined model of ring hides at(shift bytes) of each
// step's shorter part (shift or DGEMM) behind the longer one.
//
// Why a curve and not one number: over Open MPI's TCP transport a message
// moves only inside MPI calls and through the kernel's socket buffers, so
// what a few MPI_Testall calls between DGEMM chunks let through is not a
// fixed share of every size (docs/method.md §8.2).
#pragma once

#include <vector>

namespace mmbench::model {

struct OverlapPoint {
  double bytes = 0;     // each way
  double fraction = 1;  // in [0, 1]
};

class OverlapCurve {
 public:
  OverlapCurve() = default;  // not measured: every transfer fully hidden
  // Points in any order; fractions are clamped to [0, 1], sizes <= 0 dropped.
  explicit OverlapCurve(std::vector<OverlapPoint> points);
  static OverlapCurve flat(double fraction) { return OverlapCurve({{1, fraction}}); }

  // The fraction at `bytes`: linear in log(bytes) between the two measured
  // sizes around it, the nearest measured one outside them, 1 with none.
  // Example: points (4 MiB, 0.28), (16 MiB, 0.27), (64 MiB, 0.00); a shift
  // of 32 MiB lies halfway from 16 to 64 MiB in log(bytes), so 0.135; one of
  // 128 MiB gets 0.00, one of 1 MiB 0.28.
  double at(double bytes) const;

  bool measured() const { return !points_.empty(); }
  const std::vector<OverlapPoint>& points() const { return points_; }

 private:
  std::vector<OverlapPoint> points_;  // ascending bytes
};

}  // namespace mmbench::model
