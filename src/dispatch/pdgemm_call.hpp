// One PDGEMM call as the dispatcher sees it: ScaLAPACK's arguments read
// into values, what the dispatcher cannot serve, and the shape under which
// decisions are cached.
//
// PDGEMM computes sub(C) := alpha op(sub(A)) op(sub(B)) + beta sub(C), with
// sub(C) = C(IC : IC+M-1, JC : JC+N-1), op(sub(A)) M x K, op(sub(B)) K x N;
// op(X) is X or its transpose (TRANS 'N', or 'T' / 'C', the same for real
// matrices). Every operand has its own descriptor: a BLACS context, the
// whole matrix's shape, its blocking MB x NB and first process RSRC/CSRC,
// and the caller's leading dimension LLD.
#pragma once

#include <array>
#include <string>
#include <tuple>

#include "core/submatrix_layout.hpp"

namespace mmbench::dispatch {

// One operand: the caller's local array, the submatrix's first element
// (0-based) and the descriptor.
struct Operand {
  const double* data = nullptr;
  Index i0 = 0, j0 = 0;
  int dtype = 1;
  int ctxt = -1;
  BlockCyclicDescriptor desc;
  // "64x64+0+0": MB x NB + RSRC + CSRC, the census's form.
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

// ScaLAPACK's 9-integer descriptor (DESC_(1:9): DTYPE, CTXT, M, N, MB, NB,
// RSRC, CSRC, LLD) and 1-based IX, JX into an Operand.
Operand read_operand(const double* data, int ix, int jx, const int* desc);

// The raw Fortran arguments into a call. Returns false (and says why in
// *why) for a TRANS character ScaLAPACK would reject: such a call goes to
// ScaLAPACK, which reports it itself.
bool read_call(char transa, char transb, int m, int n, int k, double alpha, const double* a, int ia, int ja,
               const int* desca, const double* b, int ib, int jb, const int* descb, double beta, double* c, int ic,
               int jc, const int* descc, PdgemmCall* call, std::string* why);

// Why the dispatcher passes this call to ScaLAPACK untouched, or "" when it
// may dispatch it: nothing to multiply (M or N = 0, or K = 0 / alpha = 0,
// where C := beta C is ScaLAPACK's own quick work), a descriptor type other
// than 1 (dense block-cyclic), operands on different BLACS contexts, or a
// submatrix outside its matrix (ScaLAPACK reports that error itself).
std::string pass_reason(const PdgemmCall& call);

// What decisions are cached under: the transposes, M, N, K and each
// operand's blocking (not its offsets or data: they change no price).
using ShapeKey = std::tuple<bool, bool, Index, Index, Index, std::array<Index, 12>>;
ShapeKey shape_key(const PdgemmCall& call);

}  // namespace mmbench::dispatch
