#include "core/byte_size.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/usage_error.hpp"

namespace mmbench {

std::int64_t parse_byte_size(const std::string& option, const std::string& text) {
  const auto bad = [&] {
    return UsageError(option + ": '" + text +
                      "' is not a memory size; allowed a number above 0 with an optional K, M, G or T suffix "
                      "(binary multiples: 4G = 4 GiB, 512M = 512 MiB), at most 1024T");
  };
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.')) throw bad();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  std::string suffix(end);
  for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double scale = 1;
  if (!suffix.empty()) {
    const char* units = "KMGT";
    int power = -1;
    for (int i = 0; i < 4; ++i)
      if (suffix[0] == units[i]) power = i + 1;
    if (power > 0) {
      scale = std::ldexp(1.0, 10 * power);
      suffix.erase(0, 1);
    }
    if (!(suffix.empty() || suffix == "B" || suffix == "IB")) throw bad();
  }
  const double bytes = value * scale;
  if (!(bytes >= 1) || !std::isfinite(bytes) || bytes > std::ldexp(1.0, 50)) throw bad();
  return static_cast<std::int64_t>(std::llround(bytes));
}

std::string format_bytes(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  double v = bytes;
  while (std::abs(v) >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{:.0f} B", v);
  return fmt::format("{:.{}f} {}", v, std::abs(v) >= 100 ? 0 : std::abs(v) >= 10 ? 1 : 2, units[u]);
}

}  // namespace mmbench
