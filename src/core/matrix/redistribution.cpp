#include "core/matrix/redistribution.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

#include "core/matrix/local_copy.hpp"
#include "core/mpi/mpi_check.hpp"

namespace mmbench {

namespace {

// Uniform-grid bucket index over one layout's rectangles, so that finding
// the rectangles that intersect a query costs O(hits), not O(all). A layout
// with R rectangles gets about sqrt(R) x sqrt(R) buckets.
class RectIndex {
 public:
  explicit RectIndex(const Layout& l) : l_(l) {
    std::size_t n = l.rects().size();
    g_ = std::max<Index>(1, std::min<Index>(1024, static_cast<Index>(std::sqrt(static_cast<double>(n)))));
    bh_ = std::max<Index>(1, (l.rows() + g_ - 1) / g_);
    bw_ = std::max<Index>(1, (l.cols() + g_ - 1) / g_);
    cells_.resize(static_cast<std::size_t>(g_ * g_));
    for (std::size_t i = 0; i < n; ++i) {
      const Rect& r = l.rects()[i];
      if (r.rows <= 0 || r.cols <= 0) continue;
      visit(r.row, r.col, r.rows, r.cols, [&](std::vector<std::size_t>& cell) { cell.push_back(i); });
    }
    stamp_.assign(n, 0);
  }
  // Calls f(rect) once for each rectangle intersecting the query.
  template <class F>
  void query(Index row, Index col, Index rows, Index cols, F f) {
    if (rows <= 0 || cols <= 0) return;
    ++epoch_;
    visit(row, col, rows, cols, [&](std::vector<std::size_t>& cell) {
      for (std::size_t i : cell) {
        if (stamp_[i] == epoch_) continue;
        stamp_[i] = epoch_;
        const Rect& r = l_.rects()[i];
        if (r.row < row + rows && row < r.row + r.rows && r.col < col + cols && col < r.col + r.cols) f(r);
      }
    });
  }

 private:
  template <class F>
  void visit(Index row, Index col, Index rows, Index cols, F f) {
    Index i0 = std::min(g_ - 1, row / bh_), i1 = std::min(g_ - 1, (row + rows - 1) / bh_);
    Index j0 = std::min(g_ - 1, col / bw_), j1 = std::min(g_ - 1, (col + cols - 1) / bw_);
    for (Index j = j0; j <= j1; ++j)
      for (Index i = i0; i <= i1; ++i) f(cells_[static_cast<std::size_t>(j * g_ + i)]);
  }
  const Layout& l_;
  Index g_ = 1, bh_ = 1, bw_ = 1;
  std::vector<std::vector<std::size_t>> cells_;
  std::vector<unsigned> stamp_;
  unsigned epoch_ = 0;
};

}  // namespace

Redistribution::Redistribution(const std::vector<Transfer>& transfers, int my_rank) : me_(my_rank) {
  for (std::size_t t = 0; t < transfers.size(); ++t) {
    const Transfer& tr = transfers[t];
    if (tr.from->rows() != tr.to->rows() || tr.from->cols() != tr.to->cols() || tr.from->ranks() != tr.to->ranks())
      throw std::logic_error("redistribution: layouts of different shape or rank count");
    const int ti = static_cast<int>(t);
    // What I send: my source rectangles against every target rectangle;
    // what I receive: every source rectangle against my target rectangles.
    // The same walk from either side: `mine` are this rank's rectangles of
    // one layout, `others` the other layout; each piece is stored with the
    // peer (the other rectangle's owner) and its place in my buffer.
    auto collect = [&](const Layout& mine, const Layout& others, int slot, std::vector<Piece>& out) {
      if (my_rank >= mine.ranks() || mine.rects_of(my_rank).empty()) return;
      RectIndex index(others);
      for (std::size_t i : mine.rects_of(my_rank)) {
        const Rect& a = mine.rects()[i];
        index.query(a.row, a.col, a.rows, a.cols, [&](const Rect& b) {
          Index r0 = std::max(a.row, b.row), c0 = std::max(a.col, b.col);
          Index r1 = std::min(a.row + a.rows, b.row + b.rows), c1 = std::min(a.col + a.cols, b.col + b.cols);
          out.push_back(
              Piece{b.owner, ti, r0, c0, r1 - r0, c1 - c0, slot, a.offset + (r0 - a.row) + (c0 - a.col) * a.ld, a.ld});
        });
      }
    };
    collect(*tr.from, *tr.to, tr.src_slot, send_);
    collect(*tr.to, *tr.from, tr.dst_slot, recv_);
  }
  send_peers_ = group(send_);
  recv_peers_ = group(recv_);
}

std::vector<Redistribution::PeerRange> Redistribution::group(std::vector<Piece>& pieces) {
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
    if (a.peer != b.peer) return a.peer < b.peer;
    if (a.transfer != b.transfer) return a.transfer < b.transfer;
    return a.col != b.col ? a.col < b.col : a.row < b.row;
  });
  std::vector<PeerRange> out;
  for (std::size_t i = 0; i < pieces.size();) {
    PeerRange pr{pieces[i].peer, i, i, 0};
    while (i < pieces.size() && pieces[i].peer == pr.peer) {
      pr.volume += pieces[i].rows * pieces[i].cols;
      ++i;
    }
    pr.end = i;
    if (pr.volume > INT_MAX) throw std::runtime_error("redistribution: message over 2^31 doubles");
    out.push_back(pr);
  }
  return out;
}

void Redistribution::execute(const std::vector<const double*>& src, const std::vector<double*>& dst,
                             const Comm& comm) const {
  constexpr int tag = 7707;
  // Receive buffers: one contiguous region per peer.
  Index recv_total = 0, send_total = 0;
  for (const PeerRange& p : recv_peers_)
    if (p.peer != me_) recv_total += p.volume;
  for (const PeerRange& p : send_peers_)
    if (p.peer != me_) send_total += p.volume;
  // Buffers persist between calls: a timed loop must not pay page faults.
  if (rbuf_.size() < static_cast<std::size_t>(recv_total)) rbuf_.resize(static_cast<std::size_t>(recv_total));
  if (sbuf_.size() < static_cast<std::size_t>(send_total)) sbuf_.resize(static_cast<std::size_t>(send_total));
  LargeVector<double>& rbuf = rbuf_;
  LargeVector<double>& sbuf = sbuf_;
  std::vector<MPI_Request> reqs;
  reqs.reserve(recv_peers_.size() + send_peers_.size());

  Index off = 0;
  for (const PeerRange& p : recv_peers_) {
    if (p.peer == me_) continue;
    reqs.emplace_back();
    MMBENCH_MPI(
        MPI_Irecv(rbuf.data() + off, static_cast<int>(p.volume), MPI_DOUBLE, p.peer, tag, comm.get(), &reqs.back()));
    off += p.volume;
  }
  off = 0;
  for (const PeerRange& p : send_peers_) {
    if (p.peer == me_) continue;
    Index start = off;
    for (std::size_t i = p.begin; i < p.end; ++i) {
      const Piece& pc = send_[i];
      copy_block(src[pc.slot] + pc.offset, pc.ld, sbuf.data() + off, pc.rows, pc.rows, pc.cols);
      off += pc.rows * pc.cols;
    }
    reqs.emplace_back();
    MMBENCH_MPI(
        MPI_Isend(sbuf.data() + start, static_cast<int>(p.volume), MPI_DOUBLE, p.peer, tag, comm.get(), &reqs.back()));
  }
  // Pieces that stay on this rank: copy directly. Send and receive lists
  // hold the same self-pieces in the same order.
  auto self_send = std::find_if(send_peers_.begin(), send_peers_.end(), [&](auto& p) { return p.peer == me_; });
  auto self_recv = std::find_if(recv_peers_.begin(), recv_peers_.end(), [&](auto& p) { return p.peer == me_; });
  if (self_send != send_peers_.end() && self_recv != recv_peers_.end()) {
    for (std::size_t a = self_send->begin, b = self_recv->begin; a < self_send->end; ++a, ++b) {
      const Piece& s = send_[a];
      const Piece& d = recv_[b];
      copy_block(src[s.slot] + s.offset, s.ld, dst[d.slot] + d.offset, d.ld, s.rows, s.cols);
    }
  }
  if (!reqs.empty()) MMBENCH_MPI(MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE));
  off = 0;
  for (const PeerRange& p : recv_peers_) {
    if (p.peer == me_) continue;
    for (std::size_t i = p.begin; i < p.end; ++i) {
      const Piece& pc = recv_[i];
      copy_block(rbuf.data() + off, pc.rows, dst[pc.slot] + pc.offset, pc.ld, pc.rows, pc.cols);
      off += pc.rows * pc.cols;
    }
  }
}

int Redistribution::send_peers() const {
  return static_cast<int>(
      std::count_if(send_peers_.begin(), send_peers_.end(), [&](auto& p) { return p.peer != me_; }));
}
int Redistribution::recv_peers() const {
  return static_cast<int>(
      std::count_if(recv_peers_.begin(), recv_peers_.end(), [&](auto& p) { return p.peer != me_; }));
}
Index Redistribution::send_volume() const {
  Index v = 0;
  for (auto& p : send_peers_)
    if (p.peer != me_) v += p.volume;
  return v;
}
Index Redistribution::recv_volume() const {
  Index v = 0;
  for (auto& p : recv_peers_)
    if (p.peer != me_) v += p.volume;
  return v;
}

}  // namespace mmbench
