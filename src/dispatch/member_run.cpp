#include "dispatch/member_run.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "core/matrix/redistribution.hpp"
#include "core/matrix/submatrix_layout.hpp"
#include "core/stats/timing.hpp"

namespace mmbench::dispatch {

namespace {

// Elements of `rank`'s rectangles (a padded layout allocates more).
Index covered(const Layout& l, int rank) {
  Index n = 0;
  for (std::size_t i : l.rects_of(rank)) n += l.rects()[i].rows * l.rects()[i].cols;
  return n;
}

// For each of my rectangles of `to`, the transposed rectangle of `from`
// (repacked(to, true): the same index) copied into its place.
void transpose_into(const Layout& to, const Layout& from, const double* src, double* dst, int me) {
  for (std::size_t i : to.rects_of(me)) {
    const Rect& t = to.rects()[i];
    const Rect& f = from.rects()[i];  // f.rows = t.cols, f.cols = t.rows
    for (Index c = 0; c < t.cols; ++c)
      for (Index r = 0; r < t.rows; ++r) dst[t.offset + r + c * t.ld] = src[f.offset + c + r * f.ld];
  }
}

}  // namespace

MemberRun::MemberRun(const algos::Algorithm& algo, const algos::Options& opt, const PdgemmCall& shape, const Comm& grid)
    : grid_(grid), idle_processes_(opt.hybrid > 1) {
  const algos::Problem pb{shape.m, shape.n, shape.k};
  const double t0 = MPI_Wtime();
  plan_ = algo.plan(pb, opt, grid);
  const double t1 = MPI_Wtime();
  const int me = grid.rank();
  a_ = DistMatrix(plan_->layout_a(), me);
  b_ = DistMatrix(plan_->layout_b(), me);
  c_ = DistMatrix(plan_->layout_c(), me);
  preparation_ = {t1 - t0, MPI_Wtime() - t1};
  a_padded_ = plan_->layout_a().local_size(me) > covered(plan_->layout_a(), me);
  b_padded_ = plan_->layout_b().local_size(me) > covered(plan_->layout_b(), me);
}

double MemberRun::doubles() const {
  return double(a_.local.size() + b_.local.size() + c_.local.size() + scratch_a_.size() + scratch_b_.size() +
                scratch_c_.size()) +
         double(plan_->workspace_doubles());
}

std::array<Index, 31> MemberRun::conversion_key(const PdgemmCall& x, int pr, int pc) {
  std::array<Index, 31> k{};
  int i = 0;
  k[i++] = x.trans_a;
  k[i++] = x.trans_b;
  k[i++] = pr;
  k[i++] = pc;
  for (const Operand* o : {&x.a, &x.b, &x.c}) {
    k[i++] = o->i0, k[i++] = o->j0, k[i++] = o->desc.m, k[i++] = o->desc.n, k[i++] = o->desc.mb;
    k[i++] = o->desc.nb, k[i++] = o->desc.rsrc, k[i++] = o->desc.csrc, k[i++] = o->desc.lld;
  }
  return k;
}

const MemberRun::Conversion& MemberRun::conversion(const PdgemmCall& x, int pr, int pc) {
  const std::array<Index, 31> key = conversion_key(x, pr, pc);
  if (conversion_ && conversion_->key == key) return *conversion_;
  const int me = grid_.rank();
  auto c = std::make_unique<Conversion>();
  c->key = key;
  c->from_a = block_cyclic_submatrix(x.a.desc, x.a.i0, x.a.j0, x.a_rows(), x.a_cols(), pr, pc, me);
  c->from_b = block_cyclic_submatrix(x.b.desc, x.b.i0, x.b.j0, x.b_rows(), x.b_cols(), pr, pc, me);
  c->to_c = block_cyclic_submatrix(x.c.desc, x.c.i0, x.c.j0, x.m, x.n, pr, pc, me);
  const Layout& la = plan_->layout_a();
  const Layout& lb = plan_->layout_b();
  // A transposed operand lands in the transposed layout first.
  if (x.trans_a) c->ta = repacked(la, true);
  if (x.trans_b) c->tb = repacked(lb, true);
  c->sc = repacked(c->to_c, false);
  c->in = std::make_unique<Redistribution>(
      std::vector<Transfer>{Transfer{&c->from_a, x.trans_a ? &c->ta : &la, 0, 0},
                            Transfer{&c->from_b, x.trans_b ? &c->tb : &lb, 1, 1}},
      me);
  c->out = std::make_unique<Redistribution>(std::vector<Transfer>{Transfer{&plan_->layout_c(), &c->sc, 0, 0}}, me);
  conversion_ = std::move(c);
  return *conversion_;
}

MemberRun::Times MemberRun::run(const PdgemmCall& x, int pr, int pc) {
  const int me = grid_.rank();
  Times times;
  const double t0 = MPI_Wtime();
  const Conversion& cv = conversion(x, pr, pc);
  const Layout& la = plan_->layout_a();
  const Layout& lb = plan_->layout_b();
  if (x.trans_a) scratch_a_.resize(static_cast<std::size_t>(cv.ta.local_size(me)));
  if (x.trans_b) scratch_b_.resize(static_cast<std::size_t>(cv.tb.local_size(me)));
  // Padding a Strassen layout carries must read as zeros.
  if (a_padded_) std::fill(a_.local.begin(), a_.local.end(), 0.0);
  if (b_padded_) std::fill(b_.local.begin(), b_.local.end(), 0.0);
  cv.in->execute({x.a.data, x.b.data},
                 {x.trans_a ? scratch_a_.data() : a_.data(), x.trans_b ? scratch_b_.data() : b_.data()}, grid_);
  if (x.trans_a) transpose_into(la, cv.ta, scratch_a_.data(), a_.data(), me);
  if (x.trans_b) transpose_into(lb, cv.tb, scratch_b_.data(), b_.data(), me);
  const double t1 = MPI_Wtime();

  // A hybrid's idle processes wait for C's conversion sleeping, not in
  // Open MPI's busy poll, so that the computing processes' threads have
  // their cores (Comm::idle_barrier; the model prices its wake-up).
  if (idle_processes_)
    run_taking_part(
        grid_, [&] { plan_->multiply(a_, b_, c_); }, plan_->takes_part());
  else
    plan_->multiply(a_, b_, c_);
  const double t2 = MPI_Wtime();

  scratch_c_.resize(static_cast<std::size_t>(cv.sc.local_size(me)));
  cv.out->execute(c_.data(), scratch_c_.data(), grid_);
  // sub(C) := alpha C' + beta sub(C) on this rank's part of the submatrix.
  const double alpha = x.alpha, beta = x.beta;
  for (std::size_t i : cv.to_c.rects_of(me)) {
    const Rect& t = cv.to_c.rects()[i];
    const Rect& s = cv.sc.rects()[i];
    for (Index c = 0; c < t.cols; ++c) {
      double* dst = x.c_data + t.offset + c * t.ld;
      const double* src = scratch_c_.data() + s.offset + c * s.ld;
      if (beta == 0) {
        for (Index r = 0; r < t.rows; ++r) dst[r] = alpha * src[r];
      } else if (beta == 1) {
        for (Index r = 0; r < t.rows; ++r) dst[r] += alpha * src[r];
      } else {
        for (Index r = 0; r < t.rows; ++r) dst[r] = alpha * src[r] + beta * dst[r];
      }
    }
  }
  times.convert = (t1 - t0) + (MPI_Wtime() - t2);
  times.multiply = t2 - t1;
  return times;
}

}  // namespace mmbench::dispatch
