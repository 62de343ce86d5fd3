// SPDX-License-Identifier: Apache-2.0
#include "accounting/rdp/rdp_double_exp.h"

#include <mpfr.h>

#include <cmath>
#include <limits>

namespace dpl {

namespace {

using DI = DoubleInterval;

constexpr int kDegree = 13;
constexpr double kLn2High = 0x1.62e42feep-1;  // ln 2 to 32 significant bits: k * kLn2High is exact for |k| < 2^21

struct ExpConstants {
  DI ln2_low;                 // ln 2 - kLn2High, enclosed
  DI inv_factorial[kDegree + 1];  // 1/k!, enclosed (k! is exact in binary64 for k <= 18)
  ExpConstants() {
    mpfr_t l;
    mpfr_init2(l, 256);
    mpfr_const_log2(l, MPFR_RNDN);  // within 2^-256 relative; the rounding below has room for it
    mpfr_sub_d(l, l, kLn2High, MPFR_RNDN);  // exact at 256 bits (the difference has ~224 significant bits)
    // Widen by one more ulp each way to absorb the 2^-256 error of the 256-bit ln 2.
    ln2_low = {down(mpfr_get_d(l, MPFR_RNDD)), up(mpfr_get_d(l, MPFR_RNDU))};
    mpfr_clear(l);
    double f = 1;
    for (int k = 0; k <= kDegree; ++k) {
      if (k > 0) f *= k;  // exact
      inv_factorial[k] = DI::point(1) / DI::point(f);
    }
  }
};
const ExpConstants& constants() {
  static const ExpConstants c;
  return c;
}

}  // namespace

// e^x = 2^k e^r; e^r = sum_{m<=13} r^m/m! + e^xi r^14/14! with |xi| <= |r| <= 0.35 (Taylor, Lagrange remainder;
// e^0.35 < 2), so the remainder lies in [-2 0.35^14/14!, 2 0.35^14/14!] within [-1e-17, 1e-17]. Enclosure.
DoubleInterval exp_enclosure(double x) {
  constexpr double kMax = std::numeric_limits<double>::max();
  if (std::isnan(x)) return {0, std::numeric_limits<double>::infinity()};
  if (x > 709.8) return {kMax, std::numeric_limits<double>::infinity()};  // e^709.8 > DBL_MAX
  if (x < -745.2) return {0, std::numeric_limits<double>::denorm_min()};   // e^-745.2 < 2^-1075
  const ExpConstants& c = constants();
  const double k = std::floor(x * 1.4426950408889634 + 0.5);  // |k| <= 1076; any integer k keeps the formula exact
  const DI r = (DI::point(x) - DI::point(k * kLn2High)) - DI::point(k) * c.ln2_low;
  // |r| <= ln(2)/2 + 2^-40 < 0.35, which the remainder below needs.
  if (!(r.lo >= -0.35 && r.hi <= 0.35)) return {0, std::numeric_limits<double>::infinity()};  // unreachable
  // Horner, p_m = 1/m! + r p_{m+1}: every p_m is positive (p_{m+1} < 1.5/(m+1)! and |r| < 0.35), so the product's
  // lower end is r.lo times p.lo or p.hi by the sign of r.lo, the upper end likewise (interval product, widened).
  double plo = c.inv_factorial[kDegree].lo, phi = c.inv_factorial[kDegree].hi;
  for (int m = kDegree - 1; m >= 0; --m) {
    const double a = down(r.lo * (r.lo >= 0 ? plo : phi)), b = up(r.hi * (r.hi >= 0 ? phi : plo));
    plo = down(c.inv_factorial[m].lo + a);
    phi = up(c.inv_factorial[m].hi + b);
  }
  DI p{plo, phi};
  constexpr double kRemainder = 1e-17;  // 2 * 0.35^14/14! = 9.4e-18
  p = p + DI{-kRemainder, kRemainder};
  const int ki = static_cast<int>(k);
  if (ki >= -1020 && ki <= 1022) return {std::ldexp(p.lo, ki), std::ldexp(p.hi, ki)};  // exact: stays normal
  // Near the ends of the range ldexp may round (subnormal) or overflow: widen outward.
  double lo = down(std::ldexp(p.lo, ki)), hi = up(std::ldexp(p.hi, ki));
  if (lo < 0) lo = 0;
  if (std::isinf(lo)) lo = kMax;
  return {lo, hi};
}

}  // namespace dpl
