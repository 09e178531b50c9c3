#include "preload/lb_choice.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include <nlohmann/json.hpp>

#include "profile/lb_record.hpp"      // the one reader of the lb fields, linked in (nlohmann-json and std only)
#include "profile/profile_error.hpp"  // kProfileSchema: this library links no other part of mmbench

namespace mmbench::preload {

namespace {

bool unset(const char* v) { return v == nullptr || *v == '\0'; }

// Digits only (no sign, no blanks), 1 .. INT_MAX; 0 when it is not one.
int parse_positive(const char* text) {
  long long v = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9') return 0;
    v = v * 10 + (*c - '0');
    if (v > std::numeric_limits<int>::max()) return 0;
  }
  return static_cast<int>(v);
}

// Reads the whole file into text; false and why when it cannot.
bool read_file(const char* path, std::string& text, std::string& why) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path, "rb"), &std::fclose);
  if (!f) {
    why = std::string("cannot open it (") + std::strerror(errno) + ")";
    return false;
  }
  char buf[4096];
  std::size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, f.get())) > 0) text.append(buf, got);
  if (std::ferror(f.get())) {
    why = std::string("cannot read it (") + std::strerror(errno) + ")";
    return false;
  }
  return true;
}

// lb of a profile file, read by the profile's own reader of the lb fields
// (profile/lb_record.hpp); 0 and why if none. How each PDGEMM follows it
// into *cap: its lb_curve, else its lb_panels.
int profile_lb(const char* path, std::string& why, LbCap* cap) {
  *cap = LbCap::tuned();
  std::string text;
  if (!read_file(path, text, why)) return 0;
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    why = "not valid JSON";
    return 0;
  }
  if (!doc.is_object()) {
    why = "not a JSON object";
    return 0;
  }
  auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() || schema->get<std::string>() != profile::kProfileSchema) {
    why = std::string("not an mmbench profile (field 'schema' is not \"") + profile::kProfileSchema + "\")";
    return 0;
  }
  try {
    const profile::LbRecord lbs = profile::read_lb_record(doc, path);
    *cap = profile::cap_of(lbs);
    return static_cast<int>(lbs.lb);
  } catch (const profile::ProfileError& e) {
    // "<path>: field ...": the path is already in the caller's line.
    const std::string prefix = std::string(path) + ": ";
    why = e.what();
    if (why.compare(0, prefix.size(), prefix) == 0) why.erase(0, prefix.size());
    return 0;
  }
}

}  // namespace

LbChoice choose_lb(const char* lb_env, const char* profile_env) noexcept {
  LbChoice c;
  try {
    if (!unset(lb_env)) {
      const int lb = parse_positive(lb_env);
      if (lb > 0) {
        c.lb = lb;
        c.source = "MMBENCH_LB";
      } else {
        c.problem = std::string("MMBENCH_LB='") + lb_env + "' is not a positive integer";
      }
    } else if (!unset(profile_env)) {
      std::string why;
      LbCap cap;
      const int lb = profile_lb(profile_env, why, &cap);
      if (lb > 0) {
        c.lb = lb;
        c.cap = cap;
        c.source = std::string("MMBENCH_PROFILE=") + profile_env;
      } else {
        c.problem = std::string("MMBENCH_PROFILE=") + profile_env + ": " + why;
      }
    }
  } catch (...) {  // e.g. out of memory: someone else's program must go on
    c = LbChoice{};
    c.problem = "cannot read the configuration";
  }
  return c;
}

int lb_for_call(const LbChoice& c, std::int64_t k, int pr, int pc, int nb, std::int64_t length) noexcept {
  if (k <= 0) return c.lb;
  return lb_in_force(c.lb, c.cap, k, pr, pc, nb, length);
}

std::string describe(const LbChoice& c) {
  const std::string fallback = "ScaLAPACK's default lb = " + std::to_string(kScalapackDefaultLb);
  if (!c.problem.empty()) return "mmbench-lb: " + c.problem + "; serving " + fallback + " instead";
  if (c.source.empty()) return "mmbench-lb: serving " + fallback + " (neither MMBENCH_LB nor MMBENCH_PROFILE is set)";
  std::string line = "mmbench-lb: serving lb = " + std::to_string(c.lb) + " to PBLAS (from " + c.source + ")";
  if (!c.cap.curve.empty())
    line += ", each PDGEMM's from the profile's lb curve for its own size (" + std::to_string(c.cap.curve.count) +
            " sizes measured)";
  else if (c.cap.panels > 0)
    line += ", each PDGEMM's capped at " + std::to_string(c.cap.panels) +
            " panels per process (at least " + std::to_string(kScalapackDefaultLb) + ")";
  return line;
}

}  // namespace mmbench::preload
