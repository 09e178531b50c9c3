// Cost models of 2.5d (algos/two_point_five_d.cpp), p = q^2 c ranks.
//
// Paper style (Solomonik & Demmel's counts in the thesis' units: latency
// lambda, throughput tau in doubles/s, t_op s/flop), square n:
//   steps  = max(1, q / c)            SUMMA steps per layer
//   comm   = 2 ceil(log2 c) (lambda + (n/q)^2 / tau)            replicate A, B
//          + ceil(log2 q) (2 steps lambda + 2 n^2 / (q c) / tau) SUMMA broadcasts
//          + ceil(log2 c) (lambda + (n/q)^2 / tau)              reduce C
//   comp   = 2 n^3 / p t_op + ceil(log2 c) (n/q)^2 t_op         products, reduction sums
// so words ~ n^2 / sqrt(c p) and messages ~ sqrt(p / c^3) up to the
// broadcast trees' log factors. Worked example: n = 4096, p = 8, c = 2
// (q = 2, steps 1), lambda = 1e-5 s, tau = 1e8 doubles/s, t_op = 1e-10 s:
// comm = 2(1e-5 + 4194304e-8) + 1(2e-5 + 2*4096^2/4/1e8) + (1e-5 + 4194304e-8)
//      = 0.08390 + 0.08391 + 0.04195 = 0.20976 s;
// comp = 2*4096^3/8 * 1e-10 + 4194304e-10 = 1.71799 + 0.00042 = 1.71841 s.
//
// Refined: m, n, k as they are; each message priced by its size regime
// (refined_message_time; the replication and reduction trees' stages one
// way, refined_one_way_message_time), each SUMMA step's DGEMM(m/q, n/q, w) at its
// measured rate, the reduction's additions at the measured memory
// bandwidth; broadcasts are not overlapped with computation (they are
// blocking), so comm and comp add.
#pragma once

#include "space/problem.hpp"
#include "model/machine_params.hpp"
#include "model/prediction.hpp"

namespace mmbench::model {

Prediction paper_two_point_five_d(double n, int p, int c, int threads, const MachineParams& mp);
Prediction refined_two_point_five_d(double m, double n, double k, int p, int c, int threads, const MachineParams& mp);

}  // namespace mmbench::model
