#include "accounting/numeric/decimal.h"

#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <memory>

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

DecimalValue decimal_value(const std::string& s) {
  DecimalValue v;
  v.exact = from_decimal(s);
  v.down = lo_down(v.exact);
  v.up = hi_up(v.exact);
  v.nearest = std::strtod(s.c_str(), nullptr);
  return v;
}

std::string format_guarantee(double x) {
  if (!std::isfinite(x) || x == 0) return format_input(x);
  // Rounded down, the decimal is <= x; with enough digits it is above x's lower neighbour (17 usually suffice,
  // just below a power of two a few more).
  for (int p = 1; p <= 40; ++p) {
    const std::string s = format_down(Real(x), p);
    if (decimal_value(s).up == x) return s;
  }
  return format_down(Real(x), 60);
}

std::string format_target(double x) {
  if (!std::isfinite(x) || x == 0) return format_input(x);
  // Rounded up, the decimal is >= x; with enough digits it is below x's upper neighbour.
  for (int p = 1; p <= 40; ++p) {
    const std::string s = format_up(Real(x), p);
    if (decimal_value(s).down == x) return s;
  }
  return format_up(Real(x), 60);
}

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
    const int int_digits = static_cast<int>(std::floor(std::log10(ax))) + 1;
    int p = int_digits;
    for (; p <= 17; ++p) {
      std::snprintf(buf, sizeof buf, "%.*g", p, x);
      if (std::strtod(buf, nullptr) == x) break;
    }
  }
  if (std::string(buf) == "-0") return "0";
  return buf;
}

}  // namespace dpl
