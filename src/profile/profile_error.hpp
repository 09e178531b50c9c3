// The profile file's schema name and the one error every reader of it
// throws (machine_profile.cpp, group_reader.hpp and the record units), so
// that a record includes this and not the profile that includes it.
#pragma once

#include <stdexcept>
#include <string>

namespace mmbench::profile {

inline constexpr const char* kProfileSchema = "mmbench-profile/1";

// A profile file that cannot be used. The message always starts with the
// file name and names the field or the problem, e.g.
// "configs/node17.json: field 'tuning_problem.kmax' is missing".
class ProfileError : public std::runtime_error {
 public:
  ProfileError(const std::string& path, const std::string& problem) : std::runtime_error(path + ": " + problem) {}
};

}  // namespace mmbench::profile
