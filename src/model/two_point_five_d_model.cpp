#include "model/two_point_five_d_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "space/replicas.hpp"
#include "model/network_traffic.hpp"
#include "model/refined_model.hpp"

namespace mmbench::model {

namespace {
int grid_side(int p, int c) {
  const int q = space::layer_grid_side(p, c);
  if (q == 0)
    throw std::invalid_argument("2.5d: c = " + std::to_string(c) + " does not fit p = " + std::to_string(p) +
                                " (p = q^2 c)");
  return q;
}
double log2_ceil(int x) { return x > 1 ? std::ceil(std::log2(double(x))) : 0.0; }
}  // namespace

Prediction paper_two_point_five_d(double n, int p, int c, int threads, const MachineParams& mp) {
  const int q = grid_side(p, c);
  const double steps = std::max(1.0, double(q) / c);
  const double block = (n / q) * (n / q);
  const double lc = log2_ceil(c), lq = log2_ceil(q);
  Prediction out;
  out.comm_s = 2 * lc * (mp.latency_s + block / mp.tau) +
               lq * (2 * steps * mp.latency_s + 2 * n * n / (double(q) * c) / mp.tau) +
               lc * (mp.latency_s + block / mp.tau);
  out.comp_s = (2 * n * n * n / p * mp.t_op + lc * block * mp.t_op) / std::max(1, threads);
  return out;
}

Prediction refined_two_point_five_d(double m, double n, double k, int p, int c, int threads, const MachineParams& mp) {
  const int q = grid_side(p, c);
  const double bm = std::ceil(m / q), bn = std::ceil(n / q), bk = std::ceil(k / q);
  const double steps = std::max(1.0, double(q) / c);
  const double w = (k / c) / steps;  // panel width of one SUMMA step
  const double lc = log2_ceil(c), lq = log2_ceil(q);
  Prediction out;
  if (!mp.network.two_level()) {
    // The replication and the reduction are binomial trees along the depth
    // lines: in each stage a rank sends or receives, one way
    // (refined_one_way_message_time).
    out.comm_s = lc * (refined_one_way_message_time(bm * bk, mp) + refined_one_way_message_time(bk * bn, mp)) +
                 steps * lq * (refined_message_time(bm * w, mp) + refined_message_time(w * bn, mp)) +
                 lc * refined_one_way_message_time(bm * bn, mp);
  } else {
    // Two levels: rank r = l q^2 + i q + j, so a grid row is q consecutive
    // ranks, a column q apart, a depth line (replication, reduction) q^2
    // apart; every line of a kind runs its binomial tree at once
    // (tree_time): q^2 depth lines, q c rows, q c columns.
    const int lines = q * c;
    auto depth = [&](double words) { return tree_time(words, 1, c, q * q, q * q, p, mp); };
    out.comm_s = depth(bm * bk) + depth(bk * bn) +
                 steps * (tree_time(bm * w, 1, q, 1, lines, p, mp) + tree_time(w * bn, 1, q, q, lines, p, mp)) +
                 depth(bm * bn);
  }
  out.comp_s = steps * refined_dgemm_time(bm, bn, w, threads, mp) + lc * refined_add_time(bm * bn, mp);
  return out;
}

}  // namespace mmbench::model
