// How one parallel Strassen level moves its data between the four M-task
// groups: the only part in which the five combinations differ
// (docs/method.md §3.3). The driver (parallel_strassen.hpp) does the rest
// the same way for all of them: the group split, the sub-plan, the sums S
// and T, the products.
//
// Two transports:
//   redistribution -- the recursive layouts of strassen_layout.hpp (each
//       group holds its own quadrant in the layout its sub-plan wants), the
//       moves derived from strassen_formulas and executed by one
//       core/redistribution per phase, all messages of a phase in flight at
//       once. Used by strassen-q7+ring and every Q8 combination.
//   pdgemr2d -- A, B, C block-cyclic over all ranks of the level, each
//       group's operands block-cyclic on its own grid, every move a
//       ScaLAPACK pdgemr2d (thesis section 2.4.7: the ScaLAPACK-only
//       variant; the moves run one after another, pdgemr2d is blocking).
//       Used by strassen-q7+pdgemm. Not in the SMPI build (no ScaLAPACK).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "algos/strassen_layout.hpp"
#include "core/mpi/comm.hpp"
#include "core/matrix/dist_matrix.hpp"
#include "core/matrix/redistribution.hpp"

namespace mmbench::algos::strassen {

class LevelTransport {
 public:
  virtual ~LevelTransport() = default;

  // A, B, C of this level over the level's ranks (comm numbering).
  virtual const Layouts& level_layouts() const = 0;
  // The layouts my group's sub-plan must use for the half-size product, in
  // the group's own numbering. The driver checks the sub-plan against them.
  virtual const Layouts& group_layouts() const = 0;

  // Step 1: every operand quadrant my group's products read, in the group
  // layout. a[q] / b[q] point at quadrant q of A / B (nullptr if my group
  // reads none of it); valid until the next call. Collective over the level.
  struct Quadrants {
    std::array<const double*, 4> a{}, b{};
  };
  virtual Quadrants operands_in(const DistMatrix& A, const DistMatrix& B) = 0;

  // Step 3: C = sum_t kC[q][t] Q_t for every quadrant q. own[t] points at
  // product t if my group computed it (group layout), else nullptr.
  // Collective over the level.
  virtual void products_out(const std::array<const double*, 7>& own, DistMatrix& C) = 0;

  // Buffers the transport holds (doubles on this rank).
  virtual Index workspace_doubles() const = 0;

  // For tests and reports: the derived single-quadrant moves (redistribution
  // transport only; empty for pdgemr2d).
  virtual const std::vector<Transfer>& operand_transfers() const;
  virtual const std::vector<Transfer>& product_transfers() const;
};

// The transport cfg.transport names, for one level on comm (m x k times
// k x n, divisible by 2^r; gs the level's group split). Collective.
std::unique_ptr<LevelTransport> make_transport(const Config& cfg, const GroupSplit& gs, Index m, Index n, Index k,
                                               int r, const Comm& comm);

// The two implementations (strassen_redistribution_transport.cpp,
// strassen_pdgemr2d_transport.cpp); make_transport picks one.
std::unique_ptr<LevelTransport> make_redistribution_transport(const Config& cfg, const GroupSplit& gs, Index m,
                                                              Index n, Index k, int r, const Comm& comm);
std::unique_ptr<LevelTransport> make_pdgemr2d_transport(const Config& cfg, const GroupSplit& gs, Index m, Index n,
                                                        Index k, const Comm& comm);

}  // namespace mmbench::algos::strassen
