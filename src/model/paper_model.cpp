#include "model/paper_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "space/process_grid.hpp"
#include "space/strassen_groups.hpp"
#include "model/require.hpp"

namespace mmbench::model {

namespace {

using std::to_string;

void check_compute_params(const MachineParams& mp, const char* who) {
  require(std::isfinite(mp.t_op) && mp.t_op >= 0, [&] { return
          std::string(who) + ": t_op = " + to_string(mp.t_op) + " s/flop, needs a finite value >= 0"; });
}

void check_network_params(const MachineParams& mp, const char* who) {
  check_compute_params(mp, who);
  require(std::isfinite(mp.latency_s) && mp.latency_s >= 0, [&] { return
          std::string(who) + ": latency_s = " + to_string(mp.latency_s) + " s, needs a finite value >= 0"; });
  require(std::isfinite(mp.tau) && mp.tau > 0, [&] { return
          std::string(who) + ": tau = " + to_string(mp.tau) + " doubles/s, needs a finite value > 0"; });
}

void check_n(std::int64_t n, const char* who) {
  require(n >= 1, [&] { return std::string(who) + ": n = " + to_string(n) + ", needs n >= 1"; });
}

void check_p(int p, const char* who) {
  require(p >= 1, [&] { return std::string(who) + ": p = " + to_string(p) + " ranks, needs p >= 1"; });
}

bool is_power_of_two(int x) { return x >= 1 && (x & (x - 1)) == 0; }

// The formulas on a real n, because Strassen halves n without rounding.

double add_d(double n, int p, const MachineParams& mp) { return n * n / p * mp.t_op; }

double dgemm_d(double m, double n, double k, const MachineParams& mp) { return 2.0 * m * n * k * mp.t_op; }

Prediction ring_d(double n, int p, const MachineParams& mp) {
  const double b = std::ceil(n / p);  // rows of A (and columns of B) per rank
  return {2.0 * (p - 1) * (mp.latency_s + n * b / mp.tau), p * dgemm_d(b, b, n, mp)};
}

Prediction tpmm_d(double n, int p, const MachineParams& mp) {
  const double b = n / p;
  return {2.0 * (p - 1) * (mp.latency_s + n * n / p / mp.tau), p * dgemm_d(b, b, n, mp)};
}

Prediction pdgemm_d(double n, int nb, int pr, int pc, const MachineParams& mp) {
  const double lr = std::log2(static_cast<double>(pr)), lc = std::log2(static_cast<double>(pc));
  const double p = static_cast<double>(pr) * pc;
  const double volume = (lr * n * n / pc + lc * n * n / pr) / mp.tau;
  const double startups = std::ceil(n / nb) * (lr + lc) * mp.latency_s;
  return {volume + startups, 2.0 * n * n * n / p * mp.t_op};
}

// Eqs. 2.20/2.21. `big` gives the size standing for the groups G11, G12, G21.
template <class BigGroup>
Prediction q7_ring_d(double n, int p, int r, const MachineParams& mp, BigGroup big) {
  if (r == 0) return ring_d(n, p, mp);
  const int small = (p + 6) / 7;  // ceil(p/7) = |G22|
  const int large = big(p);
  const double h = n / 2;
  const Prediction s = q7_ring_d(h, small, r - 1, mp, big);
  const Prediction l = q7_ring_d(h, large, r - 1, mp, big);
  // 9 transfers of a quadrant, each landing on the small group's ranks
  // (h*h/small doubles each) and costing up to 3 startups (eq. 2.19).
  const double comm = 9.0 * (h * h / small / mp.tau + 3.0 * mp.latency_s) + std::max(s.comm_s, l.comm_s);
  // T_C22: 5 additions, 1 product; T_C11: 7 additions, 2 products.
  const double comp = std::max(5.0 * add_d(h, small, mp) + s.comp_s, 7.0 * add_d(h, large, mp) + 2.0 * l.comp_s);
  return {comm, comp};
}

// Q7 splits a group at every level, and each split needs 4 ranks. The
// smallest group of a split is ceil(p/7) and ceil is monotone, so following
// p -> ceil(p/7) finds the first group that would be too small.
void check_q7_depth(int p, int r, const char* who) {
  int q = p;
  for (int level = 0; level < r; ++level) {
    if (q < 4) {
      throw std::invalid_argument(std::string(who) + ": r = " + to_string(r) + " recursion levels on p = " +
                                  to_string(p) + " ranks: level " + to_string(level) + " would split a group of " +
                                  to_string(q) + " ranks, schema Q7 needs >= 4 per split (allowed r <= " +
                                  to_string(level) + ")");
    }
    q = (q + 6) / 7;
  }
}

Prediction q7_entry(std::int64_t n, int p, int r, const MachineParams& mp, bool largest, const char* who) {
  check_n(n, who);
  check_p(p, who);
  require(r >= 0, [&] { return std::string(who) + ": r = " + to_string(r) + ", needs r >= 0"; });
  check_network_params(mp, who);
  check_q7_depth(p, r, who);
  if (largest) return q7_ring_d(static_cast<double>(n), p, r, mp, [](int q) { return space::q7_group_sizes(q)[0]; });
  return q7_ring_d(static_cast<double>(n), p, r, mp, [](int q) { return 2 * q / 7; });
}

}  // namespace

Prediction paper_dgemm(std::int64_t m, std::int64_t n, std::int64_t k, const MachineParams& mp) {
  require(m >= 0 && n >= 0 && k >= 0, [&] { return "paper_dgemm: m, n, k = " + to_string(m) + ", " + to_string(n) + ", " +
                                          to_string(k) + ", each needs >= 0"; });
  check_compute_params(mp, "paper_dgemm");
  return {0.0, dgemm_d(static_cast<double>(m), static_cast<double>(n), static_cast<double>(k), mp)};
}

double paper_add(std::int64_t n, int p, const MachineParams& mp) {
  check_n(n, "paper_add");
  check_p(p, "paper_add");
  check_compute_params(mp, "paper_add");
  return add_d(static_cast<double>(n), p, mp);
}

Prediction paper_ring(std::int64_t n, int p, const MachineParams& mp) {
  check_n(n, "paper_ring");
  check_p(p, "paper_ring");
  check_network_params(mp, "paper_ring");
  return ring_d(static_cast<double>(n), p, mp);
}

Prediction paper_tpmm(std::int64_t n, int p, const MachineParams& mp) {
  check_n(n, "paper_tpmm");
  require(is_power_of_two(p), [&] { return "paper_tpmm: p = " + to_string(p) + " ranks, tpMM needs a power of two p >= 1"; });
  check_network_params(mp, "paper_tpmm");
  return tpmm_d(static_cast<double>(n), p, mp);
}

Prediction paper_pdgemm(std::int64_t n, int nb, int pr, int pc, const MachineParams& mp) {
  check_n(n, "paper_pdgemm");
  require(nb >= 1, [&] { return "paper_pdgemm: nb = " + to_string(nb) + ", needs nb >= 1"; });
  require(pr >= 1 && pc >= 1, [&] { return
          "paper_pdgemm: grid " + to_string(pr) + " x " + to_string(pc) + ", needs pr >= 1 and pc >= 1"; });
  check_network_params(mp, "paper_pdgemm");
  return pdgemm_d(static_cast<double>(n), nb, pr, pc, mp);
}

Prediction paper_strassen_q7_ring(std::int64_t n, int p, int r, const MachineParams& mp) {
  return q7_entry(n, p, r, mp, false, "paper_strassen_q7_ring");
}

Prediction paper_strassen_q7_ring_largest_group(std::int64_t n, int p, int r, const MachineParams& mp) {
  return q7_entry(n, p, r, mp, true, "paper_strassen_q7_ring_largest_group");
}

Prediction paper_strassen_q8(std::int64_t n, int p, int r, Cutoff cutoff, int nb, const MachineParams& mp) {
  const char* who = "paper_strassen_q8";
  check_n(n, who);
  check_p(p, who);
  require(r >= 0, [&] { return std::string(who) + ": r = " + to_string(r) + ", needs r >= 0"; });
  check_network_params(mp, who);
  std::int64_t four_r = 1;
  for (int i = 0; i < r && four_r <= p; ++i) four_r *= 4;
  require(four_r <= p && p % four_r == 0, [&] { return std::string(who) + ": p = " + to_string(p) + " ranks with r = " +
                                              to_string(r) + " levels, schema Q8 needs p divisible by 4^r"; });
  const int p_cut = static_cast<int>(p / four_r);
  const double n_cut = std::ldexp(static_cast<double>(n), -r);  // n / 2^r
  const double copies = std::ldexp(1.0, r);                     // 2^r cut-off calls per rank

  Prediction cut;
  switch (cutoff) {
    case Cutoff::dgemm:
      require(p_cut == 1, [&] { return std::string(who) + ": cut-off dgemm (full recursion) needs p = 4^r, got p = " +
                              to_string(p) + ", r = " + to_string(r) + " (p / 4^r = " + to_string(p_cut) + ")"; });
      cut = {0.0, dgemm_d(n_cut, n_cut, n_cut, mp)};
      break;
    case Cutoff::tpmm:
      require(is_power_of_two(p_cut), [&] { return std::string(who) + ": cut-off tpmm needs p / 4^r a power of two, got " +
                                          to_string(p_cut) + " (p = " + to_string(p) + ", r = " + to_string(r) + ")"; });
      cut = tpmm_d(n_cut, p_cut, mp);
      break;
    case Cutoff::pdgemm: {
      require(nb >= 1, [&] { return std::string(who) + ": nb = " + to_string(nb) + ", cut-off pdgemm needs nb >= 1"; });
      const auto [pr, pc] = most_square_grid(p_cut);
      cut = pdgemm_d(n_cut, nb, pr, pc, mp);
      break;
    }
    case Cutoff::ring:
      cut = ring_d(n_cut, p_cut, mp);
      break;
    default:
      throw std::invalid_argument(std::string(who) + ": unknown cut-off value " +
                                  to_string(static_cast<int>(cutoff)));
  }
  const double nd = static_cast<double>(n);
  // Eq. 2.22: r levels of 8 transfers of n^2/p doubles each (the per-rank
  // share stays n^2/p at every level: (n/2)^2 / (p/4) = n^2 / p).
  const double comm_top = 8.0 * r * (mp.latency_s + nd * nd / p / mp.tau);
  // 7 additions per level, each of n^2/p elements per rank for the same reason.
  const double add_top = 7.0 * r * add_d(nd, p, mp);
  return {comm_top + copies * cut.comm_s, add_top + copies * cut.comp_s};
}


}  // namespace mmbench::model
