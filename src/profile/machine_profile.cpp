#include "profile/machine_profile.hpp"

#include "core/csv_file.hpp"
#include "profile/kernel_model_record.hpp"
#include "profile/lb_record.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

namespace mmbench::profile {

namespace {

using json = nlohmann::ordered_json;  // keeps the written key order readable

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Reads typed fields out of JSON objects and names them in every error as
// the dotted path from the top ("two_regime.break_bytes",
// "dgemm_profile[3].mflops").
class FieldReader {
 public:
  explicit FieldReader(const std::string& origin) : origin_(origin) {}

  [[noreturn]] void fail(const std::string& problem) const { throw ProfileError(origin_, problem); }

  const json& field(const json& obj, const std::string& name) const {
    const std::string key = name.substr(name.find_last_of('.') + 1);
    auto it = obj.find(key);
    if (it == obj.end()) fail("field '" + name + "' is missing");
    return *it;
  }

  const json& object(const json& obj, const std::string& name) const {
    const json& v = field(obj, name);
    if (!v.is_object()) wrong_type(name, "an object", v);
    return v;
  }

  std::string string(const json& obj, const std::string& name) const {
    const json& v = field(obj, name);
    if (!v.is_string()) wrong_type(name, "a string", v);
    return v.get<std::string>();
  }

  bool boolean(const json& obj, const std::string& name) const {
    const json& v = field(obj, name);
    if (!v.is_boolean()) wrong_type(name, "true or false", v);
    return v.get<bool>();
  }

  std::int64_t integer(const json& obj, const std::string& name) const {
    const json& v = field(obj, name);
    if (!v.is_number_integer()) wrong_type(name, "an integer", v);
    if (v.is_number_unsigned() &&
        v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      fail("field '" + name + "' is too large for a 64-bit integer");
    }
    return v.get<std::int64_t>();
  }

  int small_integer(const json& obj, const std::string& name) const {
    const std::int64_t v = integer(obj, name);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
      fail("field '" + name + "' = " + std::to_string(v) + " does not fit an int");
    }
    return static_cast<int>(v);
  }

  double number(const json& obj, const std::string& name) const {
    const json& v = field(obj, name);
    if (!v.is_number()) wrong_type(name, "a number", v);
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail("field '" + name + "' is not a finite number");
    return d;
  }

  template <typename T>
  T positive(T v, const std::string& name) const {
    if (!(v > 0)) fail("field '" + name + "' must be > 0, got " + num(static_cast<double>(v)));
    return v;
  }

  template <typename T>
  T non_negative(T v, const std::string& name) const {
    if (!(v >= 0)) fail("field '" + name + "' must be >= 0, got " + num(static_cast<double>(v)));
    return v;
  }

 private:
  [[noreturn]] void wrong_type(const std::string& name, const char* expected, const json& v) const {
    fail("field '" + name + "' must be " + expected + ", got " + v.type_name() +
         (v.is_null() ? " (a NaN or infinity is written as null)" : ""));
  }

  const std::string& origin_;
};

MachineProfile from_json(const json& doc, const std::string& origin) {
  const FieldReader r(origin);
  if (!doc.is_object()) r.fail("the top level must be a JSON object, got " + std::string(doc.type_name()));

  // The schema first: a file of another version fails with that message
  // rather than with the first field it happens to lack.
  auto schema = doc.find("schema");
  if (schema == doc.end()) {
    r.fail(std::string("schema version is missing (field 'schema', expected \"") + kProfileSchema +
           "\"): not an mmbench profile?");
  }
  if (!schema->is_string() || schema->get<std::string>() != kProfileSchema) {
    r.fail("schema version " + schema->dump() + " is not supported (field 'schema', expected \"" + kProfileSchema +
           "\")");
  }

  MachineProfile p;
  p.schema = kProfileSchema;
  p.host = r.string(doc, "host");
  p.cpu_model = r.string(doc, "cpu_model");
  p.cores = r.positive(r.small_integer(doc, "cores"), "cores");
  p.date = r.string(doc, "date");

  const json& libs = r.object(doc, "libraries");
  p.libraries.mpi = r.string(libs, "libraries.mpi");
  p.libraries.blas = r.string(libs, "libraries.blas");
  p.libraries.scalapack = r.string(libs, "libraries.scalapack");

  const json& tp = r.object(doc, "tuning_problem");
  p.problem.n = r.positive(r.integer(tp, "tuning_problem.n"), "tuning_problem.n");
  p.problem.pr = r.positive(r.small_integer(tp, "tuning_problem.pr"), "tuning_problem.pr");
  p.problem.pc = r.positive(r.small_integer(tp, "tuning_problem.pc"), "tuning_problem.pc");
  p.problem.kmin = r.integer(tp, "tuning_problem.kmin");
  if (p.problem.kmin < 2) {
    r.fail("field 'tuning_problem.kmin' must be >= 2, got " + std::to_string(p.problem.kmin));
  }
  p.problem.kmax = r.integer(tp, "tuning_problem.kmax");
  if (p.problem.kmax < p.problem.kmin) {
    r.fail("field 'tuning_problem.kmax' = " + std::to_string(p.problem.kmax) +
           " is below tuning_problem.kmin = " + std::to_string(p.problem.kmin));
  }
  p.problem.x = r.number(tp, "tuning_problem.x");
  if (!(p.problem.x > 0.0 && p.problem.x <= 1.0)) {
    r.fail("field 'tuning_problem.x' = " + num(p.problem.x) + " is outside (0, 1]");
  }
  p.problem.exhaustive = r.boolean(tp, "tuning_problem.exhaustive");

  const LbRecord lbs = read_lb_record(doc, origin);
  p.lb = lbs.lb;
  p.rule_lb = lbs.rule_lb;
  p.lb_panels = lbs.panels;
  p.lb_curve = lbs.curve;
  p.lb_at_max = r.positive(r.integer(doc, "lb_at_max"), "lb_at_max");
  p.peak_dgemm_mflops = r.positive(r.number(doc, "peak_dgemm_mflops"), "peak_dgemm_mflops");
  p.t_op_s = r.positive(r.number(doc, "t_op_s_per_flop"), "t_op_s_per_flop");

  // Network values are 0 when there was no network to measure (one rank);
  // once measured they must be usable by the models.
  p.network_measured = r.boolean(doc, "network_measured");
  p.latency_s = r.non_negative(r.number(doc, "latency_s"), "latency_s");
  p.tau_pingpong = r.non_negative(r.number(doc, "tau_pingpong_doubles_per_s"), "tau_pingpong_doubles_per_s");
  p.tau_alltoall = r.non_negative(r.number(doc, "tau_alltoall_doubles_per_s"), "tau_alltoall_doubles_per_s");
  if (p.network_measured) {
    r.positive(p.latency_s, "latency_s");
    r.positive(p.tau_pingpong, "tau_pingpong_doubles_per_s");
    r.positive(p.tau_alltoall, "tau_alltoall_doubles_per_s");
  }
  const std::string model = r.string(doc, "tau_model");
  if (model == "alltoall") {
    p.tau_model = TauModel::alltoall;
  } else if (model == "pingpong") {
    p.tau_model = TauModel::pingpong;
  } else {
    r.fail("field 'tau_model' must be \"alltoall\" or \"pingpong\", got \"" + model + "\"");
  }

  const json& tr = r.object(doc, "two_regime");
  auto nonneg = [&](const char* name) { return r.non_negative(r.number(tr, name), name); };
  p.two_regime.eager_latency_s = nonneg("two_regime.eager_latency_s");
  p.two_regime.eager_tau = nonneg("two_regime.eager_tau_doubles_per_s");
  p.two_regime.rendezvous_latency_s = nonneg("two_regime.rendezvous_latency_s");
  p.two_regime.rendezvous_tau = nonneg("two_regime.rendezvous_tau_doubles_per_s");
  p.two_regime.break_bytes = r.non_negative(r.integer(tr, "two_regime.break_bytes"), "two_regime.break_bytes");

  if (doc.contains("network_levels")) p.network_levels = network_levels_from_json(doc.at("network_levels"), origin);
  if (doc.contains("shift_overlap")) p.shift_overlap = shift_overlap_from_json(doc.at("shift_overlap"), origin);

  p.add_bytes_per_s = r.non_negative(r.number(doc, "add_bandwidth_bytes_per_s"), "add_bandwidth_bytes_per_s");

  if (doc.contains("strassen_crossover")) {
    const json& sc = r.object(doc, "strassen_crossover");
    p.strassen_l1_n = r.non_negative(r.integer(sc, "strassen_crossover.local_l1_n"), "strassen_crossover.local_l1_n");
    p.strassen_l2_n = r.non_negative(r.integer(sc, "strassen_crossover.local_l2_n"), "strassen_crossover.local_l2_n");
    p.strassen_tried_n =
        sc.contains("largest_n_tried")
            ? r.non_negative(r.integer(sc, "strassen_crossover.largest_n_tried"), "strassen_crossover.largest_n_tried")
            : std::max(p.strassen_l1_n, p.strassen_l2_n);
  }
  if (doc.contains("blas_kernels")) p.blas_kernels = blas_kernels_from_json(r.object(doc, "blas_kernels"), origin);
  if (doc.contains("packed_gemm")) p.packed = packed_tune_from_json(r.object(doc, "packed_gemm"), origin);
  if (doc.contains("core_layout")) p.core_layout = core_layout_from_json(r.object(doc, "core_layout"), origin);
  if (doc.contains("kernel_model"))
    p.kernel_model = kernel_model_from_json(r.object(doc, "kernel_model"), origin, p.kernel_model_csv);
  if (doc.contains("lb_check")) {
    const json& lc = r.object(doc, "lb_check");
    LbCheckRecord& c = p.lb_check;
    c.n = r.positive(r.integer(lc, "lb_check.n"), "lb_check.n");
    c.nb = r.positive(r.small_integer(lc, "lb_check.nb"), "lb_check.nb");
    c.rounds = r.positive(r.small_integer(lc, "lb_check.rounds"), "lb_check.rounds");
    c.reference_lb = r.positive(r.integer(lc, "lb_check.reference_lb"), "lb_check.reference_lb");
    c.coverage = r.number(lc, "lb_check.coverage");
    if (!(c.coverage >= 0.0 && c.coverage <= 1.0)) {
      r.fail("field 'lb_check.coverage' = " + num(c.coverage) + " is outside [0, 1]");
    }
    if (lc.contains("csv")) c.csv = r.string(lc, "lb_check.csv");
    const json& cands = r.field(lc, "lb_check.candidates");
    if (!cands.is_array() || cands.empty()) {
      r.fail("field 'lb_check.candidates' must be a non-empty array, got " + std::string(cands.type_name()) +
             (cands.is_array() ? " (empty)" : ""));
    }
    for (std::size_t i = 0; i < cands.size(); ++i) {
      const std::string at = "lb_check.candidates[" + std::to_string(i) + "]";
      if (!cands[i].is_object()) {
        r.fail("field '" + at + "' must be an object, got " + std::string(cands[i].type_name()));
      }
      LbCheckCandidate cd;
      cd.lb = r.positive(r.integer(cands[i], at + ".lb"), at + ".lb");
      cd.mflops_median = r.positive(r.number(cands[i], at + ".mflops_median"), at + ".mflops_median");
      cd.ratio_median = r.positive(r.number(cands[i], at + ".ratio_median"), at + ".ratio_median");
      cd.ratio_ci_lo = r.positive(r.number(cands[i], at + ".ratio_ci_lo"), at + ".ratio_ci_lo");
      cd.ratio_ci_hi = r.positive(r.number(cands[i], at + ".ratio_ci_hi"), at + ".ratio_ci_hi");
      c.candidates.push_back(cd);
    }
  }
  // An optional group of keys: all or none (older profiles have none).
  // True when the group is there; a partial group fails naming the first
  // missing key.
  auto group_present = [&](std::initializer_list<const char*> keys) {
    const bool any = std::any_of(keys.begin(), keys.end(), [&](const char* key) { return doc.contains(key); });
    if (any)
      for (const char* key : keys) r.field(doc, key);
    return any;
  };
  // The threaded DGEMM.
  if (group_present({"dgemm_threads", "dgemm_threaded_n", "dgemm_threaded_mflops", "dgemm_single_mflops"})) {
    p.dgemm_threads = r.non_negative(r.small_integer(doc, "dgemm_threads"), "dgemm_threads");
    p.dgemm_threaded_n = r.non_negative(r.integer(doc, "dgemm_threaded_n"), "dgemm_threaded_n");
    p.dgemm_threaded_mflops = r.non_negative(r.number(doc, "dgemm_threaded_mflops"), "dgemm_threaded_mflops");
    p.dgemm_single_mflops = r.non_negative(r.number(doc, "dgemm_single_mflops"), "dgemm_single_mflops");
    if (p.dgemm_threads > 0) {  // measured: every value must be usable
      r.positive(p.dgemm_threaded_n, "dgemm_threaded_n");
      r.positive(p.dgemm_threaded_mflops, "dgemm_threaded_mflops");
      r.positive(p.dgemm_single_mflops, "dgemm_single_mflops");
    }
  }
  // The threaded addition.
  if (doc.contains("first_touch_bytes_per_s"))
    p.first_touch_bytes_per_s = r.non_negative(r.number(doc, "first_touch_bytes_per_s"), "first_touch_bytes_per_s");
  if (group_present({"add_threads", "add_threaded_bytes_per_s"})) {
    p.add_threads = r.non_negative(r.small_integer(doc, "add_threads"), "add_threads");
    p.add_threaded_bytes_per_s = r.non_negative(r.number(doc, "add_threaded_bytes_per_s"), "add_threaded_bytes_per_s");
    if (p.add_threads > 0) r.positive(p.add_threaded_bytes_per_s, "add_threaded_bytes_per_s");  // measured: usable
  }
  p.cpu_peak = read_peak_record(doc, origin);
  if (doc.contains("memory_per_rank_bytes"))
    p.memory_per_rank_bytes = r.non_negative(r.integer(doc, "memory_per_rank_bytes"), "memory_per_rank_bytes");
  if (doc.contains("notes")) p.notes = r.string(doc, "notes");
  if (doc.contains("dgemm_profile_noise"))
    p.dgemm_profile_noise = r.non_negative(r.number(doc, "dgemm_profile_noise"), "dgemm_profile_noise");
  if (doc.contains("refreshed")) {
    const json& f = r.object(doc, "refreshed");
    p.refreshed.date = r.string(f, "refreshed.date");
    p.refreshed.factor = r.positive(r.number(f, "refreshed.factor"), "refreshed.factor");
    p.refreshed.points = r.positive(r.small_integer(f, "refreshed.points"), "refreshed.points");
    p.refreshed.seconds = r.non_negative(r.number(f, "refreshed.seconds"), "refreshed.seconds");
  }

  const json& prof = r.field(doc, "dgemm_profile");
  if (!prof.is_array()) {
    r.fail("field 'dgemm_profile' must be an array, got " + std::string(prof.type_name()));
  }
  for (std::size_t i = 0; i < prof.size(); ++i) {
    const std::string at = "dgemm_profile[" + std::to_string(i) + "]";
    if (!prof[i].is_object()) {
      r.fail("field '" + at + "' must be an object, got " + std::string(prof[i].type_name()));
    }
    model::DgemmPoint pt;
    pt.m = r.positive(r.integer(prof[i], at + ".m"), at + ".m");
    pt.n = r.positive(r.integer(prof[i], at + ".n"), at + ".n");
    pt.k = r.positive(r.integer(prof[i], at + ".k"), at + ".k");
    pt.mflops = r.positive(r.number(prof[i], at + ".mflops"), at + ".mflops");
    p.dgemm_profile.push_back(pt);
  }
  p.dgemm_profile_csv = r.string(doc, "dgemm_profile_csv");
  return p;
}

json to_json(const MachineProfile& p) {
  json doc;
  doc["schema"] = kProfileSchema;
  doc["host"] = p.host;
  doc["cpu_model"] = p.cpu_model;
  doc["cores"] = p.cores;
  doc["date"] = p.date;
  doc["libraries"] = {{"mpi", p.libraries.mpi}, {"blas", p.libraries.blas}, {"scalapack", p.libraries.scalapack}};
  doc["tuning_problem"] = {{"n", p.problem.n},
                           {"pr", p.problem.pr},
                           {"pc", p.problem.pc},
                           {"kmin", p.problem.kmin},
                           {"kmax", p.problem.kmax},
                           {"x", p.problem.x},
                           {"exhaustive", p.problem.exhaustive}};
  doc["lb"] = p.lb;
  doc["rule_lb"] = p.rule_lb > 0 ? p.rule_lb : p.lb;
  doc["lb_panels"] = p.lb_panels;
  doc["lb_at_max"] = p.lb_at_max;
  doc["peak_dgemm_mflops"] = p.peak_dgemm_mflops;
  doc["t_op_s_per_flop"] = p.t_op_s;
  if (p.lb_check.rounds > 0) {
    const LbCheckRecord& c = p.lb_check;
    json cands = json::array();
    for (const LbCheckCandidate& cd : c.candidates) {
      cands.push_back({{"lb", cd.lb},
                       {"mflops_median", cd.mflops_median},
                       {"ratio_median", cd.ratio_median},
                       {"ratio_ci_lo", cd.ratio_ci_lo},
                       {"ratio_ci_hi", cd.ratio_ci_hi}});
    }
    doc["lb_check"] = {{"n", c.n},
                       {"nb", c.nb},
                       {"rounds", c.rounds},
                       {"reference_lb", c.reference_lb},
                       {"coverage", c.coverage},
                       {"candidates", std::move(cands)},
                       {"csv", c.csv}};
  }
  write_lb_curve_record(p.lb_curve, doc);
  doc["network_measured"] = p.network_measured;
  doc["latency_s"] = p.latency_s;
  doc["tau_pingpong_doubles_per_s"] = p.tau_pingpong;
  doc["tau_alltoall_doubles_per_s"] = p.tau_alltoall;
  doc["tau_model"] = to_string(p.tau_model);
  doc["two_regime"] = {{"eager_latency_s", p.two_regime.eager_latency_s},
                       {"eager_tau_doubles_per_s", p.two_regime.eager_tau},
                       {"rendezvous_latency_s", p.two_regime.rendezvous_latency_s},
                       {"rendezvous_tau_doubles_per_s", p.two_regime.rendezvous_tau},
                       {"break_bytes", p.two_regime.break_bytes}};
  if (p.network_levels.present) doc["network_levels"] = network_levels_to_json(p.network_levels);
  if (p.shift_overlap.measured) doc["shift_overlap"] = shift_overlap_to_json(p.shift_overlap);
  doc["add_bandwidth_bytes_per_s"] = p.add_bytes_per_s;
  doc["strassen_crossover"] = {
      {"local_l1_n", p.strassen_l1_n}, {"local_l2_n", p.strassen_l2_n}, {"largest_n_tried", p.strassen_tried_n}};
  doc["dgemm_threads"] = p.dgemm_threads;
  doc["dgemm_threaded_n"] = p.dgemm_threaded_n;
  doc["dgemm_threaded_mflops"] = p.dgemm_threaded_mflops;
  doc["dgemm_single_mflops"] = p.dgemm_single_mflops;
  if (p.first_touch_bytes_per_s > 0) doc["first_touch_bytes_per_s"] = p.first_touch_bytes_per_s;
  doc["add_threads"] = p.add_threads;
  doc["add_threaded_bytes_per_s"] = p.add_threaded_bytes_per_s;
  write_peak_record(p.cpu_peak, doc);
  if (p.blas_kernels.probed) doc["blas_kernels"] = blas_kernels_to_json(p.blas_kernels);
  if (p.packed.measured) doc["packed_gemm"] = packed_tune_to_json(p.packed);
  if (p.core_layout.measured) doc["core_layout"] = core_layout_to_json(p.core_layout);
  if (p.kernel_model.measured) doc["kernel_model"] = kernel_model_to_json(p.kernel_model, p.kernel_model_csv);
  if (p.memory_per_rank_bytes > 0) doc["memory_per_rank_bytes"] = p.memory_per_rank_bytes;
  doc["notes"] = p.notes;
  if (p.dgemm_profile_noise > 0) doc["dgemm_profile_noise"] = p.dgemm_profile_noise;
  if (!p.refreshed.date.empty())
    doc["refreshed"] = {{"date", p.refreshed.date},
                        {"factor", p.refreshed.factor},
                        {"points", p.refreshed.points},
                        {"seconds", p.refreshed.seconds}};
  json prof = json::array();
  for (const model::DgemmPoint& pt : p.dgemm_profile) {
    prof.push_back({{"m", pt.m}, {"n", pt.n}, {"k", pt.k}, {"mflops", pt.mflops}});
  }
  doc["dgemm_profile"] = std::move(prof);
  doc["dgemm_profile_csv"] = p.dgemm_profile_csv;
  return doc;
}

// 1-based line and column of the character at 0-based offset `at`.
// Example: text "{\n  x" and at = 4 (the 'x') -> line 2, column 3.
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t at) {
  at = std::min(at, text.size());
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, at - line_start + 1};
}

}  // namespace

std::string to_string(TauModel model) { return model == TauModel::alltoall ? "alltoall" : "pingpong"; }

std::string profile_to_json(const MachineProfile& profile, const std::string& origin) {
  const json doc = to_json(profile);
  from_json(doc, origin);  // refuse to write what would not read back
  return doc.dump(2) + "\n";
}

MachineProfile parse_profile(const std::string& json_text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    // e.byte counts from 1 and points just past the offending character.
    const auto [line, column] = line_column(json_text, e.byte > 0 ? e.byte - 1 : 0);
    throw ProfileError(origin, "malformed JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
                                   " (" + e.what() + ")");
  }
  return from_json(doc, origin);
}

MachineProfile read_profile(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw ProfileError(path, "no such profile file");
  if (!std::filesystem::is_regular_file(status)) throw ProfileError(path, "not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ProfileError(path, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ProfileError(path, std::string("cannot read: ") + std::strerror(errno));
  return parse_profile(text.str(), path);
}

void write_profile(const MachineProfile& profile, const std::string& path) {
  const std::string text = profile_to_json(profile, path);
  try {
    write_file_atomically(path, text);
  } catch (const std::runtime_error& e) {
    throw ProfileError(path, e.what());
  }
}

namespace {

// model::MachineParams::dgemm_busy_sharing from tune's two DGEMM timings at
// the same n: cpu_peak.dgemm_gflops (rank 0 alone) and dgemm_single_mflops
// (every tune rank at once, one thread each: m.profiled_busy_cores cores of
// the node busy), against the FMA ladder's ratio between the same counts.
// Example: 51.6 GFLOP/s alone, 47 500 MFLOPS per core with 2 busy, ladder
// 56.1, 55.0: (51.6 / 47.5) / (56.1 / 55.0) = 1.065. 1 where a timing is
// missing, the sizes differ, one core was busy, or DGEMM lost no more than
// the FMA loop (a smaller ratio is the two timings' noise, not a gain).
double dgemm_busy_sharing(const MachineProfile& profile, const model::MachineParams& m) {
  const int p = m.profiled_busy_cores;
  if (!profile.cpu_peak || p < 2 || m.peak_per_core_by_busy.size() < static_cast<std::size_t>(p)) return 1.0;
  const PeakRecord& peak = *profile.cpu_peak;
  if (!(peak.dgemm_gflops > 0) || !(profile.dgemm_single_mflops > 0) || peak.dgemm_n != profile.dgemm_threaded_n)
    return 1.0;
  const double fma_ratio = m.peak_per_core_by_busy[0] / m.peak_per_core_by_busy[static_cast<std::size_t>(p) - 1];
  const double dgemm_ratio = peak.dgemm_gflops * 1e3 / profile.dgemm_single_mflops;
  return fma_ratio > 0 ? std::max(1.0, dgemm_ratio / fma_ratio) : 1.0;
}

}  // namespace

model::MachineParams to_params(const MachineProfile& profile) {
  model::MachineParams m;
  m.latency_s = profile.latency_s;
  m.tau = profile.tau_model == TauModel::alltoall ? profile.tau_alltoall : profile.tau_pingpong;
  m.t_op = profile.t_op_s;
  m.latency_eager_s = profile.two_regime.eager_latency_s;
  m.latency_rendezvous_s = profile.two_regime.rendezvous_latency_s;
  m.tau_eager = profile.two_regime.eager_tau;
  m.tau_rendezvous = profile.two_regime.rendezvous_tau;
  m.eager_limit_bytes = profile.two_regime.break_bytes;
  m.add_bytes_per_s = profile.add_bytes_per_s;
  m.first_touch_bytes_per_s = profile.first_touch_bytes_per_s;
  m.dgemm_profile = profile.dgemm_profile;
  if (profile.kernel_model.measured) m.dgemm_shape_fit = profile.kernel_model.dgemm;
  if (profile.dgemm_threads >= 2 && profile.dgemm_threaded_mflops > 0 && profile.dgemm_single_mflops > 0) {
    m.thread_efficiency_threads = profile.dgemm_threads;
    m.thread_efficiency = profile.dgemm_threaded_mflops / (profile.dgemm_threads * profile.dgemm_single_mflops);
  }
  if (profile.add_threads >= 2 && profile.add_threaded_bytes_per_s > 0 && profile.add_bytes_per_s > 0) {
    m.add_thread_speedup_threads = profile.add_threads;
    m.add_thread_speedup = profile.add_threaded_bytes_per_s / profile.add_bytes_per_s;
  }
  if (profile.packed.measured) m.packed_speed = profile.packed.packed_mflops / profile.packed.blas_mflops;
  if (profile.packed.measured && profile.packed.level.measured())
    m.packed_level_speed = profile.packed.level.packed_vs_dgemm;
  if (profile.network_levels.present) m.network = profile.network_levels.levels;
  if (profile.shift_overlap.measured) {
    std::vector<model::OverlapPoint> points;
    for (const ShiftOverlapPoint& pt : profile.shift_overlap.points)
      points.push_back({static_cast<double>(pt.bytes), pt.fraction});
    m.shift_overlap = model::OverlapCurve(std::move(points));
  }
  // Busy cores: the ladder per busy-core count of the node, and how many of
  // its cores tune's DGEMM timings kept busy (its ranks on the node).
  if (profile.cpu_peak && profile.cpu_peak->cores >= 1 && !profile.cpu_peak->by_busy_cores.empty()) {
    for (int c = 1; c <= profile.cpu_peak->cores; ++c)
      m.peak_per_core_by_busy.push_back(peak_gflops_per_core(*profile.cpu_peak, c));
    m.profiled_busy_cores = std::max(1, m.network.ranks_on_a_node(profile.problem.pr * profile.problem.pc));
    m.dgemm_busy_sharing = dgemm_busy_sharing(profile, m);
  }
  return m;
}

std::string default_profile_path(const std::string& host) {
  if (host.empty() || host == "." || host == ".." || host.find('/') != std::string::npos) {
    throw std::invalid_argument("default_profile_path: host name \"" + host + "\" is not usable as a file name");
  }
  return "configs/" + host + ".json";
}

}  // namespace mmbench::profile
