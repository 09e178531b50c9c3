#include "core/machine/cpu_features.hpp"

#include <fstream>
#include <sstream>

#include "core/machine/sysinfo.hpp"

namespace mmbench {

namespace {
// Every flag with its name, widest first (the order to_string writes).
struct FlagName {
  const char* name;
  bool CpuFlags::*field;
};
constexpr FlagName kFlagNames[] = {
    {"avx512f", &CpuFlags::avx512f}, {"avx512bf16", &CpuFlags::avx512bf16},
    {"avx2", &CpuFlags::avx2},       {"fma", &CpuFlags::fma},
    {"avx", &CpuFlags::avx},         {"sse2", &CpuFlags::sse2},
};

// The value of the first "key : value" line of /proc/cpuinfo whose key is
// exactly `key` ("model" must not match "model name").
std::string cpuinfo_value(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string k = line.substr(0, colon);
    k.erase(k.find_last_not_of(" \t") + 1);
    if (k != key) continue;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

int to_int_or(const std::string& text, int fallback) {
  try {
    std::size_t used = 0;
    const int v = std::stoi(text, &used);
    return used == text.size() ? v : fallback;
  } catch (const std::exception&) {
    return fallback;
  }
}
}  // namespace

// The strings below are appended piece by piece: GCC 12 warns falsely
// (-Wrestrict) on `(cond ? "" : " ") + std::string(x)` chains.
std::string to_string(const CpuFlags& flags) {
  std::string out;
  for (const FlagName& f : kFlagNames) {
    if (!(flags.*(f.field))) continue;
    if (!out.empty()) out += ' ';
    out += f.name;
  }
  return out;
}

CpuFlags parse_cpu_flags(std::string_view text) {
  CpuFlags flags;
  std::istringstream in{std::string(text)};
  std::string word;
  while (in >> word)
    for (const FlagName& f : kFlagNames)
      if (word == f.name) flags.*(f.field) = true;
  return flags;
}

std::string_view isa_name(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::avx512:
      return "avx512";
    case VectorIsa::avx2_fma:
      return "avx2+fma";
    case VectorIsa::sse2:
      return "sse2";
  }
  return "";
}

std::optional<VectorIsa> parse_isa(std::string_view name) {
  for (VectorIsa isa : {VectorIsa::avx512, VectorIsa::avx2_fma, VectorIsa::sse2})
    if (name == isa_name(isa)) return isa;
  return std::nullopt;
}

std::vector<VectorIsa> vector_isas(const CpuFlags& flags) {
  std::vector<VectorIsa> out;
  if (flags.avx512f) out.push_back(VectorIsa::avx512);
  if (flags.avx2 && flags.fma) out.push_back(VectorIsa::avx2_fma);
  if (flags.sse2) out.push_back(VectorIsa::sse2);
  return out;
}

CpuInfo detect_cpu() {
  CpuInfo cpu;
  cpu.model = cpu_model();
  cpu.vendor = cpuinfo_value("vendor_id");
  cpu.family = to_int_or(cpuinfo_value("cpu family"), -1);
  cpu.model_number = to_int_or(cpuinfo_value("model"), -1);
  cpu.cores = cpu_cores();
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  cpu.flags.sse2 = __builtin_cpu_supports("sse2") != 0;
  cpu.flags.avx = __builtin_cpu_supports("avx") != 0;
  cpu.flags.fma = __builtin_cpu_supports("fma") != 0;
  cpu.flags.avx2 = __builtin_cpu_supports("avx2") != 0;
  cpu.flags.avx512f = __builtin_cpu_supports("avx512f") != 0;
  cpu.flags.avx512bf16 = __builtin_cpu_supports("avx512bf16") != 0;
#endif
  return cpu;
}

std::string describe_cpu(const CpuInfo& cpu) {
  std::string out = cpu.model;
  std::string detail = cpu.vendor;
  auto add = [&detail](const char* what, int value) {
    if (!detail.empty()) detail += ' ';
    detail += what;
    detail += std::to_string(value);
  };
  if (cpu.family >= 0) add("family ", cpu.family);
  if (cpu.model_number >= 0) add("model ", cpu.model_number);
  if (!detail.empty()) {
    out += " (";
    out += detail;
    out += ')';
  }
  return out;
}

}  // namespace mmbench
