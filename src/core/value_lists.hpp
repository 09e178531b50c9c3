// Parsing of the sweep values the user writes on the command line.
//
//   "4096"                 -> 4096
//   "1024,2048,4096"       -> 1024 2048 4096
//   "1024:4096:1024"       -> 1024 2048 3072 4096   (start:stop:step, inclusive)
//   "512:4096:*2"          -> 512 1024 2048 4096    (geometric step)
//   "256,1024:2048:512"    -> 256 1024 1536 2048    (lists of items)
// Values must be whole numbers in [min, max]; a malformed item throws
// UsageError naming the option, the item and what is allowed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mmbench {

std::vector<std::int64_t> parse_int_list(const std::string& option, const std::string& text,
                                         std::int64_t min, std::int64_t max);

// Comma-separated words, empty items rejected.
std::vector<std::string> parse_word_list(const std::string& option, const std::string& text);

// "auto" -> {0, 0}; "PxQ" with P, Q >= 1 -> {P, Q}.
std::pair<int, int> parse_grid(const std::string& option, const std::string& text);

}  // namespace mmbench
