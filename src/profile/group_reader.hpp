// The reader of the profile's optional groups (profile/peak_record.cpp,
// kernel_model_record.cpp, network_levels_record.cpp, blas_kernel_record.cpp,
// core_layout.cpp, packed_tune_record.cpp, shift_overlap_record.cpp): one set of checks
// and one wording for a missing, mistyped or out-of-range field.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "profile/profile_error.hpp"

namespace mmbench::profile {

// Typed fields of an optional group of the profile (cpu_peak, kernel_model,
// network_levels), each error naming the dotted path
// ("cpu_peak.isas[1].one_core_gflops") like the profile's own reader.
class GroupReader {
 public:
  using json = nlohmann::ordered_json;

  explicit GroupReader(const std::string& origin) : origin_(origin) {}
  [[noreturn]] void fail(const std::string& problem) const { throw ProfileError(origin_, problem); }

  const json& field(const json& obj, const std::string& path, const char* key) const {
    const auto it = obj.find(key);
    if (it == obj.end()) fail("field '" + path + "' is missing");
    return *it;
  }
  const json& object(const json& obj, const std::string& path, const char* key) const {
    const json& v = field(obj, path, key);
    if (!v.is_object()) fail("field '" + path + "' must be an object, got " + v.type_name());
    return v;
  }
  std::string string(const json& obj, const std::string& path, const char* key) const {
    const json& v = field(obj, path, key);
    if (!v.is_string()) fail("field '" + path + "' must be a string, got " + v.type_name());
    return v.get<std::string>();
  }
  bool boolean(const json& obj, const std::string& path, const char* key) const {
    const json& v = field(obj, path, key);
    if (!v.is_boolean()) fail("field '" + path + "' must be true or false, got " + v.type_name());
    return v.get<bool>();
  }
  std::int64_t integer(const json& obj, const std::string& path, const char* key, std::int64_t lo,
                       std::int64_t hi) const {
    const json& v = field(obj, path, key);
    if (!v.is_number_integer()) fail("field '" + path + "' must be an integer, got " + v.type_name());
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
      fail("field '" + path + "' must be <= " + std::to_string(hi) + ", got " + v.dump());
    const std::int64_t i = v.get<std::int64_t>();
    if (i < lo) fail("field '" + path + "' must be >= " + std::to_string(lo) + ", got " + std::to_string(i));
    if (i > hi) fail("field '" + path + "' must be <= " + std::to_string(hi) + ", got " + std::to_string(i));
    return i;
  }
  // A finite number >= 0 (> 0 with positive).
  double number(const json& obj, const std::string& path, const char* key, bool positive) const {
    const json& v = field(obj, path, key);
    if (!v.is_number())
      fail("field '" + path + "' must be a number, got " + v.type_name() +
           (v.is_null() ? " (a NaN or infinity is written as null)" : ""));
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail("field '" + path + "' is not a finite number");
    if (positive ? !(d > 0) : !(d >= 0))
      fail("field '" + path + "' must be " + (positive ? "> 0" : ">= 0") + ", got " + v.dump());
    return d;
  }

 private:
  const std::string& origin_;
};

}  // namespace mmbench::profile
