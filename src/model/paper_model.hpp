// The thesis' cost models, exactly as printed (docs/method.md §7, Tab. 2.5, eqs. 2.8
// and 2.10-2.24) with the errata of docs/method.md §11. They are the "paper" column of every
// result row and the reference the refined model is compared against, so no
// formula here is "improved"; improvements belong to the refined model.
//
// Units (machine_params.hpp): latency_s in seconds, tau in DOUBLES per second,
// t_op in seconds per flop. A message of s doubles costs latency_s + s / tau
// (eq. 2.8). Converting a bandwidth: 146 MB/s = 146e6 / 8 = 18.25e6 doubles/s.
//
// Conventions where the thesis is silent:
// - p = 1 is allowed wherever the algorithm runs on one rank: Ring and tpMM
//   then have 2(p-1) = 0 messages, PDGEMM on a 1x1 grid has log2(1) = 0.
// - Strassen halves n exactly (n/2 as a real number, no rounding); for n
//   divisible by 2^r this equals the integer formulas. The ceilings of Ring
//   (ceil(n/p)) and PDGEMM (ceil(n/nb)) are then taken of that real value.
// - All products are formed in double, so n up to 1e6 and p up to 1e5 are
//   safe (n^3 = 1e18 would be near the int64 limit once doubled).
// - Functions with a communication term require tau > 0; all require
//   latency_s >= 0 and t_op >= 0 (finite). Bad input throws
//   std::invalid_argument naming the value and the allowed range.
#pragma once

#include <cstdint>
#include <utility>

#include "space/process_grid.hpp"
#include "space/strassen_formulas.hpp"

#include "model/machine_params.hpp"
#include "model/prediction.hpp"

namespace mmbench::model {

// Algorithm at the cut-off level of the Q8 schema (and inside Q7's leaves):
// the algorithms' own enum, so the two cannot drift apart.
using Cutoff = space::strassen::Cutoff;

// Eq. 2.10: DGEMM(m, n, k) = 2 m n k t_op (computation only). m, n, k >= 0.
Prediction paper_dgemm(std::int64_t m, std::int64_t n, std::int64_t k, const MachineParams& mp);

// Eq. 2.11: addition of two n x n matrices distributed over p ranks,
// n^2 / p * t_op (the thesis prices one flop per element like a DGEMM flop).
double paper_add(std::int64_t n, int p, const MachineParams& mp);

// Eqs. 2.12, 2.13, with b = ceil(n/p):
//   comm = 2 (p-1) (lambda + n b / tau),   comp = p * 2 b b n t_op.
Prediction paper_ring(std::int64_t n, int p, const MachineParams& mp);

// Eqs. 2.14, 2.15 with exact division (n/p and n^2/p as reals; docs/method.md §11 notes
// that Tab. 2.5 prints Ring's ceil(n/p) here, equal when p divides n):
//   comm = 2 (p-1) (lambda + (n^2/p) / tau),   comp = p * 2 (n/p)^2 n t_op.
// p must be a power of two (tpMM's precondition).
Prediction paper_tpmm(std::int64_t n, int p, const MachineParams& mp);

// Eqs. 2.16, 2.17 on a pr x pc grid with block factor nb:
//   comm = (log2 pr * n^2/pc + log2 pc * n^2/pr) / tau
//          + ceil(n/nb) (log2 pr + log2 pc) lambda,
//   comp = 2 n^3 / (pr pc) * t_op.
// log2 is the real logarithm (log2 3 = 1.585), as printed.
Prediction paper_pdgemm(std::int64_t n, int nb, int pr, int pc, const MachineParams& mp);

// Strassen + Ring, schema Q7, r levels (eqs. 2.20, 2.21), with s = ceil(p/7)
// and l = floor(2p/7), exactly as the formula block of docs/method.md §7.3:
//   Comm(n,p,0) = Comm_ring(n,p)
//   Comm(n,p,r) = 9 ((n/2)(n/2)/s / tau + 3 lambda)
//                 + max(Comm(n/2, l, r-1), Comm(n/2, s, r-1))
//   Comp(n,p,0) = Comp_ring(n,p)
//   Comp(n,p,r) = max(5 T_add(n/2, s) + Comp(n/2, s, r-1),
//                     7 T_add(n/2, l) + 2 Comp(n/2, l, r-1))
// comm_s = Comm(n,p,r), comp_s = Comp(n,p,r) (maximised separately, as the
// thesis does, so the two may come from different groups).
//
// About floor(2p/7) (docs/method.md §11, erratum 5): with the group split of
// space::q7_group_sizes, floor(2p/7) is exactly the SMALLEST of G11, G12, G21
// for every p >= 4 (write p = 7k + j and compare both sides for j = 0..6).
// So the formula as printed prices the computation on the slowest of those
// groups, and the communication of the cut-off Ring on that smallest group,
// whose Ring communication may be cheaper than that of the largest one.
// paper_strassen_q7_ring_largest_group below uses the largest group instead,
// as the erratum asks.
//
// Each level needs p >= 4 ranks in the group it splits; the smallest branch
// is ceil(p/7), so r is limited by the chain p -> ceil(p/7) -> ... staying
// >= 4 (p = 56: r <= 2; p = 4: r <= 1; p = 22: r <= 2). Cost: 2^(r+1) - 1
// evaluations of the recursion; r <= 6 for any p <= 1e5 (r = 7 needs
// p >= 352948), so at most 127 cheap calls.
Prediction paper_strassen_q7_ring(std::int64_t n, int p, int r, const MachineParams& mp);

// The same recursion with floor(2p/7) replaced by the size of the LARGEST of
// G11, G12, G21 as space::q7_group_sizes makes them (ceil(p/7) stays: G22 is
// always the smallest group). Differs from paper_strassen_q7_ring only when
// p mod 7 is 2, 3, 5 or 6 at some level (e.g. p = 56, r = 2: the level-2
// split of 16 ranks is {5, 4, 4, 3}, here 5 where the paper has 4). Note that
// this prices the computation on the FASTEST big group, so it can predict
// less computation than the slowest group really has.
Prediction paper_strassen_q7_ring_largest_group(std::int64_t n, int p, int r, const MachineParams& mp);

// Strassen schema Q8 with r levels on p = p' 4^r ranks (eqs. 2.22-2.24),
// n' = n / 2^r, p' = p / 4^r:
//   comm = 8 r (lambda + (n^2/p) / tau) + 2^r Comm_cutoff(n', p')
//   comp = 7 r T_add(n, p)               + 2^r Comp_cutoff(n', p')
// Cut-off: dgemm needs p' = 1 ("full recursion", eq. 2.23: 2 n'^3 t_op);
// tpmm needs p' a power of two; pdgemm uses most_square_grid(p') and nb
// (nb is ignored by the other cut-offs); ring takes any p'.
Prediction paper_strassen_q8(std::int64_t n, int p, int r, Cutoff cutoff, int nb, const MachineParams& mp);

// The grid PDGEMM gets by default (space/process_grid.hpp).
using space::most_square_grid;

}  // namespace mmbench::model
