#include "cli/local_results.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace mmbench::cli {

std::string local_results_path(const std::string& file_name) {
  return std::string(kLocalResultsDir) + "/" + file_name;
}

void make_local_results_dir() {
  std::error_code ec;
  std::filesystem::create_directories(kLocalResultsDir, ec);
  if (ec) throw std::runtime_error(std::string("cannot create the folder ") + kLocalResultsDir + ": " + ec.message());
}

}  // namespace mmbench::cli
