#include "profile/kernel_model_record.hpp"

#include <cmath>

#include "profile/profile_error.hpp"
#include "profile/group_reader.hpp"

namespace mmbench::profile {

namespace {

using json = nlohmann::ordered_json;

json dgemm_json(const DgemmTimeFit& f) {
  return {{"a_s", f.a_s},
          {"b_s_per_mnk", f.b_s_per_mnk},
          {"c_s_per_mn", f.c_s_per_mn},
          {"d_s_per_mk", f.d_s_per_mk},
          {"e_s_per_nk", f.e_s_per_nk},
          {"log_sd", f.log_sd},
          {"repeat_log_sd", f.repeat_log_sd},
          {"shapes", f.shapes},
          {"points", f.points}};
}

json pass_json(const BytesTimeFit& f) {
  return {{"a_s", f.a_s},       {"b_s_per_byte", f.b_s_per_byte},
          {"log_sd", f.log_sd}, {"repeat_log_sd", f.repeat_log_sd},
          {"sizes", f.sizes},   {"points", f.points}};
}

// The fields of group `at` ("" or "dgemm." ...): a number >= 0 (> 0 where
// `positive`), a count in [1, 2^30].
struct FitFields {
  const GroupReader& r;
  const json& g;
  std::string at;
  double number(const char* key, bool positive = false) const {
    return r.number(g, "kernel_model." + at + key, key, positive);
  }
  int count(const char* key) const {
    return static_cast<int>(r.integer(g, "kernel_model." + at + key, key, 1, std::int64_t{1} << 30));
  }
};

BytesTimeFit pass_from(const GroupReader& r, const json& j, const char* key) {
  const FitFields g{r, r.object(j, std::string("kernel_model.") + key, key), std::string(key) + "."};
  BytesTimeFit f;
  f.a_s = g.number("a_s");
  f.b_s_per_byte = g.number("b_s_per_byte", true);
  f.log_sd = g.number("log_sd");
  f.repeat_log_sd = g.number("repeat_log_sd");
  f.sizes = g.count("sizes");
  f.points = g.count("points");
  return f;
}

}  // namespace

json kernel_model_to_json(const KernelTimeModel& m, const std::string& csv) {
  return {{"max_dim", m.max_dim},      {"rounds", m.rounds},
          {"ranks", m.ranks},          {"dgemm", dgemm_json(m.dgemm)},
          {"add", pass_json(m.add)},   {"copy", pass_json(m.copy)},
          {"pack", pass_json(m.pack)}, {"csv", csv}};
}

KernelTimeModel kernel_model_from_json(const json& j, const std::string& origin, std::string& csv) {
  const GroupReader r(origin);
  KernelTimeModel m;
  m.measured = true;
  const FitFields top{r, j, ""};
  m.max_dim = top.count("max_dim");
  m.rounds = top.count("rounds");
  m.ranks = top.count("ranks");
  const FitFields d{r, r.object(j, "kernel_model.dgemm", "dgemm"), "dgemm."};
  m.dgemm.a_s = d.number("a_s");
  m.dgemm.b_s_per_mnk = d.number("b_s_per_mnk", true);
  m.dgemm.c_s_per_mn = d.number("c_s_per_mn");
  m.dgemm.d_s_per_mk = d.number("d_s_per_mk");
  m.dgemm.e_s_per_nk = d.number("e_s_per_nk");
  m.dgemm.log_sd = d.number("log_sd");
  m.dgemm.repeat_log_sd = d.number("repeat_log_sd");
  m.dgemm.shapes = d.count("shapes");
  m.dgemm.points = d.count("points");
  m.add = pass_from(r, j, "add");
  m.copy = pass_from(r, j, "copy");
  m.pack = pass_from(r, j, "pack");
  csv.clear();
  if (j.contains("csv")) {
    if (!j.at("csv").is_string()) throw ProfileError(origin, "field 'kernel_model.csv' must be a string");
    csv = j.at("csv").get<std::string>();
  }
  return m;
}

}  // namespace mmbench::profile
