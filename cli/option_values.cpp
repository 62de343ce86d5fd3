// SPDX-License-Identifier: Apache-2.0
#include "cli/option_values.h"

#include "accounting/errors.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace dpl::cli {

double parse_finite(const std::string& option, const std::string& value) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || end == value.c_str() || *end != '\0')
    throw InputError(option + " " + value + ": not a number");
  if (!std::isfinite(v)) throw InputError(option + " " + value + ": not a finite number");
  if (errno == ERANGE)
    throw InputError(option + " " + value + ": out of the range of a double (magnitudes 2.3e-308 to 1.8e308, or 0)");
  return v;
}

namespace {
DecimalValue decimal_of(const std::string& option, const std::string& value) {
  try {
    return decimal_value(value);
  } catch (const std::invalid_argument&) {
    throw InputError(option + " " + value + ": not a decimal number");
  }
}
}  // namespace

DecimalValue parse_decimal(const std::string& option, const std::string& value) { return decimal_of(option, value); }

DecimalValue parse_delta(const std::string& option, const std::string& value, bool allow_zero) {
  const double d = parse_finite(option, value);
  if (d < 0 || d >= 1 || (!allow_zero && d == 0))
    throw InputError(option + " " + value + ": out of range, allowed " + (allow_zero ? "[0, 1)" : "(0, 1)"));
  DecimalValue v = decimal_of(option, value);
  // A decimal just below 1 whose upper neighbour double is 1 is still a valid delta (the bound uses `down`).
  if (v.down < 0 || v.down >= 1)
    throw InputError(option + " " + value + ": out of range, allowed " + (allow_zero ? "[0, 1)" : "(0, 1)"));
  return v;
}

DecimalValue parse_epsilon(const std::string& option, const std::string& value) {
  const double e = parse_finite(option, value);
  if (e < 0) throw InputError(option + " " + value + ": out of range, allowed [0, inf)");
  return decimal_of(option, value);
}

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

std::vector<double> parse_list(const std::string& option, const std::string& value) {
  std::vector<double> out;
  std::size_t pos = 0;
  while (true) {
    const auto comma = value.find(',', pos);
    out.push_back(parse_finite(option, value.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

}  // namespace dpl::cli
