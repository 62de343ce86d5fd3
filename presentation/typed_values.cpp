// SPDX-License-Identifier: Apache-2.0
#include "presentation/typed_values.h"

#include "accounting/errors.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace dpl::presentation {

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

}  // namespace dpl::presentation
