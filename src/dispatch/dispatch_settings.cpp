#include "dispatch/dispatch_settings.hpp"

#include <cerrno>
#include <cstdlib>

#include <algorithm>

namespace mmbench::dispatch {

namespace {

std::string value(const std::function<const char*(const char*)>& getenv, const char* name) {
  const char* v = getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

// A decimal integer in [lo, hi]; false otherwise.
bool parse_int(const std::string& s, std::int64_t lo, std::int64_t hi, std::int64_t* out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool is_off(const std::string& s) { return s == "0" || s == "off" || s == "no" || s == "false"; }
bool is_on(const std::string& s) { return s == "1" || s == "on" || s == "yes" || s == "true"; }

// An on/off switch `name`: *flag set where it reads as on or off, else one
// line in problems ("NAME='x' <refusal>") and *flag kept at its default.
void read_switch(const std::function<const char*(const char*)>& getenv, const char* name, const std::string& refusal,
                 bool* flag, std::vector<std::string>* problems) {
  const std::string v = value(getenv, name);
  if (v.empty()) return;
  if (is_on(v))
    *flag = true;
  else if (is_off(v))
    *flag = false;
  else
    problems->push_back(std::string(name) + "='" + v + "' " + refusal);
}

}  // namespace

const std::vector<std::string>& classical_members() {
  static const std::vector<std::string> n = {"ring", "tpmm", "2.5d"};
  return n;
}

const std::vector<std::string>& strassen_members() {
  static const std::vector<std::string> n = {"strassen-q7+ring", "strassen-q8+tpmm", "strassen-q8+dgemm"};
  return n;
}

bool parse_forced(const std::string& text, ForcedMember* out) {
  ForcedMember f;
  const std::size_t slash = text.find('/');
  const std::string head = text.substr(0, slash);
  const std::size_t colon = head.find(':');
  f.name = head.substr(0, colon);
  const auto among = [&](const std::vector<std::string>& v) {
    return std::find(v.begin(), v.end(), f.name) != v.end();
  };
  if (f.name != "scalapack" && !among(classical_members()) && !among(strassen_members())) return false;
  if ((colon != std::string::npos || slash != std::string::npos) && f.name == "scalapack") return false;
  std::int64_t v = 0;
  if (colon != std::string::npos) {
    if (!parse_int(head.substr(colon + 1), 0, 6, &v)) return false;
    f.levels = static_cast<int>(v);
  }
  if (slash != std::string::npos) {
    if (!parse_int(text.substr(slash + 1), 1, 64, &v)) return false;
    f.hybrid = static_cast<int>(v);
  }
  *out = f;
  return true;
}

DispatchSettings read_dispatch_settings(const std::function<const char*(const char*)>& getenv) {
  DispatchSettings s;
  read_switch(getenv, "MMBENCH_DISPATCH", "is not on or off; dispatch stays on", &s.enabled, &s.problems);
  read_switch(getenv, "MMBENCH_DISPATCH_STRASSEN", "is not 1 or 0; Strassen stays off", &s.strassen, &s.problems);
  read_switch(getenv, "MMBENCH_DISPATCH_HYBRID", "is not 1 or 0; hybrids stay off", &s.hybrid, &s.problems);
  const std::string force = value(getenv, "MMBENCH_DISPATCH_FORCE");
  if (!force.empty()) {
    ForcedMember f;
    if (parse_forced(force, &f))
      s.force = force;
    else
      s.problems.push_back("MMBENCH_DISPATCH_FORCE='" + force +
                           "' is not a member (scalapack, ring, tpmm, 2.5d, strassen-q7+ring, strassen-q8+tpmm, "
                           "strassen-q8+dgemm; name:L for L local levels, 0..6; /t for a ranks x threads hybrid, "
                           "1..64); the model decides");
  }
  const std::string gemm = value(getenv, "MMBENCH_DISPATCH_GEMM");
  if (!gemm.empty()) {
    if (gemm == "blas" || gemm == "packed")
      s.gemm = local::parse_leaf_gemm(gemm);
    else if (gemm != "auto")
      s.problems.push_back("MMBENCH_DISPATCH_GEMM='" + gemm + "' is not auto, blas or packed; auto");
  }
  const std::string min_dim = value(getenv, "MMBENCH_DISPATCH_MIN_DIM");
  if (!min_dim.empty() && !parse_int(min_dim, 0, std::int64_t(1) << 40, &s.min_dim))
    s.problems.push_back("MMBENCH_DISPATCH_MIN_DIM='" + min_dim + "' is not an integer >= 0; " +
                         std::to_string(kDefaultMinDim));
  const std::string max_mb = value(getenv, "MMBENCH_DISPATCH_MAX_MB");
  if (!max_mb.empty() && !parse_int(max_mb, 1, std::int64_t(1) << 40, &s.max_mib))
    s.problems.push_back("MMBENCH_DISPATCH_MAX_MB='" + max_mb + "' is not a positive integer; " +
                         std::to_string(kDefaultMaxMiB));
  s.log_path = value(getenv, "MMBENCH_DISPATCH_LOG");
  s.profile_path = value(getenv, "MMBENCH_PROFILE");
  const std::string verbose = value(getenv, "MMBENCH_VERBOSE");
  s.verbose = !verbose.empty() && verbose != "0";
  return s;
}

std::string describe(const DispatchSettings& s) {
  std::string line = "mmbench-dispatch: ";
  if (!s.enabled) {
    line += "dispatch off (MMBENCH_DISPATCH=off): every PDGEMM to ScaLAPACK";
  } else {
    if (!s.force.empty()) line += "forced to " + s.force + " (MMBENCH_DISPATCH_FORCE), ";
    else if (s.profile_path.empty()) line += "no MMBENCH_PROFILE, so no model: every PDGEMM to ScaLAPACK, ";
    else line += "classical dispatch on (ring, tpmm, 2.5d against ScaLAPACK's PDGEMM), ";
    line += std::string("Strassen ") + (s.strassen ? "on (MMBENCH_DISPATCH_STRASSEN=1)" : "off") + ", hybrids " +
            (s.hybrid ? "on (MMBENCH_DISPATCH_HYBRID=1)" : "off") + ", local GEMM " +
            (s.gemm ? std::string(local::to_string(*s.gemm)) : std::string("auto")) + ", calls with min(M, N, K) < " +
            std::to_string(s.min_dim) + " to ScaLAPACK, conversion memory <= " + std::to_string(s.max_mib) +
            " MiB per rank";
  }
  line += ", profile " + (s.profile_path.empty() ? std::string("none") : s.profile_path);
  line += ", census " + (s.log_path.empty() ? std::string("off") : s.log_path);
  return line;
}

}  // namespace mmbench::dispatch
