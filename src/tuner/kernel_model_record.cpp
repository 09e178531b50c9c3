#include "tuner/kernel_model_record.hpp"

#include <cmath>

#include "tuner/machine_profile.hpp"

namespace mmbench::tuner {

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
  return {{"a_s", f.a_s},
          {"b_s_per_byte", f.b_s_per_byte},
          {"log_sd", f.log_sd},
          {"repeat_log_sd", f.repeat_log_sd},
          {"sizes", f.sizes},
          {"points", f.points}};
}

// Reads one number of group `at`: finite, >= 0, or > 0 where `positive`.
double read(const json& j, const std::string& at, const char* key, const std::string& origin, bool positive = false) {
  const std::string name = "kernel_model." + at + key;
  if (!j.contains(key)) throw ProfileError(origin, "field '" + name + "' is missing");
  const json& v = j.at(key);
  if (!v.is_number()) throw ProfileError(origin, "field '" + name + "' must be a number, got " + v.type_name());
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < 0 || (positive && d == 0))
    throw ProfileError(origin, "field '" + name + "' must be a finite number " + (positive ? "> 0" : ">= 0") +
                                   ", got " + std::to_string(d));
  return d;
}

int read_count(const json& j, const std::string& at, const char* key, const std::string& origin) {
  const std::string name = "kernel_model." + at + key;
  if (!j.contains(key) || !j.at(key).is_number_integer() || j.at(key).get<long long>() < 1 ||
      j.at(key).get<long long>() > (1LL << 30))
    throw ProfileError(origin, "field '" + name + "' must be an integer in [1, 2^30]");
  return static_cast<int>(j.at(key).get<long long>());
}

const json& group(const json& j, const char* key, const std::string& origin) {
  if (!j.contains(key) || !j.at(key).is_object())
    throw ProfileError(origin, std::string("field 'kernel_model.") + key + "' must be an object");
  return j.at(key);
}

BytesTimeFit pass_from(const json& j, const char* key, const std::string& origin) {
  const json& g = group(j, key, origin);
  const std::string at = std::string(key) + ".";
  BytesTimeFit f;
  f.a_s = read(g, at, "a_s", origin);
  f.b_s_per_byte = read(g, at, "b_s_per_byte", origin, true);
  f.log_sd = read(g, at, "log_sd", origin);
  f.repeat_log_sd = read(g, at, "repeat_log_sd", origin);
  f.sizes = read_count(g, at, "sizes", origin);
  f.points = read_count(g, at, "points", origin);
  return f;
}

}  // namespace

json kernel_model_to_json(const KernelTimeModel& m, const std::string& csv) {
  return {{"max_dim", m.max_dim},       {"rounds", m.rounds},        {"ranks", m.ranks},
          {"dgemm", dgemm_json(m.dgemm)}, {"add", pass_json(m.add)},   {"copy", pass_json(m.copy)},
          {"pack", pass_json(m.pack)},  {"csv", csv}};
}

KernelTimeModel kernel_model_from_json(const json& j, const std::string& origin, std::string& csv) {
  KernelTimeModel m;
  m.measured = true;
  m.max_dim = read_count(j, "", "max_dim", origin);
  m.rounds = read_count(j, "", "rounds", origin);
  m.ranks = read_count(j, "", "ranks", origin);
  const json& d = group(j, "dgemm", origin);
  m.dgemm.a_s = read(d, "dgemm.", "a_s", origin);
  m.dgemm.b_s_per_mnk = read(d, "dgemm.", "b_s_per_mnk", origin, true);
  m.dgemm.c_s_per_mn = read(d, "dgemm.", "c_s_per_mn", origin);
  m.dgemm.d_s_per_mk = read(d, "dgemm.", "d_s_per_mk", origin);
  m.dgemm.e_s_per_nk = read(d, "dgemm.", "e_s_per_nk", origin);
  m.dgemm.log_sd = read(d, "dgemm.", "log_sd", origin);
  m.dgemm.repeat_log_sd = read(d, "dgemm.", "repeat_log_sd", origin);
  m.dgemm.shapes = read_count(d, "dgemm.", "shapes", origin);
  m.dgemm.points = read_count(d, "dgemm.", "points", origin);
  m.add = pass_from(j, "add", origin);
  m.copy = pass_from(j, "copy", origin);
  m.pack = pass_from(j, "pack", origin);
  csv.clear();
  if (j.contains("csv")) {
    if (!j.at("csv").is_string()) throw ProfileError(origin, "field 'kernel_model.csv' must be a string");
    csv = j.at("csv").get<std::string>();
  }
  return m;
}

}  // namespace mmbench::tuner
