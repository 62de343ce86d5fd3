// SPDX-License-Identifier: Apache-2.0
#include "presentation/json_numbers.h"

#include "accounting/numeric/decimal.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <stdexcept>

namespace dpl::presentation {


namespace {

// Marks a JSON string that dump_json() turns into a bare number token. argv and spec texts cannot contain NUL,
// so no user string starts with it.
const std::string kNumberMark = std::string("\0dpl-number:", 12);
// How nlohmann writes the mark inside a dumped string.
const std::string kDumpedMark = "\"\\u0000dpl-number:";

// A JSON number token (RFC 8259, section 6).
bool is_json_number(const std::string& s) {
  static const std::regex number(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)");
  return std::regex_match(s, number);
}

// The decimal string is already rounded in the safe direction. In the normal double range the double nearest
// to a decimal of at most 15 significant digits prints back (shortest round trip) as that same decimal
// (15 <= DBL_DIG), so it is stored as a double; outside that range (subnormal, underflow to 0, overflow) the
// decimal itself becomes the number token, so JSON carries exactly the text's directed decimal.
Json number_or_inf(const std::string& s) {
  if (s == "inf" || s == "-inf") return s;
  if (!is_json_number(s)) throw std::logic_error("internal: '" + s + "' is not a number to print as JSON");
  const double d = std::strtod(s.c_str(), nullptr);
  const std::size_t digits = std::count_if(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(std::min(s.find_first_of("eE"), s.size())),
                                           [](char c) { return c >= '0' && c <= '9'; });
  const bool exact_as_double = d == 0 ? s.find_first_of("123456789") == std::string::npos
                                      : std::isfinite(d) && std::fabs(d) >= DBL_MIN && digits <= DBL_DIG;
  if (exact_as_double) return d;
  return kNumberMark + s;
}

}  // namespace

// Above the largest double, JSON readers reject the token (overflow): an upper bound there is written "inf"
// (still a bound), a lower bound as the largest double rounded down (still below the value).
Json json_upper(const Interval& x) {
  if (hi(x) > Real(DBL_MAX)) return "inf";
  return number_or_inf(format_upper(x));
}
Json json_upper_decimal(const std::string& s) {
  // At or above the largest double a reader gets DBL_MAX (possibly below the decimal) or an overflow: "inf".
  if (s != "inf" && is_json_number(s) && std::strtod(s.c_str(), nullptr) >= DBL_MAX) return "inf";
  return number_or_inf(s);
}
Json json_decimal(const std::string& s) { return json_upper_decimal(s); }
Json json_lower(const Interval& x) {
  if (lo(x) > Real(DBL_MAX)) return number_or_inf(format_down(Real(DBL_MAX)));
  return number_or_inf(format_lower(x));
}
Json json_input(double x) {
  if (std::isnan(x)) throw std::logic_error("internal: NaN where a JSON number is expected");
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

std::string dump_json(const Json& j) {
  // A string that is not valid UTF-8 (a file name's raw bytes) gets U+FFFD for its invalid bytes instead of a throw.
  const std::string raw = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string out;
  out.reserve(raw.size());
  std::size_t pos = 0;
  while (true) {
    const std::size_t at = raw.find(kDumpedMark, pos);
    if (at == std::string::npos) break;
    const std::size_t start = at + kDumpedMark.size();
    const std::size_t end = raw.find('"', start);
    out.append(raw, pos, at - pos);
    out.append(raw, start, end - start);  // the validated number token, unquoted
    pos = end + 1;
  }
  out.append(raw, pos, std::string::npos);
  return out;
}

}  // namespace dpl::presentation
