#include "accounting/numeric/decimal.h"

#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace dpl {

namespace {

std::string format_with(const Real& x, int digits, char mode) {
  const mpfr_srcptr p = x.backend().data();
  if (mpfr_nan_p(p)) return "nan";
  if (mpfr_inf_p(p)) return mpfr_sgn(p) > 0 ? "inf" : "-inf";
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

std::string format_input(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

}  // namespace dpl
