// SPDX-License-Identifier: Apache-2.0
#include "cli/option_values.h"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace dpl::cli {

CLI::Validator integer_in(long long lo, unsigned long long hi) {
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        const bool negative = !text.empty() && text[0] == '-';
        const std::string digits = text.substr(!text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0);
        if (digits.empty() || digits.size() > 20 || digits.find_first_not_of("0123456789") != std::string::npos)
          return "value " + text + " is not an integer: allowed integers " + range;
        errno = 0;
        const unsigned long long magnitude = std::strtoull(digits.c_str(), nullptr, 10);
        const bool in_range = errno != ERANGE &&
                              (negative ? magnitude == 0 || (lo < 0 && magnitude <= static_cast<unsigned long long>(-(lo + 1)) + 1)
                                        : magnitude <= hi && (lo <= 0 || magnitude >= static_cast<unsigned long long>(lo)));
        if (!in_range) return "value " + text + " is out of range: allowed integers " + range;
        return "";
      },
      "INT in " + range, "integer in " + range);
}

CLI::Validator seed_value() { return integer_in(0, UINT64_MAX); }

}  // namespace dpl::cli
