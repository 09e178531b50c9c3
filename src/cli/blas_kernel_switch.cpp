#include "cli/blas_kernel_switch.hpp"

#include <cblas.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/machine/blas.hpp"

namespace mmbench::cli {

namespace {
constexpr const char* kMarker = "MMBENCH_BLAS_KERNEL_SWITCHED";

std::string profile_argument(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--profile" && i + 1 < argc) return argv[i + 1];
    if (a.rfind("--profile=", 0) == 0) return a.substr(10);
  }
  return "";
}

bool has_flag(int argc, char** argv, const char* flag) {
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], flag) == 0) return true;
  return false;
}
}  // namespace

void switch_blas_kernel(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "run") != 0) return;
  if (!pinned_blas_core().empty() || std::getenv(kMarker) != nullptr) return;
  if (has_flag(argc, argv, "--keep-blas-kernel")) return;
  const std::string path = profile_argument(argc, argv);
  if (path.empty()) return;
  std::string fastest;
  try {
    std::ifstream in(path);
    if (!in) return;  // run reports an unreadable profile itself
    const nlohmann::json doc = nlohmann::json::parse(in);
    if (!doc.contains("blas_kernels")) return;
    const nlohmann::json& k = doc.at("blas_kernels");
    if (!k.at("switch_pays").get<bool>()) return;
    fastest = k.at("fastest").get<std::string>();
  } catch (const std::exception&) {
    return;  // likewise: run's own reading names the problem
  }
  const std::string running = openblas_get_corename();
  if (fastest.empty() || strcasecmp(fastest.c_str(), running.c_str()) == 0) return;
  const std::string note = fastest + " (was " + running + "; profile " + path + ")";
  setenv("OPENBLAS_CORETYPE", fastest.c_str(), 1);
  setenv(kMarker, note.c_str(), 1);
  execv("/proc/self/exe", argv);
  // Not re-executed: go on with the running core, as if no switch was asked.
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv(kMarker);
}

std::string switched_blas_kernel() {
  const char* v = std::getenv(kMarker);
  return v != nullptr ? v : "";
}

}  // namespace mmbench::cli
