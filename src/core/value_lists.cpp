#include "core/value_lists.hpp"

#include <charconv>

#include "core/usage_error.hpp"

namespace mmbench {

namespace {

constexpr std::size_t kMaxValues = 10000;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) { out.push_back(cur); cur.clear(); }
    else cur += c;
  }
  out.push_back(cur);
  return out;
}

std::int64_t to_int(const std::string& option, const std::string& item, const std::string& part,
                    std::int64_t min, std::int64_t max) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
  if (part.empty() || ec != std::errc() || ptr != part.data() + part.size())
    throw UsageError(option + ": '" + item + "' is not a whole number or range (expected e.g. 1024, 1024,2048 or 1024:4096:1024)");
  if (v < min || v > max)
    throw UsageError(option + ": " + part + " is out of range; allowed " + std::to_string(min) + " to " + std::to_string(max));
  return v;
}

}  // namespace

std::vector<std::int64_t> parse_int_list(const std::string& option, const std::string& text,
                                         std::int64_t min, std::int64_t max) {
  std::vector<std::int64_t> out;
  if (text.empty()) throw UsageError(option + ": empty value");
  for (const std::string& item : split(text, ',')) {
    auto parts = split(item, ':');
    if (parts.size() == 1) {
      out.push_back(to_int(option, item, parts[0], min, max));
    } else if (parts.size() == 3) {
      std::int64_t a = to_int(option, item, parts[0], min, max);
      std::int64_t b = to_int(option, item, parts[1], min, max);
      if (a > b) throw UsageError(option + ": range '" + item + "' has start > stop");
      bool geometric = !parts[2].empty() && parts[2][0] == '*';
      std::int64_t step = to_int(option, item, geometric ? parts[2].substr(1) : parts[2], geometric ? 2 : 1,
                                 geometric ? 1024 : max);
      for (std::int64_t v = a; v <= b; v = geometric ? v * step : v + step) {
        out.push_back(v);
        if (out.size() > kMaxValues) throw UsageError(option + ": more than 10000 values");
      }
    } else {
      throw UsageError(option + ": '" + item + "' is malformed (ranges are start:stop:step or start:stop:*factor)");
    }
    if (out.size() > kMaxValues) throw UsageError(option + ": more than 10000 values");
  }
  return out;
}

std::vector<std::string> parse_word_list(const std::string& option, const std::string& text) {
  auto out = split(text, ',');
  for (auto& w : out)
    if (w.empty()) throw UsageError(option + ": empty item in '" + text + "'");
  return out;
}

std::pair<int, int> parse_grid(const std::string& option, const std::string& text) {
  if (text == "auto") return {0, 0};
  auto x = text.find('x');
  if (x == std::string::npos)
    throw UsageError(option + ": '" + text + "' is not a grid; use auto or PxQ, e.g. 2x4");
  auto p = to_int(option, text, text.substr(0, x), 1, 1 << 20);
  auto q = to_int(option, text, text.substr(x + 1), 1, 1 << 20);
  return {static_cast<int>(p), static_cast<int>(q)};
}

}  // namespace mmbench
