// One PDGEMM call as the dispatcher sees it: ScaLAPACK's arguments read
// into values, the checks that send a call to ScaLAPACK untouched, and the
// key under which decisions are cached.
//
// PDGEMM computes sub(C) := alpha op(sub(A)) op(sub(B)) + beta sub(C), with
// sub(C) = C(IC : IC+M-1, JC : JC+N-1), op(sub(A)) M x K, op(sub(B)) K x N;
// op(X) is X or its transpose (TRANS 'N', or 'T' / 'C', the same for real
// matrices). Every operand has its own descriptor: a BLACS context, the
// whole matrix's shape, its blocking MB x NB and first process RSRC/CSRC,
// and the caller's leading dimension LLD -- ScaLAPACK's type 1, or PBLAS's
// type 2 whose first block is IMB x INB.
#pragma once

#include <array>
#include <string>
#include <tuple>

#include "core/matrix/submatrix_layout.hpp"

namespace mmbench::dispatch {

// One operand: the caller's local array, the submatrix's first element
// (0-based) and the descriptor.
struct Operand {
  const double* data = nullptr;
  Index i0 = 0, j0 = 0;
  int dtype = 1;
  int ctxt = -1;
  BlockCyclicDescriptor desc;
  // "64x64+0+0": MB x NB + RSRC + CSRC, the census's form; a type-2
  // descriptor's first block before it ("1x3/4x4+0+0").
  std::string blocking() const;
};

struct PdgemmCall {
  bool trans_a = false, trans_b = false;
  Index m = 0, n = 0, k = 0;
  double alpha = 1, beta = 0;
  Operand a, b, c;
  double* c_data = nullptr;  // c.data, writable
  // The submatrix shapes as stored: A is m x k (k x m when transposed), B
  // k x n (n x k), C m x n.
  Index a_rows() const { return trans_a ? k : m; }
  Index a_cols() const { return trans_a ? m : k; }
  Index b_rows() const { return trans_b ? n : k; }
  Index b_cols() const { return trans_b ? k : n; }
};

// A descriptor and 1-based IX, JX into an Operand: type 1, 9 integers
// (DTYPE, CTXT, M, N, MB, NB, RSRC, CSRC, LLD), or type 2, 11 (DTYPE, CTXT,
// M, N, IMB, INB, MB, NB, RSRC, CSRC, LLD). Of another type only DTYPE and
// CTXT are read.
Operand read_operand(const double* data, int ix, int jx, const int* desc);

// The raw Fortran arguments into a call. Returns false (and says why in
// *why) for a TRANS character ScaLAPACK would reject: such a call goes to
// ScaLAPACK, which reports it itself.
bool read_call(char transa, char transb, int m, int n, int k, double alpha, const double* a, int ia, int ja,
               const int* desca, const double* b, int ib, int jb, const int* descb, double beta, double* c, int ic,
               int jc, const int* descc, PdgemmCall* call, std::string* why);

// Why the dispatcher passes this call to ScaLAPACK untouched, or "" when it
// may dispatch it, from the arguments every process of the grid passes
// alike (so all decide alike without a message): nothing to multiply (M or
// N = 0, or K = 0 / alpha = 0, where C := beta C is ScaLAPACK's own work and
// A and B are not read), a descriptor type other than 1 or 2, operands on
// different BLACS contexts, a blocking below 1, a source process outside
// the pr x pc grid, or a submatrix outside its matrix (ScaLAPACK reports
// those errors itself). Run on every call, before any cache.
std::string pass_reason(const PdgemmCall& call, int pr, int pc);

// The same for what differs between processes: this process's LLD below
// max(1, its local rows) for an operand. ScaLAPACK stops the job on it
// (PBLAS's argument check ends in Cblacs_abort), so a process that finds
// one hands the call to ScaLAPACK and the others need not know.
std::string local_reason(const PdgemmCall& call, int pr, int pc, int myrow, int mycol);

// What a decision is cached under: what prices it -- the transposes, M, N,
// K and the block width PDGEMM walks K in (ScaLAPACK's lb in force) -- and
// nothing that each call checks anew (alpha, offsets, LLD, data).
using PriceKey = std::tuple<bool, bool, Index, Index, Index, Index>;
PriceKey price_key(const PdgemmCall& call);

// The block width PDGEMM walks K in: A's column blocking (its row blocking
// when A is transposed).
Index k_blocking(const PdgemmCall& call);

}  // namespace mmbench::dispatch
