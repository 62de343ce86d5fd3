#include "cli/option_values.h"

#include "accounting/errors.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace dpl::cli {

double parse_finite(const std::string& option, const std::string& value) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || end == value.c_str() || *end != '\0')
    throw InputError(option + " " + value + ": not a number");
  if (!std::isfinite(v) || errno == ERANGE) throw InputError(option + " " + value + ": not a finite number");
  return v;
}

double parse_delta(const std::string& option, const std::string& value, bool allow_zero) {
  const double d = parse_finite(option, value);
  if (d < 0 || d >= 1 || (!allow_zero && d == 0))
    throw InputError(option + " " + value + ": out of range, allowed " + (allow_zero ? "[0, 1)" : "(0, 1)"));
  return d;
}

double parse_epsilon(const std::string& option, const std::string& value) {
  const double e = parse_finite(option, value);
  if (e < 0) throw InputError(option + " " + value + ": out of range, allowed [0, inf)");
  return e;
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

}  // namespace dpl::cli
