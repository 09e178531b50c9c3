// The generic redistribution (docs/method.md §3.4): move matrices from one Layout to
// another over a common communicator.
//
// Setup needs no communication: every rank knows both layouts, so it
// intersects its source rectangles with all target rectangles (what it
// sends) and all source rectangles with its target rectangles (what it
// receives). Both sides order the pieces exchanged with one peer by
// (transfer, global row, global column) of the piece -- the intersection of
// one source and one target rectangle is unique, so sender and receiver
// agree on the order without telling each other. Execution packs one
// message per peer (all transfers of the plan together, so a Strassen level
// sends each partner one message), posts every receive and send at once,
// copies the pieces that stay on this rank directly, and unpacks.
//
// Example: 4x4 matrix, source row_blocks over 2 ranks (rank 0 rows 0-1,
// rank 1 rows 2-3), target col_blocks (rank 0 columns 0-1, rank 1 columns
// 2-3). Rank 0 keeps piece rows 0-1 x cols 0-1, sends rows 0-1 x cols 2-3
// to rank 1, and receives rows 2-3 x cols 0-1 from rank 1.
#pragma once

#include <vector>

#include "core/mpi/comm.hpp"
#include "core/matrix/large_buffer.hpp"
#include "core/matrix/layout.hpp"

namespace mmbench {

// One matrix to move: from `from` (read from source buffer `src_slot`) to
// `to` (written into destination buffer `dst_slot`). Both layouts must have
// the same global shape and the same number of ranks as the communicator;
// either may be partial (cover only part of the matrix): only the part both
// cover moves.
struct Transfer {
  const Layout* from;
  const Layout* to;
  int src_slot = 0;
  int dst_slot = 0;
};

class Redistribution {
 public:
  Redistribution() = default;
  // No communication; the layouts need not outlive the object.
  Redistribution(const std::vector<Transfer>& transfers, int my_rank);

  // Collective over the ranks that take part (all ranks that send or receive
  // something; ranks with nothing to do may skip the call).
  void execute(const std::vector<const double*>& src, const std::vector<double*>& dst, const Comm& comm) const;
  // Convenience for one transfer.
  void execute(const double* src, double* dst, const Comm& comm) const {
    execute(std::vector<const double*>{src}, std::vector<double*>{dst}, comm);
  }

  // Statistics of this rank's side (volumes and message counts; used by the tests).
  int send_peers() const;  // peers other than this rank
  int recv_peers() const;
  Index send_volume() const;  // doubles leaving this rank
  Index recv_volume() const;

 private:
  struct Piece {
    int peer;
    int transfer;
    Index row, col, rows, cols;  // global position of the piece
    int slot;                    // buffer slot on this rank
    Index offset, ld;            // position in that buffer
  };
  struct PeerRange {
    int peer;
    std::size_t begin, end;
    Index volume;
  };
  static std::vector<PeerRange> group(std::vector<Piece>& pieces);

  int me_ = 0;
  std::vector<Piece> send_, recv_;  // sorted by (peer, transfer, row, col)
  std::vector<PeerRange> send_peers_, recv_peers_;
  mutable LargeVector<double> sbuf_, rbuf_;  // message buffers, reused
};

}  // namespace mmbench
