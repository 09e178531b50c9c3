#include "dispatch/pdgemm_call.hpp"

#include <algorithm>

namespace mmbench::dispatch {

namespace {

// 'N' -> false, 'T' / 'C' -> true (either case); anything else: not a TRANS.
bool read_trans(char t, bool* transposed) {
  switch (t) {
    case 'N': case 'n': *transposed = false; return true;
    case 'T': case 't': case 'C': case 'c': *transposed = true; return true;
    default: return false;
  }
}

bool inside(const Operand& x, Index rows, Index cols) {
  return x.i0 >= 0 && x.j0 >= 0 && x.i0 + rows <= x.desc.m && x.j0 + cols <= x.desc.n;
}

}  // namespace

std::string Operand::blocking() const {
  std::string first;
  if (dtype == 2) first = std::to_string(desc.imb) + "x" + std::to_string(desc.inb) + "/";
  return first + std::to_string(desc.mb) + "x" + std::to_string(desc.nb) + "+" + std::to_string(desc.rsrc) + "+" +
         std::to_string(desc.csrc);
}

Operand read_operand(const double* data, int ix, int jx, const int* desc) {
  Operand o;
  o.data = data;
  o.i0 = Index(ix) - 1;
  o.j0 = Index(jx) - 1;
  o.dtype = desc[0];
  o.ctxt = desc[1];
  if (o.dtype != 1 && o.dtype != 2) return o;
  // Type 2 has IMB, INB after M, N: the later fields sit two further on.
  const int at = o.dtype == 2 ? 2 : 0;
  o.desc.m = desc[2];
  o.desc.n = desc[3];
  if (o.dtype == 2) o.desc.imb = desc[4], o.desc.inb = desc[5];
  o.desc.mb = desc[4 + at];
  o.desc.nb = desc[5 + at];
  o.desc.rsrc = desc[6 + at];
  o.desc.csrc = desc[7 + at];
  o.desc.lld = desc[8 + at];
  return o;
}

bool read_call(char transa, char transb, int m, int n, int k, double alpha, const double* a, int ia, int ja,
               const int* desca, const double* b, int ib, int jb, const int* descb, double beta, double* c, int ic,
               int jc, const int* descc, PdgemmCall* call, std::string* why) {
  PdgemmCall x;
  if (!read_trans(transa, &x.trans_a) || !read_trans(transb, &x.trans_b)) {
    *why = std::string("TRANSA/TRANSB '") + transa + "'/'" + transb + "' not N, T or C";
    return false;
  }
  x.m = m;
  x.n = n;
  x.k = k;
  x.alpha = alpha;
  x.beta = beta;
  x.a = read_operand(a, ia, ja, desca);
  x.b = read_operand(b, ib, jb, descb);
  x.c = read_operand(c, ic, jc, descc);
  x.c_data = c;
  *call = x;
  return true;
}

std::string pass_reason(const PdgemmCall& x, int pr, int pc) {
  if (x.m < 0 || x.n < 0 || x.k < 0) return "negative M, N or K (ScaLAPACK reports it)";
  if (x.m == 0 || x.n == 0) return "nothing to compute (M or N = 0)";
  if (x.k == 0 || x.alpha == 0) return "C := beta C only (K = 0 or alpha = 0)";
  for (const Operand* o : {&x.a, &x.b, &x.c})
    if (o->dtype != 1 && o->dtype != 2)
      return "descriptor type " + std::to_string(o->dtype) + ", not 1 or 2 (ScaLAPACK reports it)";
  if (x.a.ctxt != x.c.ctxt || x.b.ctxt != x.c.ctxt) return "operands on different BLACS contexts (ScaLAPACK reports it)";
  for (const Operand* o : {&x.a, &x.b, &x.c}) {
    if (o->desc.mb < 1 || o->desc.nb < 1 || o->desc.lld < 1 || (o->dtype == 2 && (o->desc.imb < 1 || o->desc.inb < 1)))
      return "a blocking or LLD below 1 (ScaLAPACK reports it)";
    if (o->desc.rsrc < 0 || o->desc.rsrc >= pr || o->desc.csrc < 0 || o->desc.csrc >= pc)
      return "RSRC/CSRC outside the grid (ScaLAPACK reports it)";
  }
  if (!inside(x.a, x.a_rows(), x.a_cols()) || !inside(x.b, x.b_rows(), x.b_cols()) || !inside(x.c, x.m, x.n))
    return "a submatrix outside its matrix (ScaLAPACK reports it)";
  return "";
}

std::string local_reason(const PdgemmCall& x, int pr, int pc, int myrow, int mycol) {
  (void)pc;
  (void)mycol;
  const char* names[] = {"A", "B", "C"};
  int i = 0;
  for (const Operand* o : {&x.a, &x.b, &x.c}) {
    const Index rows = block_cyclic_count(o->desc.m, o->desc.first_mb(), o->desc.mb, myrow, o->desc.rsrc, pr);
    if (o->desc.lld < std::max<Index>(1, rows))
      return std::string("LLD of ") + names[i] + " below its local rows on this process (ScaLAPACK reports it)";
    ++i;
  }
  return "";
}

Index k_blocking(const PdgemmCall& c) { return c.trans_a ? c.a.desc.mb : c.a.desc.nb; }

PriceKey price_key(const PdgemmCall& x) { return {x.trans_a, x.trans_b, x.m, x.n, x.k, k_blocking(x)}; }

}  // namespace mmbench::dispatch
