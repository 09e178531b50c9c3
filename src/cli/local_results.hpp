// Where a command writes when it is given no path: results/local/, which
// git ignores (.gitignore), so running mmbench in a clone never changes a
// tracked file. To publish a result, copy it into results/ and git add it.
#pragma once

#include <string>

namespace mmbench::cli {

inline constexpr char kLocalResultsDir[] = "results/local";

// "results/local/<file_name>" (relative to the working directory).
std::string local_results_path(const std::string& file_name);

// Creates results/local/ (and results/) where missing. Rank 0 only (the
// one that writes). Throws std::runtime_error naming the folder and why.
void make_local_results_dir();

}  // namespace mmbench::cli
