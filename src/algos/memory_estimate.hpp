// What a configuration holds in memory per rank at its peak, predicted
// without building anything (docs/method.md §7.7). Each algorithm states its
// own beside its cost models (Algorithm::memory): the buffers its plan
// allocates, for the rank that holds the most.
//
// The parts are doubles on that rank:
//   a, b, c    its share of A, B and C (the caller's matrices; Strassen's
//              padded to multiples of 2^r)
//   replicas   2.5D: the copies of A and B blocks and the partial C a rank of
//              a layer above 0 holds
//   comm       message and receive buffers: ring/tpmm's two B-block buffers,
//              SUMMA's panels and 2.5D's received partial C, the quadrants
//              and products a Strassen level receives and the packed
//              messages of its redistributions
//   strassen   parallel Strassen: the operand sums S, T and the products of
//              the rank's task, at every level
//   local      the local kernel's workspace: local Strassen-Winograd
//              temporaries and the packed GEMM's packing areas
//   library    what the libraries allocate for the plan: PBLAS's panels,
//              pdgemr2d's buffers -- an
//              estimate, and the one part mmbench's buffer count
//              (core/machine/memory_account.hpp) cannot see
// own() is what that count measures; total() is what a memory limit is
// checked against.
#pragma once

#include <string>

namespace mmbench::algos {

struct MemoryEstimate {
  double a = 0, b = 0, c = 0;
  double replicas = 0;
  double comm = 0;
  double strassen = 0;
  double local = 0;
  double library = 0;
  // Ranks that hold about this much: 0 = every rank holds at most this;
  // 1 = rank 0 alone (the dgemm peer), the others nothing.
  int holders = 0;
  // Of own(), the doubles in buffers below 1 MiB each: a charged simulation
  // shares the larger ones between its simulated ranks
  // (core/matrix/large_buffer.hpp), so these are what a rank keeps to itself.
  double small = 0;

  double own() const { return a + b + c + replicas + comm + strassen + local; }
  double total() const { return own() + library; }
  double bytes() const { return 8.0 * total(); }
};

// Adds `count` buffers of `doubles` each to `part` of m (and to m.small
// where one is below 1 MiB). Example: add_buffers(m, &MemoryEstimate::comm,
// k * w, 2) for ring's two B-block buffers.
void add_buffers(MemoryEstimate& m, double MemoryEstimate::*part, double doubles, double count = 1);

// "2.50 GiB (A 1.00 GiB, B 1.00 GiB, C 512 MiB)": the total and every part
// that is not zero, in that order (library as "libraries ... (estimate)").
std::string describe(const MemoryEstimate& m);

// The parts for a CSV cell, MiB with 4 significant digits, ';'-separated,
// zeros left out: "a=8;b=8;c=8;comm=16;local=21.33".
std::string parts_text(const MemoryEstimate& m);

}  // namespace mmbench::algos
