// The distribution of a ScaLAPACK submatrix as a Layout (layout.hpp), so
// that mmbench's one redistribution (redistribution.hpp) can move a user's
// block-cyclic operand into an algorithm's layout and back: the dispatcher
// of libmmbench-dispatch.so (src/dispatch) reads PDGEMM's arguments this way.
//
// ScaLAPACK's descriptor of a block-cyclic M_ x N_ matrix on a pr x pc
// process grid: blocks of MB_ x NB_, block row 0 on process row RSRC_,
// block column 0 on process column CSRC_, each process's local array
// column-major with leading dimension LLD_ (its own; it differs between
// processes). PDGEMM works on the submatrix X(IX : IX+rows-1, JX : JX+cols-1)
// (1-based in ScaLAPACK, 0-based i0, j0 here), which may start and end
// inside a block.
#pragma once

#include "core/matrix/layout.hpp"

namespace mmbench {

// The distribution fields of a ScaLAPACK array descriptor: type 1
// (DESC_(3:9)) or PBLAS's type 2, whose first block row and column have
// sizes of their own (IMB_, INB_; type 1 is the case IMB_ = MB_, INB_ = NB_).
struct BlockCyclicDescriptor {
  Index m = 0, n = 0;    // M_, N_: the whole matrix
  Index mb = 1, nb = 1;  // MB_, NB_
  int rsrc = 0, csrc = 0;
  Index lld = 1;           // LLD_ of the calling process
  Index imb = 0, inb = 0;  // IMB_, INB_ of a type-2 descriptor; 0 = MB_, NB_
  Index first_mb() const { return imb > 0 ? imb : mb; }
  Index first_nb() const { return inb > 0 ? inb : nb; }
};

// Local rows (or columns) of process `proc` of `nprocs`: `total` rows in a
// first block of `first` rows, then blocks of `blk`, block 0 on process
// `src` (ScaLAPACK's NUMROC, PBLAS's PB_Cnumroc for type 2).
Index block_cyclic_count(Index total, Index first, Index blk, int proc, int src, int nprocs);

// The submatrix's distribution in its own coordinates: rectangle (r, c)
// is element (i0 + r, j0 + c) of the whole matrix; grid process (prow,
// pcol) is rank prow * pc + pcol (BLACS's row-major numbering, whatever
// order the grid was made in). One rectangle per block the submatrix meets,
// cut at its edges. my_rank's rectangles carry their place in its local
// array (ld = d.lld); the other ranks' carry the place in a local array of
// ld = their local row count (numroc): only an owner reads its own places.
//
// Row-index arithmetic (columns alike), type 1: global row g lies in
// block b = g / mb, on process row (rsrc + b) mod pr, at local row
// (b / pr) * mb + g mod mb. Example: mb = 2, pr = 2, rsrc = 1, i0 = 3,
// rows = 4: rows 3..6 meet blocks 1 (row 3), 2 (rows 4, 5), 3 (row 6);
// block 1 is on process row 0 at local row 0 * 2 + 1 = 1, block 2 on
// process row 1 at local row 1 * 2 + 0 = 2, block 3 on process row 0 at
// local row 1 * 2 + 0 = 2.
// Type 2 (first block of imb rows): block 0 is rows [0, imb), block b >= 1
// rows [imb + (b-1) mb, imb + b mb); block b is the t = b / pr-th block of
// its process row, at local row t * mb on a process row other than rsrc's,
// and at imb + (t - 1) * mb on rsrc's for t >= 1 (its block 0 is imb rows).
// Example: imb = 1, mb = 3, pr = 2, rsrc = 0: rows 0 | 1-3 | 4-6 | 7-9 are
// blocks 0..3 on process rows 0, 1, 0, 1; row 5 is in block 2 (t = 1) on
// process row 0 at local row 1 + 0 * 3 + (5 - 4) = 2.
// Throws std::invalid_argument for a submatrix outside the matrix or a
// blocking below 1.
Layout block_cyclic_submatrix(const BlockCyclicDescriptor& d, Index i0, Index j0, Index rows, Index cols, int pr,
                              int pc, int my_rank);

// The same rectangles (same owners) in a fresh buffer per rank, packed one
// after the other (ld = the rectangle's rows); with transpose = true each
// rectangle (row, col, rows, cols) becomes (col, row, cols, rows) of the
// transposed cols() x rows() matrix. A scratch layout: redistribute into
// it, then copy (or transpose) each rectangle into the original's place.
Layout repacked(const Layout& l, bool transpose);

}  // namespace mmbench
