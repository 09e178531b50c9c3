// Memory sizes as people write and read them.
//
//   parse_byte_size("--memory-per-rank", "4G")    -> 4294967296 (binary: G = 2^30)
//   parse_byte_size(..., "512M") -> 536870912;  "1.5G" -> 1610612736;
//   "65536" -> 65536 (bytes);  "4GiB", "4GB", "4g" -> as "4G"
//   "4X", "-1", "0" -> UsageError naming the option, the value and what is allowed
//   format_bytes(3.5 * 2^30) -> "3.50 GiB";  format_bytes(1536) -> "1.50 KiB"
#pragma once

#include <cstdint>
#include <string>

namespace mmbench {

// A positive size: a number (decimals allowed) with an optional K, M, G or
// T suffix (binary multiples; "B", "iB" may follow). Throws UsageError.
std::int64_t parse_byte_size(const std::string& option, const std::string& text);

// Three significant digits and the largest binary unit below the value.
std::string format_bytes(double bytes);

}  // namespace mmbench
