#include "algos/memory_estimate.hpp"

#include <fmt/format.h>

#include <utility>
#include <vector>

#include "core/byte_size.hpp"
#include "core/simulation.hpp"

namespace mmbench::algos {

namespace {
std::vector<std::pair<const char*, double>> named_parts(const MemoryEstimate& m) {
  return {{"a", m.a},         {"b", m.b},       {"c", m.c},         {"replicas", m.replicas},
          {"comm", m.comm},   {"strassen", m.strassen}, {"local", m.local}, {"library", m.library}};
}

const char* words(const std::string& key) {
  if (key == "a") return "A";
  if (key == "b") return "B";
  if (key == "c") return "C";
  if (key == "replicas") return "replicas";
  if (key == "comm") return "message buffers";
  if (key == "strassen") return "Strassen temporaries";
  if (key == "local") return "local kernel";
  return "libraries";
}
}  // namespace

void add_buffers(MemoryEstimate& m, double MemoryEstimate::*part, double doubles, double count) {
  m.*part += count * doubles;
  if (8.0 * doubles < double(sim::kSharedBufferBytes)) m.small += count * doubles;
}

std::string describe(const MemoryEstimate& m) {
  std::string parts;
  for (const auto& [key, doubles] : named_parts(m))
    if (doubles > 0)
      parts += fmt::format("{}{} {}{}", parts.empty() ? "" : ", ", words(key), format_bytes(8 * doubles),
                           std::string(key) == "library" ? " (estimate)" : "");
  return format_bytes(m.bytes()) + (parts.empty() ? "" : " (" + parts + ")");
}

std::string parts_text(const MemoryEstimate& m) {
  std::string out;
  for (const auto& [key, doubles] : named_parts(m))
    if (doubles > 0) out += fmt::format("{}{}={:.4g}", out.empty() ? "" : ";", key, doubles * 8 / (1 << 20));
  return out;
}

}  // namespace mmbench::algos
