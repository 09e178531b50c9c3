#include "core/machine/openblas_cores.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace mmbench {

const std::vector<OpenblasCore>& openblas_cores() {
  using W = KernelWidth;
  static const std::vector<OpenblasCore> cores = {
      // Probed, narrowest first.
      {"Prescott", W::sse, "SSE3", {"pni"}},  // /proc/cpuinfo calls SSE3 "pni"
      {"Nehalem", W::sse, "SSE4.2", {"pni", "ssse3", "sse4_1", "sse4_2"}},
      {"Sandybridge", W::avx, "AVX", {"avx"}},
      {"Haswell", W::avx2, "AVX2", {"avx", "avx2", "fma"}},
      {"Zen", W::avx2, "AVX2", {"avx", "avx2", "fma"}},
      {"SkylakeX", W::avx512, "AVX-512", {"avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl"}},
      {"Cooperlake",
       W::avx512,
       "AVX-512",
       {"avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16"}},
      {"SapphireRapids",
       W::avx512,
       "AVX-512",
       {"avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16", "avx512_fp16", "amx_tile"}},
      // Known, not probed (their DGEMM is one of the above, or the CPU is old).
      {"Core2", W::sse, "SSSE3", {}},
      {"Penryn", W::sse, "SSE4.1", {}},
      {"Dunnington", W::sse, "SSE4.1", {}},
      {"Atom", W::sse, "SSSE3", {}},
      {"Opteron", W::sse, "SSE2", {}},
      {"Opteron_SSE3", W::sse, "SSE3", {}},
      {"Barcelona", W::sse, "SSE4a", {}},
      {"Bobcat", W::sse, "SSE4a", {}},
      {"Nano", W::sse, "SSE3", {}},
      {"Bulldozer", W::avx, "AVX", {}},
      {"Piledriver", W::avx, "AVX", {}},
      {"Steamroller", W::avx, "AVX", {}},
      {"Excavator", W::avx2, "AVX2", {}},
  };
  return cores;
}

const OpenblasCore* find_openblas_core(std::string_view name) {
  const auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string wanted = lower(name);
  for (const OpenblasCore& core : openblas_cores())
    if (lower(core.name) == wanted) return &core;
  return nullptr;
}

std::vector<std::string> candidate_cores(const std::set<std::string>& cpu_flags) {
  std::vector<std::string> out;
  for (const OpenblasCore& core : openblas_cores()) {
    if (core.needs.empty()) continue;
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
