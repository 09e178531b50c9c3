#include "core/openblas_cores.hpp"

#include <fstream>
#include <sstream>

namespace mmbench {

const std::vector<OpenblasCore>& openblas_cores() {
  static const std::vector<OpenblasCore> cores = {
      {"Prescott", {"pni"}},  // /proc/cpuinfo calls SSE3 "pni"
      {"Nehalem", {"pni", "ssse3", "sse4_1", "sse4_2"}},
      {"Sandybridge", {"avx"}},
      {"Haswell", {"avx", "avx2", "fma"}},
      {"Zen", {"avx", "avx2", "fma"}},
      {"SkylakeX", {"avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl"}},
      {"Cooperlake", {"avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16"}},
      {"SapphireRapids",
       {"avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16", "avx512_fp16", "amx_tile"}},
  };
  return cores;
}

std::vector<std::string> candidate_cores(const std::set<std::string>& cpu_flags) {
  std::vector<std::string> out;
  for (const OpenblasCore& core : openblas_cores()) {
    bool all = true;
    for (std::string_view need : core.needs) all = all && cpu_flags.count(std::string(need)) > 0;
    if (all) out.emplace_back(core.name);
  }
  return out;
}

std::set<std::string> cpu_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    std::istringstream words(line.substr(colon + 1));
    std::set<std::string> flags;
    for (std::string w; words >> w;) flags.insert(w);
    return flags;
  }
  return {};
}

}  // namespace mmbench
