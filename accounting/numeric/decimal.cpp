// SPDX-License-Identifier: Apache-2.0
#include "accounting/numeric/decimal.h"

#include "accounting/numeric/portable_math.h"

#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <memory>
#include <stdexcept>

namespace dpl {

namespace {

std::string format_with(const Real& x, int digits, char mode) {
  const mpfr_srcptr p = x.backend().data();
  if (mpfr_nan_p(p)) return "nan";
  if (mpfr_inf_p(p)) return mpfr_sgn(p) > 0 ? "inf" : "-inf";
  if (mpfr_zero_p(p)) return "0";  // never "-0"
  char* out = nullptr;
  std::string fmt = std::string("%.*R") + mode + "g";
  if (mpfr_asprintf(&out, fmt.c_str(), digits, p) < 0) return "nan";
  std::string s(out);
  mpfr_free_str(out);
  return s;
}

}  // namespace

std::string format_up(const Real& x, int digits) { return format_with(x, digits, 'U'); }
std::string format_down(const Real& x, int digits) { return format_with(x, digits, 'D'); }
std::string format_nearest(const Real& x, int digits) { return format_with(x, digits, 'N'); }
std::string format_upper(const Interval& x, int digits) { return format_up(hi(x), digits); }
std::string format_lower(const Interval& x, int digits) { return format_down(lo(x), digits); }

bool is_decimal_literal(const std::string& s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto digits = [&] {
    const std::size_t from = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    return i - from;
  };
  if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < n && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == n;
}

DecimalValue decimal_value(const std::string& s) {
  if (!is_decimal_literal(s)) throw std::invalid_argument("not a decimal number: " + s);
  DecimalValue v;
  v.exact = from_decimal(s);
  v.down = lo_down(v.exact);
  v.up = hi_up(v.exact);
  v.nearest = std::strtod(s.c_str(), nullptr);
  return v;
}

namespace {

// The shortest decimal d that reads back as x from the safe side: rounded down (d <= x) with decimal_value(d).up
// == x, or rounded up (d >= x) with decimal_value(d).down == x. With enough digits d lies between x and its
// neighbour on that side (17 usually suffice, just below a power of two a few more).
std::string shortest_reading_back(double x, bool round_up) {
  if (!std::isfinite(x) || x == 0) return format_input(x);
  for (int p = 1; p <= 40; ++p) {
    const std::string s = round_up ? format_up(Real(x), p) : format_down(Real(x), p);
    const DecimalValue v = decimal_value(s);
    if ((round_up ? v.down : v.up) == x) return s;
  }
  return round_up ? format_up(Real(x), 60) : format_down(Real(x), 60);
}

}  // namespace

std::string format_guarantee(double x) { return shortest_reading_back(x, false); }

std::string format_target(double x) { return shortest_reading_back(x, true); }

std::string format_input(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  // Integers and plain magnitudes read better without an exponent ("20", not "2e+01").
  const double ax = std::fabs(x);
  if (std::strchr(buf, 'e') != nullptr && ax >= 1 && ax < 1e15) {
    const int int_digits = static_cast<int>(std::floor(portable::log10(ax))) + 1;
    int p = int_digits;
    for (; p <= 17; ++p) {
      std::snprintf(buf, sizeof buf, "%.*g", p, x);
      if (std::strtod(buf, nullptr) == x) break;
    }
  }
  if (std::string(buf) == "-0") return "0";
  return trim_exponent(buf);
}

std::string trim_exponent(std::string s) {
  if (const auto e = s.find('e'); e != std::string::npos) {
    std::size_t d = e + 1;
    if (d < s.size() && (s[d] == '-' || s[d] == '+')) ++d;
    if (s[e + 1] == '+') s.erase(e + 1, 1), --d;
    while (d + 1 < s.size() && s[d] == '0') s.erase(d, 1);
  }
  return s;
}

}  // namespace dpl
