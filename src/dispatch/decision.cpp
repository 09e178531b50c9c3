#include "dispatch/decision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "algos/registry.hpp"
#include "core/lb_in_force.hpp"
#include "model/refined_model.hpp"
#include "ranking/selection.hpp"
#include "space/hybrid.hpp"

namespace mmbench::dispatch {

namespace {

using algos::Algorithm;
using algos::Options;
using algos::Problem;

Options member_options(const MachineFacts& m, const DispatchSettings& s, int levels) {
  Options o;
  o.threads = m.threads;
  o.local.levels = levels;
  if (levels > 0 && m.facts.local_l1_n > 0) o.local.min_dim = m.facts.local_l1_n;
  o.local.gemm = s.gemm.value_or(m.auto_gemm);  // none: auto
  if (o.local.gemm == local::LeafGemm::packed) o.local.packed_blocking = m.packed_blocking;
  return o;
}

std::string label_of(const Algorithm& a, const Options& o) {
  ranking::Candidate c;
  c.algo = &a;
  c.opt = o;
  return c.label();
}

// The member `name` with `levels` local levels, as a hybrid of `hybrid`
// (1: plain), priced; "" or why it cannot run this call.
std::string make_member(const std::string& name, int levels, int hybrid, const PdgemmCall& c, int p,
                        const DispatchSettings& s, const MachineFacts& m, Member* out) {
  const Algorithm* a = algos::find_algorithm(name);
  if (a == nullptr) return "no algorithm " + name;
  const Problem pb{c.m, c.n, c.k};
  Options o = member_options(m, s, levels);
  if (!a->uses().local_levels) o.local = {};
  o.hybrid = hybrid;
  // Ring's chunks as `run --ring-chunks auto` takes them: one where the
  // model prices it faster (the profile's overlap hides nothing of the shift).
  if (a->uses().ring_chunks && m.has_model) o.ring_chunks = model::ring_chunks_auto(o, pb, p, m.params);
  const algos::Applicability ok = a->check(pb, o, p);
  if (!ok.ok()) return ok.reason;
  Member x;
  x.algo = a;
  x.opt = o;
  // A hybrid recurses on its computing processes (space/hybrid.hpp).
  x.opt.recursions = model::resolve_recursions(a->models(), o, space::hybrid_inner(o, p).ranks);
  x.label = label_of(*a, x.opt);
  // What a prepared member holds: its own estimate, the conversion's
  // scratch and the message buffers its exchange schedules keep.
  x.bytes_per_rank = 8 * (a->estimate_doubles_per_rank(pb, x.opt, p) + conversion_doubles(c, p, hybrid)) +
                     first_message_bytes(c, p, hybrid);
  if (m.has_model) {
    x.t_run = model::refined_prediction(a->models(), pb, x.opt, p, m.params).total();
    x.t_convert = conversion_time(c, p, m.params, hybrid) + (hybrid > 1 ? kHybridWakeSeconds : 0.0);
    x.t_prepare = preparation_time(x.bytes_per_rank, m.params);
  }
  *out = x;
  return "";
}

std::string seconds(double t) { return fmt::format("{:.3g} s", t); }

}  // namespace

Member scalapack_member(const PdgemmCall& c, int pr, int pc, const MachineFacts& m) {
  Member s;
  s.opt.pr = pr;
  s.opt.pc = pc;
  s.opt.nb = static_cast<int>(k_blocking(c));
  s.opt.lb = m.lb;
  s.opt.lb_tuned = m.lb_cap.panels > 0;
  if (s.opt.lb_tuned) s.opt.lb_tuned_cap = m.lb_cap;
  s.opt.threads = m.threads;
  const int lb = lb_in_force(m.lb, m.lb_cap, c.k, pr, pc, s.opt.nb, panel_length(c.m, c.n, pr, pc));
  s.label = "scalapack lb=" + std::to_string(lb);
  if (m.has_model) {
    const Problem pb{c.m, c.n, c.k};
    s.t_run =
        model::refined_prediction(algos::find_algorithm("pdgemm")->models(), pb, s.opt, pr * pc, m.params).total();
  }
  return s;
}

double first_message_bytes(const PdgemmCall& c, int p, int hybrid) {
  // The conversion's message buffers, made at the first call: each rank
  // sends and receives the share of A, B and C that changes owner.
  const double all = double(c.m) * double(c.n) + double(c.m) * double(c.k) + double(c.k) * double(c.n);
  return p > 1 ? 2 * 8 * all * hybrid / p * (1 - 1.0 / p) : 0.0;
}

double conversion_doubles(const PdgemmCall& c, int p, int hybrid) {
  const double mn = double(c.m) * double(c.n), mk = double(c.m) * double(c.k), kn = double(c.k) * double(c.n);
  return (mn + (c.trans_a ? mk * hybrid : 0.0) + (c.trans_b ? kn * hybrid : 0.0)) / p;
}

double conversion_time(const PdgemmCall& c, int p, const model::MachineParams& mp, int hybrid) {
  // A copy moves 16 bytes per element, refined_add_time prices 24 (C = A + B).
  const auto copy = [&](double elements) { return model::refined_add_time(elements, mp) * 16.0 / 24.0; };
  const double t = std::max(1, hybrid);
  // One matrix of s doubles: the messages of the busiest process, its pack
  // of its own share and its unpacking (and transposing) of the member's.
  const auto one = [&](double s, int member_passes, bool add) {
    double time = 0;
    if (p > 1) time += (p - 1) * model::refined_message_time(s * t / p / p, mp) + copy(s / p);
    time += member_passes * copy(s * t / p);
    if (add) time += model::refined_add_time(s / p, mp);
    return time;
  };
  const double mn = double(c.m) * double(c.n), mk = double(c.m) * double(c.k), kn = double(c.k) * double(c.n);
  return one(mk, 1 + (c.trans_a ? 2 : 0), false) + one(kn, 1 + (c.trans_b ? 2 : 0), false) + one(mn, 1, true);
}

std::string call_reason(const PdgemmCall& c, int pr, int pc, const DispatchSettings& s) {
  if (!s.enabled) return "dispatch off (MMBENCH_DISPATCH=off)";
  if (std::string why = pass_reason(c, pr, pc); !why.empty()) return why;
  const Index smallest = std::min({c.m, c.n, c.k});
  if (smallest < s.min_dim) return fmt::format("min(M, N, K) = {} < {} (MMBENCH_DISPATCH_MIN_DIM)", smallest, s.min_dim);
  return "";
}

long calls_to_pay(const Decision& d) {
  if (d.scalapack()) return 0;
  const double saving = d.t_scalapack - kDispatchMargin * d.choice.total();
  if (!(saving > 0)) return 0;
  const double cost = kDispatchMargin * d.choice.t_prepare;
  return std::max(1L, static_cast<long>(std::ceil(cost / saving - 1e-12)));
}

double preparation_time(double bytes_per_rank, const model::MachineParams& mp, double pooled_bytes) {
  // Fresh memory at the measured first-touch rate; a profile without it:
  // a quarter of the add bandwidth (on this project's VM first touch ran
  // 3.5x slower than a warm write with one process, slower with two).
  // Pooled memory is only rewritten (zeroed), at the add bandwidth.
  const double pooled = std::clamp(pooled_bytes, 0.0, bytes_per_rank);
  const double rate = mp.first_touch_bytes_per_s > 0 ? mp.first_touch_bytes_per_s : mp.add_bytes_per_s / 4;
  double t = rate > 0 ? (bytes_per_rank - pooled) / rate : 0.0;
  if (mp.add_bytes_per_s > 0) t += pooled / mp.add_bytes_per_s;
  return t;
}

std::vector<int> hybrid_choices(int p, const DispatchSettings& s, const MachineFacts& m) {
  if (!s.hybrid || !m.has_model) return {};
  std::vector<int> t = space::hybrid_values(p, ranking::hybrid_max_for(m.params, m.cores_per_node, m.threads));
  t.erase(t.begin());  // 1, the plain member, is always tried
  return t;
}

Decision decide(const PdgemmCall& c, int pr, int pc, const DispatchSettings& s, const MachineFacts& m) {
  Decision d;
  d.choice = scalapack_member(c, pr, pc, m);
  const int p = pr * pc;
  const double cap = double(s.max_mib) * 1024 * 1024;
  d.t_scalapack = d.choice.t_run;
  if (!s.force.empty()) {
    d.forced = true;
    ForcedMember f;
    parse_forced(s.force, &f);  // checked when read
    if (f.name == "scalapack") {
      d.reason = "forced (MMBENCH_DISPATCH_FORCE)";
      return d;
    }
    Member x;
    if (std::string why = make_member(f.name, f.levels, f.hybrid, c, p, s, m, &x); !why.empty()) {
      d.reason = "forced " + s.force + " does not apply: " + why;
      return d;
    }
    if (x.bytes_per_rank > cap) {
      d.reason = fmt::format("forced {} needs {:.0f} MiB per rank > MMBENCH_DISPATCH_MAX_MB = {}", x.label,
                             x.bytes_per_rank / 1048576, s.max_mib);
      return d;
    }
    d.choice = x;
    d.reason = "forced (MMBENCH_DISPATCH_FORCE)";
    return d;
  }
  if (!m.has_model) {
    d.reason = "no machine profile (MMBENCH_PROFILE): no model to decide with";
    return d;
  }
  std::vector<std::pair<std::string, int>> tries;
  for (const std::string& n : classical_members()) tries.emplace_back(n, 0);
  if (s.strassen) {
    for (const std::string& n : {std::string("ring"), std::string("tpmm")})
      for (int l = 1; l <= 3; ++l) tries.emplace_back(n, l);
    for (const std::string& n : strassen_members()) tries.emplace_back(n, 0);
  }
  std::vector<int> hybrids{1};
  for (int t : hybrid_choices(p, s, m)) hybrids.push_back(t);
  bool found = false, over_memory = false;
  Member best;
  for (const auto& [name, levels] : tries)
    for (int t : hybrids) {
      Member x;
      if (!make_member(name, levels, t, c, p, s, m, &x).empty()) continue;
      // A local level that the block sizes never reach is the member without it.
      if (levels > 0 && x.opt.local.levels > 0 && x.t_run <= 0) continue;
      if (x.bytes_per_rank > cap) {
        over_memory = true;
        continue;
      }
      if (!found || x.total() < best.total()) best = x, found = true;
    }
  if (!found) {
    d.reason = over_memory ? fmt::format("every member over MMBENCH_DISPATCH_MAX_MB = {}", s.max_mib)
                           : "no mmbench member applies";
    return d;
  }
  if (best.total() * kDispatchMargin < d.t_scalapack) {
    d.reason = fmt::format("model: {} {} (conversion {}) vs ScaLAPACK {}", best.label, seconds(best.total()),
                           seconds(best.t_convert), seconds(d.t_scalapack));
    d.choice = best;
  } else {
    d.reason = fmt::format("model: ScaLAPACK {} vs best member {} {} (conversion {}); needs {:.2f}x", seconds(d.t_scalapack),
                           best.label, seconds(best.total()), seconds(best.t_convert), kDispatchMargin);
  }
  return d;
}

}  // namespace mmbench::dispatch
